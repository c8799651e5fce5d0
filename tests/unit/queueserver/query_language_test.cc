// The language a search is stemmed in (queueserver/crawl_shard.h
// QueryLanguage; CrawlShard::PrepareSearch): the request's, else the one
// CLD2 reliably finds in the query's words, else "en".
#include <algorithm>
#include <catch2/catch.hpp>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "common/base/hash.h"
#include "common/text/stemmer.h"
#include "common/text/tokenizer.h"
#include "queueserver/crawl_shard.h"

namespace qs = crawl::queueserver;
namespace v1 = crawl::v1;

namespace {

v1::SearchRequest Request(const std::string& query, const std::string& language = "") {
  v1::SearchRequest req;
  req.set_query(query);
  req.set_language(language);
  return req;
}

std::string Language(const std::string& query, const std::string& language = "") {
  return qs::QueryLanguage(Request(query, language));
}

// A page whose mini index holds `body`'s words stemmed in `language`, as the
// fetcher stems a page in its language.
v1::FetchRecord Page(const std::string& url, const std::string& body, const std::string& language) {
  crawl::text::Stemmer stemmer(language);
  v1::FetchRecord r;
  r.set_url(url);
  r.set_kind(v1::URL_KIND_PAGE);
  r.set_status(200);
  r.set_content_digest(std::to_string(crawl::hash::Hash8(url)));
  r.set_timestamp_unix_us(1'000);
  r.set_title("Page");
  r.set_language(language);
  r.set_text_hash(crawl::hash::Hash8(body));
  v1::MiniIndex* mi = r.mutable_mini_index();
  mi->set_stem_language(std::string(stemmer.algorithm()));
  uint32_t pos = 0;
  crawl::text::ForEachToken(body, [&](std::string_view w) {
    v1::IndexTerm* t = mi->add_terms();
    t->set_term(std::string(stemmer.Stem(w)));
    t->set_term_id(crawl::hash::Hash8(t->term()));
    t->add_positions(pos++);
    t->set_body_count(1);
  });
  mi->set_token_count(pos);
  return r;
}

v1::CrawlInfo Crawl() {
  v1::CrawlInfo c;
  c.set_crawl_id(9);
  c.set_state(v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_schedule_size(10);
  c.mutable_params()->set_lease_seconds(60);
  return c;
}

// One fetcher batch of `pages` for crawl 9.
v1::SubmitResultsRequest Batch(std::initializer_list<v1::FetchRecord> pages) {
  v1::SubmitResultsRequest batch;
  batch.set_crawl_id(9);
  batch.set_fetcher_id("f");
  batch.set_schedule_id(1000);
  batch.set_sequence(0);
  for (const v1::FetchRecord& page : pages) *batch.add_records() = page;
  return batch;
}

std::size_t Hits(qs::CrawlShard& shard, const v1::SearchRequest& req) {
  v1::SearchResponse out;
  REQUIRE(shard.Search(req, &out).ok());
  return static_cast<std::size_t>(out.results_size());
}

}  // namespace

TEST_CASE("query language: the request's language, normalized, comes first", "[unit]") {
  CHECK(Language("die Katzen schlafen im Garten", "en") == "en");
  CHECK(Language("running shoes", "DE-at") == "de");
  CHECK(Language("", "nb") == "no");
  // A tag that is no language code is as if none were named.
  CHECK(Language("running shoes", "english") == "en");
  CHECK(Language("Katzen schlafen im Garten", "x1") == "de");
}

TEST_CASE("query language: identified from the query's words when reliable, else en", "[unit]") {
  CHECK(Language("die Katzen schlafen im Garten") == "de");
  CHECK(Language("bibliothèque municipale horaires") == "fr");
  CHECK(Language("東京 図書館 の 開館時間") == "ja");
  CHECK(Language("北京 天气") == "zh");
  CHECK(Language("running shoes") == "en");
  // Too little to tell.
  CHECK(Language("Katzen") == "en");
  CHECK(Language("xyzzy") == "en");
  CHECK(Language("") == "en");
  CHECK(Language("12345") == "en");
  // Query syntax and site: hosts are not words of the language.
  CHECK(Language("\"die Katzen\" | schlafen im Garten") == "de");
  CHECK(Language("site:www.bibliotheque-municipale.fr Katzen") == "en");
  CHECK(Language("SITE:example.com die Katzen schlafen im Garten") == "de");
}

TEST_CASE("query language: an unnamed German query finds a German page by its stems", "[unit]") {
  crawl::ManualClock clock;
  qs::CrawlShard shard(Crawl(), &clock, nullptr);
  REQUIRE(shard.Create().ok());
  const v1::SubmitResultsRequest batch =
      Batch({Page("http://a.test/katzen", "die kleinen katzen schlafen gern im garten", "de"),
             Page("http://b.test/running", "the runner runs every morning", "en")});
  v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(batch, &resp).ok());
  // German stems: "Katzen schlafen" -> "katz schlaf", as the page was stemmed.
  CHECK(Hits(shard, Request("die Katzen schlafen im Garten")) == 1);
  // Stemmed as English the words keep their endings: no match.
  CHECK(Hits(shard, Request("die Katzen schlafen im Garten", "en")) == 0);
  // English, named or not, stems as before.
  CHECK(Hits(shard, Request("running")) == 1);
  CHECK(Hits(shard, Request("running", "en")) == 1);
}

TEST_CASE("query language: a short query CLD2 cannot read reliably is also stemmed in its best guesses",
          "[unit]") {
  const std::vector<std::string> named = qs::QueryLanguages(Request("La infraestructura de sonido", "en"));
  CHECK(named == std::vector<std::string>{"en"});
  const std::vector<std::string> reliable = qs::QueryLanguages(Request("die Katzen schlafen im Garten"));
  CHECK(reliable == std::vector<std::string>{"de"});
  const std::vector<std::string> guessed = qs::QueryLanguages(Request("La infraestructura de sonido"));
  REQUIRE(guessed.size() >= 2);
  CHECK(guessed[0] == "en");
  CHECK(std::find(guessed.begin(), guessed.end(), "es") != guessed.end());
  // CLD2 says nothing at all of this Russian clause: Cyrillic's most
  // written language is a guess.
  const std::vector<std::string> cyrillic =
      qs::QueryLanguages(Request("Сейчас я использую тестируемый дистрибутив"));
  CHECK(std::find(cyrillic.begin(), cyrillic.end(), "ru") != cyrillic.end());

  crawl::ManualClock clock;
  qs::CrawlShard shard(Crawl(), &clock, nullptr);
  REQUIRE(shard.Create().ok());
  const v1::SubmitResultsRequest batch =
      Batch({Page("http://a.test/sonido", "la infraestructura de sonido en sistemas debian", "es")});
  v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(batch, &resp).ok());
  CHECK(Hits(shard, Request("La infraestructura de sonido")) == 1);
  // Named English, only the English stems are looked up: "infraestructura"
  // keeps its ending.
  CHECK(Hits(shard, Request("La infraestructura de sonido", "en")) == 0);
}
