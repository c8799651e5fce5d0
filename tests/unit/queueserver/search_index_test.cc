// Index and query walk (queueserver/index/search_index.h, docs/DESIGN.md sections
// 7 and 8): what queries find and how results score, link documents,
// snippets, summary and index records. Partitions and durability:
// search_index_storage_test.cc.
#include "queueserver/index/search_index.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <thread>

#include "common/base/clock.h"
#include "common/base/hash.h"
#include "common/base/varint.h"
#include "common/base/zlib_stream.h"
#include "common/text/stemmer.h"
#include "common/text/tokenizer.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/index/doc_summary.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/search_hit.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/queueserver/search_index_test_util.h"

using namespace crawl::queueserver;
namespace v1 = crawl::v1;
using namespace crawl::queueserver::index_test;  // NOLINT: the tests' helpers

TEST_CASE("conjunctive queries return only documents with every term", "[unit]") {
  SearchIndex index({}, nullptr);
  AddCorpus(index);
  CHECK(index.documents() == 4);
  CHECK(Urls(index, "red apple") ==
        std::vector<std::string>{"http://a.test/1", "http://a.test/2", "http://b.test/3"});
  CHECK(Urls(index, "apple pie") == std::vector<std::string>{"http://a.test/1"});
  CHECK(Urls(index, "boats car").empty());
  CHECK(Urls(index, "unknownword").empty());
}

TEST_CASE("a phrase matches only consecutive positions", "[unit]") {
  SearchIndex index({}, nullptr);
  AddCorpus(index);
  CHECK(Urls(index, "\"red car\"") == std::vector<std::string>{"http://a.test/2", "http://b.test/3"});
  CHECK(Urls(index, "\"red apple\"") == std::vector<std::string>{"http://a.test/1"});
  CHECK(Urls(index, "\"apple red\"").empty());
}

TEST_CASE("alternatives with | and site: restrictions", "[unit]") {
  SearchIndex index({}, nullptr);
  AddCorpus(index);
  CHECK(Urls(index, "pie | boats") == std::vector<std::string>{"http://a.test/1", "http://b.test/4"});
  CHECK(Urls(index, "red site:b.test") == std::vector<std::string>{"http://b.test/3"});
  CHECK(Urls(index, "red site:test").size() == 3);  // subdomains of "test"
  CHECK(Urls(index, "red site:c.test").empty());
}

