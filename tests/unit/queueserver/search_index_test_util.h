// Helpers of the search index tests (search_index_test.cc,
// search_index_storage_test.cc): a page record as a fetcher ships it, the
// URLs a query finds, and a small corpus.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "common/base/hash.h"
#include "common/text/packed_terms.h"
#include "common/text/stemmer.h"
#include "common/text/tokenizer.h"
#include "proto/crawl.pb.h"
#include "queueserver/index/search_index.h"

namespace crawl::queueserver::index_test {

using namespace crawl::queueserver;  // NOLINT: the unit under test
namespace v1 = crawl::v1;

// A page record as the fetcher ships it: title words then body words, stemmed
// with the English stemmer; the body is one description sentence. Terms
// packed into `postings` as fetchers send them, or (`packed` false) in
// `terms`, as older fetchers did.
inline v1::FetchRecord Page(const std::string& url, const std::string& title, const std::string& body,
                            bool packed = true) {
  crawl::text::Stemmer en("en");
  v1::FetchRecord r;
  r.set_url(url);
  r.set_kind(v1::URL_KIND_PAGE);
  r.set_status(200);
  r.set_title(title);
  r.set_language("en");
  r.set_text_hash(crawl::hash::Hash8(title + " " + body));
  v1::MiniIndex* mi = r.mutable_mini_index();
  mi->set_stem_language("english");
  std::map<std::string, v1::IndexTerm*> terms;
  uint32_t pos = 0;
  auto add = [&](std::string_view w, bool in_title) {
    std::string stem(en.Stem(w));
    v1::IndexTerm*& t = terms[stem];
    if (!t) {
      t = mi->add_terms();
      t->set_term(stem);
      t->set_term_id(crawl::hash::Hash8(stem));
    }
    t->add_positions(pos++);
    if (in_title) {
      t->set_title_count(t->title_count() + 1);
    } else {
      t->set_body_count(t->body_count() + 1);
    }
  };
  crawl::text::ForEachToken(title, [&](std::string_view w) { add(w, true); });
  mi->set_title_tokens(pos);
  const uint32_t body_start = pos;
  crawl::text::ForEachToken(body, [&](std::string_view w) { add(w, false); });
  mi->set_token_count(pos);
  v1::DescriptionSentence* d = r.add_description();
  d->set_text(body);
  d->set_weight(1.0f);
  d->set_first_position(body_start);
  d->set_end_position(pos);
  if (packed) REQUIRE(crawl::text::PackTerms(mi).ok());
  return r;
}

inline std::vector<std::string> Urls(SearchIndex& index, const std::string& text, uint32_t n = 200) {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery(text, en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOptions o;
  o.max_matches = n;
  std::vector<std::string> urls;
  auto out = index.Search(*q, o, clock, en);
  REQUIRE(out.ok());
  for (const SearchHit& h : out->hits) urls.push_back(h.url);
  std::sort(urls.begin(), urls.end());
  return urls;
}

inline void AddCorpus(SearchIndex& index) {
  CHECK(index.AddPage(Page("http://a.test/1", "Red apples", "the red apple pie is sweet and red")));
  CHECK(index.AddPage(Page("http://a.test/2", "Green", "green apple and a red car")));
  CHECK(index.AddPage(Page("http://b.test/3", "Cars", "a fast red car drives by the apple tree")));
  CHECK(index.AddPage(Page("http://b.test/4", "Boats", "boats float on the water")));
}

}  // namespace crawl::queueserver::index_test
