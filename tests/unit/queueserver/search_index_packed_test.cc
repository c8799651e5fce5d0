// The index reads a page's terms from MiniIndex.postings (packed, as
// fetchers send them) or from MiniIndex.terms (older fetchers): the same
// pages give the same index either way (differential), and a malformed
// buffer indexes nothing of its page (queueserver/index/search_index.h).
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/text/stemmer.h"
#include "queueserver/index/search_index.h"
#include "tests/unit/queueserver/search_index_test_util.h"

using namespace crawl::queueserver;
namespace v1 = crawl::v1;
using namespace crawl::queueserver::index_test;  // NOLINT: the tests' helpers

namespace {

const std::vector<std::string> kWords = {"red",   "apple", "apples", "green", "car",   "cars", "boat",
                                         "water", "the",   "a",      "fast",  "sweet", "tree", "pie"};

std::string Words(std::mt19937& rng, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i ? " " : "") + kWords[rng() % kWords.size()];
  return out;
}

std::vector<SearchHit> Hits(SearchIndex& index, const std::string& text) {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery(text, en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOptions o;
  o.max_matches = 1000;
  auto out = index.Search(*q, o, clock, en);
  REQUIRE(out.ok());
  return out->hits;
}

}  // namespace

TEST_CASE("index: packed postings and per-term messages index the same", "[unit]") {
  std::mt19937 rng(5);
  IndexOptions options;
  options.partition_docs = 40;  // partitions close and merge on the way
  SearchIndex packed(options, nullptr), terms(options, nullptr);
  for (int i = 0; i < 150; ++i) {
    const std::string url = "http://h" + std::to_string(i % 7) + ".test/" + std::to_string(i);
    const std::string title = Words(rng, static_cast<int>(rng() % 4));
    const std::string body = Words(rng, 1 + static_cast<int>(rng() % 40));
    const v1::FetchRecord a = Page(url, title, body, true);
    const v1::FetchRecord b = Page(url, title, body, false);
    REQUIRE(a.mini_index().terms_size() == 0);
    REQUIRE(b.mini_index().postings().empty());
    CHECK(packed.AddPage(a) == terms.AddPage(b));
  }
  CHECK(packed.documents() == terms.documents());
  CHECK(packed.documents() > 100);
  for (const std::string q : {"red", "apple", "red apple", "\"green car\"", "water | boat", "the", "sweet pie tree"}) {
    INFO(q);
    const auto x = Hits(packed, q), y = Hits(terms, q);
    REQUIRE(x.size() == y.size());
    for (size_t i = 0; i < x.size(); ++i) {
      CHECK(x[i].url == y[i].url);
      CHECK(x[i].total() == y[i].total());
      CHECK(x[i].relevance == y[i].relevance);
      CHECK(x[i].proximity == y[i].proximity);
      CHECK(x[i].snippet == y[i].snippet);
    }
  }
}

TEST_CASE("index: a page with malformed postings is not indexed, and nothing else is lost", "[unit]") {
  SearchIndex index({}, nullptr);
  CHECK(index.AddPage(Page("http://a.test/1", "Red apples", "the red apple pie")));
  v1::FetchRecord bad = Page("http://a.test/2", "Green", "green apple and a red car");
  std::string postings = bad.mini_index().postings();
  postings.resize(postings.size() - 1);  // the last position cut off
  bad.mutable_mini_index()->set_postings(postings);
  CHECK_FALSE(index.AddPage(bad));
  CHECK(index.pages_rejected() == 1);
  CHECK(index.documents() == 1);
  CHECK(Urls(index, "green").empty());  // none of its terms went in
  CHECK(index.AddPage(Page("http://b.test/3", "Cars", "a fast red car")));
  CHECK(Urls(index, "red") == std::vector<std::string>{"http://a.test/1", "http://b.test/3"});
  CHECK(index.pages_rejected() == 1);
}