TEST_CASE("results carry score parts that add up, best first, at most n", "[unit]") {
  SearchIndex index({}, nullptr);
  AddCorpus(index);
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("red apple", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOutcome out = *index.Search(*q, {}, clock, en);
  REQUIRE(out.hits.size() == 3);
  CHECK(out.matches == 3);
  for (size_t i = 0; i < out.hits.size(); ++i) {
    const SearchHit& h = out.hits[i];
    CHECK(h.relevance > 0);
    CHECK(h.proximity > 0);
    if (i > 0) CHECK(out.hits[i - 1].total() >= h.total());
  }
  // The page with both words in the title and "red apple" adjacent wins.
  CHECK(out.hits[0].url == "http://a.test/1");
  CHECK(out.hits[0].bonus > 0);  // title words
  CHECK(out.hits[0].title == "Red apples");
  CHECK(out.hits[0].snippet.find("apple pie") != std::string::npos);
  SearchOptions one;
  one.max_matches = 1;
  CHECK(index.Search(*q, one, clock, en)->hits.size() == 1);
}

TEST_CASE("overlapping description sentences add their weights where they overlap", "[unit]") {
  // One page with sentences [b, b+6) weight 1 and [b+3, b+9) weight 2 must
  // score as the same page with the overlap spelled out: [b, b+3) 1,
  // [b+3, b+6) 3, [b+6, b+9) 2. Bad sentences (empty, reversed, not finite)
  // count for nothing.
  const std::string body = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
  auto relevance = [&](const std::vector<std::tuple<uint32_t, uint32_t, float>>& sentences) {
    SearchIndex index({}, nullptr);
    AddCorpus(index);  // other pages, so a term's relevance is not at its bound
    v1::FetchRecord r = Page("http://c.test/1", "Title", body);
    const uint32_t b = r.mini_index().title_tokens();
    r.clear_description();
    for (const auto& [first, end, weight] : sentences) {
      v1::DescriptionSentence* d = r.add_description();
      d->set_text(body);
      d->set_first_position(b + first);
      d->set_end_position(b + end);
      d->set_weight(weight);
    }
    REQUIRE(index.AddPage(r));
    crawl::text::Stemmer en("en");
    std::vector<double> scores;
    for (const char* word : {"alpha", "delta", "zeta", "eta", "iota", "kappa"}) {
      auto q = ParseQuery(word, en);
      REQUIRE(q.ok());
      crawl::ManualClock clock;
      auto out = index.Search(*q, {}, clock, en);
      REQUIRE(out.ok());
      REQUIRE(out->hits.size() == 1);
      scores.push_back(out->hits[0].relevance);
    }
    return scores;
  };
  const auto overlapping = relevance({{0, 6, 1.0f}, {3, 9, 2.0f}});
  const auto spelled_out = relevance({{0, 3, 1.0f}, {3, 6, 3.0f}, {6, 9, 2.0f}});
  const auto with_bad = relevance({{3, 9, 2.0f},
                                   {5, 5, 7.0f},
                                   {8, 2, 7.0f},
                                   {0, 6, 1.0f},
                                   {1, 4, std::numeric_limits<float>::quiet_NaN()},
                                   {1, 4, std::numeric_limits<float>::infinity()}});
  const auto plain = relevance({});
  REQUIRE(overlapping.size() == spelled_out.size());
  for (size_t i = 0; i < overlapping.size(); ++i) {
    INFO(i);
    CHECK(overlapping[i] == Approx(spelled_out[i]));
    CHECK(with_bad[i] == Approx(overlapping[i]));
  }
  CHECK(overlapping[1] > plain[1]);           // "delta" (b+3) is in both sentences
  CHECK(overlapping[5] == Approx(plain[5]));  // "kappa" (b+9) in none
}

// Search walks the pages whose title holds every query term first, then
// fills up to n in doc-rank order: a page last in doc-rank order whose title
// matches is found although n matches come before it in the ordinary walk.
TEST_CASE("title matches are walked first, then the doc-rank walk fills up to n", "[unit]") {
  for (uint32_t partition_docs : {100u, 2u}) {
    IndexOptions o;
    o.partition_docs = partition_docs;
    SearchIndex index(o, nullptr);
    // Arrival order is doc-rank order: /1 first, /4 (the title page) last.
    REQUIRE(index.AddPage(Page("http://a.test/1", "Guide", "python tutorial on page one")));
    REQUIRE(index.AddPage(Page("http://a.test/2", "Guide", "python tutorial on page two")));
    REQUIRE(index.AddPage(Page("http://a.test/3", "Guide", "python tutorial on page three")));
    REQUIRE(index.AddPage(Page("http://a.test/4", "Python tutorial", "the tutorial")));
    // A title holding only one of the terms is not a title match.
    REQUIRE(index.AddPage(Page("http://a.test/5", "Python", "a tutorial")));
    REQUIRE(index.MergeClosed().ok());
    CAPTURE(partition_docs);
    // n = 2: the title page, then the first page in doc-rank order.
    CHECK(Urls(index, "python tutorial", 2) ==
          std::vector<std::string>{"http://a.test/1", "http://a.test/4"});
    // n = 1: the title page alone.
    CHECK(Urls(index, "python tutorial", 1) == std::vector<std::string>{"http://a.test/4"});
    // Every match once (no page twice from the two walks).
    CHECK(Urls(index, "python tutorial", 10) == std::vector<std::string>{"http://a.test/1", "http://a.test/2",
                                                                         "http://a.test/3", "http://a.test/4",
                                                                         "http://a.test/5"});
    // Without a title match the walk is the doc-rank walk alone.
    CHECK(Urls(index, "page tutorial", 2) == std::vector<std::string>{"http://a.test/1", "http://a.test/2"});
  }
}

TEST_CASE("noindex pages are not indexed; nosnippet pages get no snippet", "[unit]") {
  SearchIndex index({}, nullptr);
  v1::FetchRecord hidden = Page("http://a.test/h", "Secret", "hidden zebra");
  hidden.set_noindex(true);
  CHECK_FALSE(index.AddPage(hidden));
  v1::FetchRecord quiet = Page("http://a.test/q", "Quiet", "quiet zebra grazing");
  quiet.set_nosnippet(true);
  CHECK(index.AddPage(quiet));
  v1::FetchRecord error = Page("http://a.test/e", "Error", "zebra error");
  error.set_status(404);
  CHECK_FALSE(index.AddPage(error));
  // The same page (same URL and text) again is not a new document.
  CHECK_FALSE(index.AddPage(quiet));
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("zebra", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOutcome out = *index.Search(*q, {}, clock, en);
  REQUIRE(out.hits.size() == 1);
  CHECK(out.hits[0].url == "http://a.test/q");
  CHECK(out.hits[0].snippet.empty());
}

TEST_CASE("a link is a small document of its target, without stop words", "[unit]") {
  SearchIndex index({}, nullptr);
  v1::DiscoveredLink link;
  link.set_url("http://c.test/target");
  link.set_referrer("http://a.test/1");
  link.set_anchor_text("Click here for Zebra crossings");
  CHECK(index.AddLink(link, "en"));
  CHECK_FALSE(index.AddLink(link, "en"));  // same target and text: same doc id
  v1::DiscoveredLink only_stop = link;
  only_stop.set_anchor_text("click here");
  CHECK_FALSE(index.AddLink(only_stop, "en"));
  v1::DiscoveredLink sitemap = link;
  sitemap.set_source("sitemap");
  sitemap.set_anchor_text("zebra map");
  CHECK_FALSE(index.AddLink(sitemap, "en"));
  CHECK(Urls(index, "zebra crossing") == std::vector<std::string>{"http://c.test/target"});
  CHECK(Urls(index, "click").empty());
  CHECK(Urls(index, "here").empty());
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("zebra", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOutcome out = *index.Search(*q, {}, clock, en);
  REQUIRE(out.hits.size() == 1);
  CHECK(out.hits[0].link);
  CHECK(out.hits[0].title == "Click here for Zebra crossings");
}

TEST_CASE("a linked page ranks above an unlinked one (group score)", "[unit]") {
  SearchIndex index({}, nullptr);
  REQUIRE(index.AddPage(Page("http://a.test/x", "Otter", "otter river")));
  REQUIRE(index.AddPage(Page("http://a.test/y", "Otter", "otter river")));
  for (const char* anchor : {"swan lake", "swan river", "swan song"}) {
    v1::DiscoveredLink l;
    l.set_url("http://a.test/y");
    l.set_anchor_text(anchor);
    REQUIRE(index.AddLink(l, "en"));
  }
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("otter", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOutcome out = *index.Search(*q, {}, clock, en);
  REQUIRE(out.hits.size() == 2);
  // Of 5 documents, x (arrival 0) scores 5; y's group (arrivals 1-4) scores
  // 4 + 3 + 2 + 1 = 10, so y's page is first in the doc map.
  CHECK(out.hits[0].url == "http://a.test/y");
  CHECK(out.hits[0].doc_rank > out.hits[1].doc_rank);
}

// Yioop's DOC_RANK is log10 of the documents after a document, counting
// the later partitions as well as later places in its own: with partitions
// of 2, the first page keeps its lead over all four that came after it.
TEST_CASE("doc rank counts the documents of later partitions too", "[unit]") {
  IndexOptions o;
  o.partition_docs = 2;
  SearchIndex index(o, nullptr);
  for (int i = 1; i <= 5; ++i) {
    const std::string n = std::to_string(i);
    REQUIRE(index.AddPage(Page("http://a.test/" + n, "Page " + n, "zebra crossing number " + n)));
  }
  REQUIRE(index.MergeClosed().ok());
  REQUIRE(index.partitions() == 3);
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("zebra", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOutcome out = *index.Search(*q, {}, clock, en);
  REQUIRE(out.hits.size() == 5);
  std::map<std::string, double> rank;
  for (const auto& h : out.hits) rank[h.url] = h.doc_rank;
  // Partition 0 holds /1 and /2, partition 1 /3 and /4, the active one /5.
  CHECK(rank["http://a.test/1"] == Approx(std::log10(1.0 + 3)));
  CHECK(rank["http://a.test/2"] == Approx(std::log10(0.0 + 3)));
  CHECK(rank["http://a.test/3"] == Approx(std::log10(1.0 + 1)));
  CHECK(rank["http://a.test/4"] == Approx(0.0));
  CHECK(rank["http://a.test/5"] == Approx(0.0));
  // The walk meets them in arrival order: n = 2 takes the first two pages.
  CHECK(Urls(index, "zebra", 2) == std::vector<std::string>{"http://a.test/1", "http://a.test/2"});
}

TEST_CASE("summary records round-trip, and zlib records of older stores still read", "[unit]") {
  DocSummary s;
  s.url = "http://k.test/1";
  s.title = "Kingfisher";
  s.language = "en";
  s.link = true;
  const std::string short_record = EncodeSummary(s);
  CHECK(short_record.front() == 'r');
  s.nosnippet = true;
  s.link = false;
  s.description = {std::string(2000, 'k'), "the kingfisher dives"};
  const std::string long_record = EncodeSummary(s);
  CHECK(long_record.front() == 'r');
  // As older versions wrote a long one: 'z', the raw size, the fields in zlib.
  std::string zlib_record = "z";
  crawl::PutVarint(&zlib_record, long_record.size() - 1);
  crawl::Deflater deflater({.format = crawl::ZlibFormat::kZlib, .level = 1});
  REQUIRE(deflater.Compress(long_record.substr(1), &zlib_record).ok());
  CHECK(zlib_record.size() < 1000);
  for (const std::string& record : {short_record, long_record, zlib_record}) {
    auto back = ParseSummary(record);
    REQUIRE(back.ok());
    CHECK(back->url == s.url);
    CHECK(back->title == s.title);
    CHECK(back->language == s.language);
  }
  for (const std::string& record : {long_record, zlib_record}) {
    auto back = ParseSummary(record);
    REQUIRE(back.ok());
    CHECK(back->description == s.description);
    CHECK(back->nosnippet);
    CHECK_FALSE(back->link);
    CHECK_FALSE(ParseSummary(record.substr(0, record.size() / 2)).ok());
  }
  CHECK_FALSE(ParseSummary("").ok());
  CHECK_FALSE(ParseSummary("x").ok());
}

TEST_CASE("snippets are the description sentences holding a query term", "[unit]") {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("kingfishers", en);
  REQUIRE(q.ok());
  const QueryClause& clause = q->clauses.front();
  DocSummary s;
  s.description = {"a heron stands", "the kingfisher dives", "herons wait", "a kingfisher nests"};
  CHECK(Snippet(s, clause, en) == "the kingfisher dives ... a kingfisher nests");
  s.description = {"a heron stands", "herons wait"};
  CHECK(Snippet(s, clause, en) == "a heron stands");  // no match: the first sentence
  s.nosnippet = true;
  CHECK(Snippet(s, clause, en).empty());
  CHECK(MatchWords("www.kingfisher.test", clause, en) == std::pair<uint32_t, uint32_t>{1, 3});
}

TEST_CASE("index record bytes read back, doc ids keep their parts, cuts keep UTF-8 whole", "[unit]") {
  std::string key;
  PutU32Be(&key, 0x01020304u);
  PutU64Be(&key, 0x05060708090a0b0cull);
  CHECK(ReadBe(key, 4) == 0x01020304u);
  CHECK(ReadBe(std::string_view(key).substr(4), 8) == 0x05060708090a0b0cull);
  std::string value;
  PutString(&value, "kingfisher");
  size_t pos = 0;
  std::string back;
  CHECK(GetString(value, &pos, &back));
  CHECK(back == "kingfisher");
  pos = 0;
  CHECK_FALSE(GetString(value.substr(0, 4), &pos, &back));  // cut short
  const std::array<uint8_t, 24> id =
      MakeDocId(0x1111111111111111ull, 'p', 0x22222222222222ull, 0x3333333333333333ull);
  const std::string ids = IdString(id);
  CHECK(ReadBe(ids, 8) == 0x1111111111111111ull);
  CHECK(ids[8] == 'p');
  CHECK(ReadBe(std::string_view(ids).substr(9), 7) == 0x22222222222222ull);
  CHECK(ReadBe(std::string_view(ids).substr(16), 8) == 0x3333333333333333ull);
  CHECK(TitleTermId(42) != 42);
  CHECK(CutUtf8("k\xc3\xa9k", 2) == "k");  // never half of the two-byte character
  CHECK(CutUtf8("k\xc3\xa9k", 3) == "k\xc3\xa9");
}

// The crawl's ScoringFilter IndexerScore is stored with the
// document and added to its doc rank, so a boosted page outranks an
// identical unboosted one that arrived before it, also after a reload.
