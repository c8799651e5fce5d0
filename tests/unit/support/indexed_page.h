// A page record as the fetcher ships it to the queue server, for the index
// tests: its mini index holds the body's words as English stems with their
// positions (fetcher/page/mini_index.h does the same for real pages), and its
// text hash and content digest are drawn from the body, so two records
// with the same body read as unchanged and different bodies as changed.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "common/base/hash.h"
#include "common/text/packed_terms.h"
#include "common/text/stemmer.h"
#include "common/text/tokenizer.h"
#include "proto/crawl.pb.h"

namespace crawl::test_support {

// A page of `url` answering `status`; only a 200 carries the body's index.
inline v1::FetchRecord IndexedPage(const std::string& url, const std::string& body, int status = 200) {
  v1::FetchRecord r;
  r.set_url(url);
  r.set_kind(v1::URL_KIND_PAGE);
  r.set_status(status);
  r.set_title("Page");
  r.set_language("en");
  if (status != 200) return r;
  r.set_text_hash(hash::Hash8(body));
  r.set_content_digest(std::to_string(hash::Hash8(body)));
  v1::MiniIndex* mi = r.mutable_mini_index();
  mi->set_stem_language("english");
  text::Stemmer en("en");
  std::map<std::string, v1::IndexTerm*> terms;
  uint32_t pos = 0;
  text::ForEachToken(body, [&](std::string_view w) {
    std::string stem(en.Stem(w));
    v1::IndexTerm*& t = terms[stem];
    if (!t) {
      t = mi->add_terms();
      t->set_term(stem);
    }
    t->add_positions(pos++);
    t->set_body_count(t->body_count() + 1);
  });
  mi->set_token_count(pos);
  // As fetchers send it (common/text/packed_terms.h); packing checked terms
  // cannot fail.
  (void)text::PackTerms(mi);
  return r;
}

}  // namespace crawl::test_support
