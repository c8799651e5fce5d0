// Query parser (queueserver/index/search_query.h): conjunctions, phrases, `|`, site:.
#include "queueserver/index/search_query.h"

#include <catch2/catch.hpp>

#include "common/base/hash.h"
#include "common/text/stemmer.h"

using namespace crawl::queueserver;

TEST_CASE("words are stemmed like documents and deduplicated", "[unit]") {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("Running runs  RUN dogs", en);
  REQUIRE(q.ok());
  REQUIRE(q->clauses.size() == 1);
  CHECK(q->clauses[0].terms == std::vector<std::string>{"run", "dog"});
  CHECK(q->clauses[0].term_ids[1] == crawl::hash::Hash8("dog"));
  CHECK(q->clauses[0].phrases.empty());
}

TEST_CASE("double quotes make an exact phrase, repeats allowed", "[unit]") {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("cat \"the dog and the cat\"", en);
  REQUIRE(q.ok());
  const QueryClause& c = q->clauses[0];
  CHECK(c.terms == std::vector<std::string>{"cat", "the", "dog", "and"});
  REQUIRE(c.phrases.size() == 1);
  CHECK(c.phrases[0] == std::vector<size_t>{1, 2, 3, 1, 0});
  // An unclosed quote runs to the end; a one-word phrase is just a word.
  auto open = ParseQuery("\"red fox", en);
  REQUIRE(open.ok());
  CHECK(open->clauses[0].phrases.size() == 1);
  auto one = ParseQuery("\"fox\"", en);
  REQUIRE(one.ok());
  CHECK(one->clauses[0].phrases.empty());
}

TEST_CASE("| separates alternatives, not inside quotes", "[unit]") {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("red fox | blue \"whale | shark\" ||", en);
  REQUIRE(q.ok());
  REQUIRE(q->clauses.size() == 2);
  CHECK(q->clauses[0].terms == std::vector<std::string>{"red", "fox"});
  CHECK(q->clauses[1].terms == std::vector<std::string>{"blue", "whale", "shark"});
  CHECK(q->clauses[1].phrases.size() == 1);
}

TEST_CASE("site: restricts the host of one alternative", "[unit]") {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("fox site:Example.COM/ | cat", en);
  REQUIRE(q.ok());
  CHECK(q->clauses[0].sites == std::vector<std::string>{"example.com"});
  CHECK(q->clauses[0].terms == std::vector<std::string>{"fox"});
  CHECK(q->clauses[1].sites.empty());
}

TEST_CASE("bad queries are refused with a reason", "[unit]") {
  crawl::text::Stemmer en("en");
  CHECK_FALSE(ParseQuery("", en).ok());
  CHECK_FALSE(ParseQuery("   | ", en).ok());
  CHECK_FALSE(ParseQuery("site:example.com", en).ok());
  CHECK_FALSE(ParseQuery("fox site:", en).ok());
  CHECK_FALSE(ParseQuery(std::string(5000, 'a'), en).ok());
  std::string many;
  for (int i = 0; i < 70; ++i) {
    // Appended piecewise: GCC 12's -Wrestrict misfires on "w" + to_string(i) at -O3.
    many += 'w';
    many += std::to_string(i);
    many += ' ';
  }
  CHECK_FALSE(ParseQuery(many, en).ok());
}

TEST_CASE("a quoted clause of 20 Chinese or Japanese characters can be searched", "[unit]") {
  crawl::text::Stemmer ja("ja");
  // 20 characters: each and each neighbour pair, 39 terms at consecutive
  // positions (common/text/tokenizer.h).
  const auto q = ParseQuery("\"東京都の天気は晴れです明日は雨でしょう大\"", ja);
  REQUIRE(q.ok());
  REQUIRE(q->clauses.size() == 1);
  REQUIRE(q->clauses[0].phrases.size() == 1);
  CHECK(q->clauses[0].phrases[0].size() == 39);
  CHECK(q->clauses[0].terms.size() <= kMaxQueryTerms);
}

TEST_CASE("a Turkish query folds I to dotless ı as Turkish pages are folded", "[unit]") {
  crawl::text::Stemmer tr("tr");
  auto turkic = ParseQuery("IŞIK", tr, crawl::text::CaseFolding::kTurkic);
  auto plain = ParseQuery("IŞIK", tr);
  REQUIRE(turkic.ok());
  REQUIRE(plain.ok());
  CHECK(turkic->clauses[0].words == std::vector<std::string>{"ışık"});
  CHECK(plain->clauses[0].words == std::vector<std::string>{"işik"});
  CHECK(turkic->clauses[0].terms == std::vector<std::string>{std::string(tr.Stem("ışık"))});
}
