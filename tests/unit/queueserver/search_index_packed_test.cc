// The index reads a page's terms from MiniIndex.postings (packed, as
// fetchers send them) or from MiniIndex.terms (older fetchers): the same
// pages give the same index either way (differential), and a malformed
// buffer indexes nothing of its page (queueserver/index/search_index.h).
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "common/base/clock.h"
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
  for (const std::string q :
       {"red", "apple", "red apple", "\"green car\"", "water | boat", "the", "sweet pie tree"}) {
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

// A page's f is summed from a table of position weights (PositionWeights);
// a term with a position past the table (2^20, only from a bad fetcher) is
// weighed position by position. Shifting every position, the title and the
// description by 2^21 moves a page onto that path: its scores stay the
// same, to the bit.
TEST_CASE("index: positions past the weight table weigh what the table weighs", "[unit]") {
  constexpr uint32_t kShift = 1u << 21;
  std::mt19937 rng(9);
  SearchIndex near({}, nullptr), far({}, nullptr);
  for (int i = 0; i < 40; ++i) {
    const std::string url = "http://h" + std::to_string(i % 3) + ".test/" + std::to_string(i);
    const v1::FetchRecord page = Page(url, Words(rng, 1 + static_cast<int>(rng() % 3)),
                                      Words(rng, 1 + static_cast<int>(rng() % 30)), false);
    v1::FetchRecord shifted = page;
    v1::MiniIndex* mi = shifted.mutable_mini_index();
    mi->set_title_tokens(mi->title_tokens() + kShift);
    for (v1::IndexTerm& t : *mi->mutable_terms()) {
      for (int k = 0; k < t.positions_size(); ++k) t.set_positions(k, t.positions(k) + kShift);
    }
    for (v1::DescriptionSentence& s : *shifted.mutable_description()) {
      s.set_first_position(s.first_position() + kShift);
      s.set_end_position(s.end_position() + kShift);
    }
    CHECK(near.AddPage(page) == far.AddPage(shifted));
  }
  for (const std::string q : {"red", "apple", "green car", "the", "sweet pie tree"}) {
    INFO(q);
    const auto x = Hits(near, q), y = Hits(far, q);
    REQUIRE(x.size() == y.size());
    REQUIRE_FALSE(x.empty());
    for (size_t i = 0; i < x.size(); ++i) {
      CHECK(x[i].url == y[i].url);
      CHECK(x[i].relevance == y[i].relevance);
      CHECK(x[i].total() == y[i].total());
    }
  }
}

TEST_CASE("index: the active partition closes at its byte bound, growing with the index", "[unit]") {
  std::mt19937 rng(9);
  IndexOptions bounded;
  bounded.partition_bytes = 64 << 10;
  bounded.min_partition_bytes = 8 << 10;
  SearchIndex small(bounded, nullptr), whole({}, nullptr);
  std::vector<uint64_t> partitions_at;
  for (int i = 0; i < 600; ++i) {
    const std::string url = "http://h" + std::to_string(i % 7) + ".test/" + std::to_string(i);
    const std::string body = Words(rng, 20 + static_cast<int>(rng() % 60)) + " w" + std::to_string(i);
    CHECK(small.AddPage(Page(url, "", body, true)) == whole.AddPage(Page(url, "", body, true)));
    // The queue server flushes after every request; the bound is checked
    // against what the flushes counted.
    if (i % 10 == 9) {
      small.Flush();
      whole.Flush();
      partitions_at.push_back(small.partitions());
    }
  }
  CHECK(whole.partitions() == 1);  // no byte bound: only partition_docs closes it
  CHECK(small.partitions() > 3);
  // The first partitions close at the floor, later ones at an eighth of what
  // closed before: partitions come more slowly as the index grows.
  const uint64_t first_half = partitions_at[partitions_at.size() / 2];
  CHECK(small.partitions() - first_half < first_half);
  // Nothing is lost by closing and merging: every page is found either way.
  for (const std::string q : {"w7", "w311", "w599", "red apple"}) {
    INFO(q);
    const auto x = Hits(small, q), y = Hits(whole, q);
    REQUIRE(x.size() == y.size());
    for (size_t i = 0; i < x.size(); ++i) CHECK(x[i].url == y[i].url);
  }
  CHECK(Hits(small, "w311").size() == 1);
}
