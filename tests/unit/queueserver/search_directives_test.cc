// A page's directives in the index (queueserver/index/search_walk.cc,
// doc_summary.h): unavailable_after hides a page at search time, a page
// naming another canonical groups under it, hreflang alternates come back
// with the hit, and summaries of older stores still read.
#include <catch2/catch.hpp>

#include "common/base/clock.h"
#include "common/base/hash.h"
#include "common/base/varint.h"
#include "queueserver/index/doc_summary.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/search_index.h"
#include "tests/unit/queueserver/search_index_test_util.h"

using namespace crawl::queueserver;
using crawl::PutVarint;
namespace v1 = crawl::v1;
using namespace crawl::queueserver::index_test;  // NOLINT: the tests' helpers

namespace {

SearchOutcome Find(SearchIndex& index, const std::string& text, const crawl::Clock& clock, uint32_t n = 200) {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery(text, en);
  REQUIRE(q.ok());
  SearchOptions o;
  o.max_matches = n;
  auto out = index.Search(*q, o, clock, en);
  REQUIRE(out.ok());
  return std::move(*out);
}

}  // namespace

TEST_CASE("a page past its unavailable_after leaves the results; the next takes its place",
          "[unit][directives]") {
  SearchIndex index({}, nullptr);
  crawl::ManualClock clock(1'700'000'000'000);
  v1::FetchRecord sale = Page("http://a.test/sale", "Sale", "zebra sale ends soon");
  sale.set_unavailable_after_unix_s(1'700'000'100);
  REQUIRE(index.AddPage(sale));
  REQUIRE(index.AddPage(Page("http://a.test/zoo", "Zoo", "a zebra at the zoo")));
  CHECK(Find(index, "zebra", clock).hits.size() == 2);
  clock.Advance(std::chrono::seconds(100));  // at the instant: gone
  auto out = Find(index, "zebra", clock);
  REQUIRE(out.hits.size() == 1);
  CHECK(out.hits[0].url == "http://a.test/zoo");
}

TEST_CASE("a page naming another canonical is grouped under it; its own identity stays",
          "[unit][directives]") {
  SearchIndex index({}, nullptr);
  crawl::ManualClock clock;
  v1::FetchRecord copy = Page("http://a.test/print?p=1", "Zebra facts", "printable zebra facts");
  copy.set_canonical_url("http://a.test/facts");
  auto* de = copy.add_alternates();
  de->set_language("de");
  de->set_url("http://a.test/de/facts");
  REQUIRE(index.AddPage(copy));
  REQUIRE(index.AddPage(Page("http://a.test/plain", "Zebra", "zebra plain page")));
  auto out = Find(index, "zebra", clock);
  REQUIRE(out.hits.size() == 2);
  const SearchHit& c = out.hits[0].url == "http://a.test/print?p=1" ? out.hits[0] : out.hits[1];
  const SearchHit& p = out.hits[0].url == "http://a.test/plain" ? out.hits[0] : out.hits[1];
  CHECK(c.url == "http://a.test/print?p=1");
  CHECK(c.url_hash == crawl::hash::Hash8("http://a.test/facts"));
  CHECK(c.canonical_url == "http://a.test/facts");
  REQUIRE(c.alternates.size() == 1);
  CHECK(c.alternates[0] == std::pair<std::string, std::string>("de", "http://a.test/de/facts"));
  CHECK(p.url_hash == crawl::hash::Hash8("http://a.test/plain"));
  CHECK(p.canonical_url.empty());
  // Removal still finds the copy by its own URL (liveness keys the doc's own hash).
  CHECK(index.RemovePage("http://a.test/print?p=1"));
  out = Find(index, "zebra", clock);
  REQUIRE(out.hits.size() == 1);
  CHECK(out.hits[0].url == "http://a.test/plain");
}

TEST_CASE("summaries round-trip directives; older summaries read as none", "[unit][directives]") {
  DocSummary s;
  s.url = "http://a.test/x";
  s.title = "T";
  s.description = {"one", "two"};
  s.nosnippet = true;
  s.canonical_url = "http://a.test/c";
  s.unavailable_after_unix_s = 1'277'478'000;
  s.alternates = {{"de", "http://a.test/de"}, {"x-default", "http://a.test/"}};
  auto back = ParseSummary(EncodeSummary(s));
  REQUIRE(back.ok());
  CHECK(back->canonical_url == s.canonical_url);
  CHECK(back->unavailable_after_unix_s == s.unavailable_after_unix_s);
  CHECK(back->alternates == s.alternates);
  CHECK(back->description == s.description);
  CHECK(back->nosnippet);
  // A summary as older versions wrote it: 'r', url, title, language, flags,
  // descriptions; nothing after.
  std::string old = "r";
  PutString(&old, "http://a.test/o");
  PutString(&old, "Old");
  PutString(&old, "en");
  old.push_back(1);
  PutVarint(&old, 1);
  PutString(&old, "sentence");
  auto read = ParseSummary(old);
  REQUIRE(read.ok());
  CHECK(read->title == "Old");
  CHECK(read->canonical_url.empty());
  CHECK(read->unavailable_after_unix_s == 0);
  CHECK(read->alternates.empty());
  // Without directives the encoding is the old one, byte for byte.
  DocSummary plain;
  plain.url = "http://a.test/o";
  plain.title = "Old";
  plain.language = "en";
  plain.nosnippet = true;
  plain.description = {"sentence"};
  CHECK(EncodeSummary(plain) == old);
  // A cut directives tail is corrupt, not a crash.
  std::string cut = EncodeSummary(s);
  cut.resize(cut.size() - 3);
  CHECK_FALSE(ParseSummary(cut).ok());
}
