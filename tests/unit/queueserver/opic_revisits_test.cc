// OPIC across visits (queueserver/frontier/opic_order.h "Across visits"):
// in a recrawl, a link to a page already fetched credits that page, the
// credit joins its cash at the next visit, its history accumulates, and its
// importance is history / total history (Abiteboul, Preda and Cobena 2003).
// Without a recrawl the same link's share is lost to the virtual page.
// The records live in the queue store and survive a reopen.
#include <catch2/catch.hpp>

#include "queueserver/frontier/frontier.h"
#include "queueserver/frontier/opic_order.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

using namespace crawl::queueserver;
using Catch::Detail::Approx;

namespace {

FrontierEntry Page(const std::string& url) {
  FrontierEntry e;
  e.url = url;
  return e;
}

LinkInput Link(const std::string& url, const std::string& referrer) {
  LinkInput l;
  l.entry.url = url;
  l.entry.referrer = referrer;
  l.links_on_page = 1;
  return l;
}

FetchOutcome Ok(const std::string& url, UrlKind kind = UrlKind::kPage, int status = 200) {
  FetchOutcome o;
  o.url = url;
  o.kind = kind;
  o.status = status;
  return o;
}

FrontierOptions OpicOptions(bool revisits) {
  FrontierOptions o;
  o.order.kind = OrderKind::kOpic;
  o.order.cld_rule = crawl::CldRule::kSimple;
  o.order.split = CashSplit::kPlain;
  o.order.opic_revisits = revisits;
  return o;
}

void AllowAll(Frontier& f) {
  for (;;) {
    Schedule s = f.Lease("robots", 1000, 0, /*max_pages=*/0);
    if (s.id == 0) return;
    for (const auto& e : s.entries) f.Report(s.id, Ok(e.url, UrlKind::kRobots, 404), 0);
    f.Complete(s.id, 0);
  }
}

// Leases `url` alone, reports it fetched with `links`, and ends the request.
FetchedScore Fetch(Frontier& f, const std::string& url, const std::vector<LinkInput>& links) {
  Schedule s = f.Lease("f", 1, 0);
  REQUIRE(s.entries.size() == 1);
  REQUIRE(s.entries[0].url == url);
  const FetchedScore score = f.Report(s.id, Ok(url), 0).score;
  (void)f.AddLinks(links, 0);
  f.Complete(s.id, 0);
  f.EndRequest();
  return score;
}

// a.test/ and b.test/ are seeds (0.5 each); a links to b (b: 1.0), then b
// links back to a, which was fetched already.
void FetchBothLinkingBack(Frontier& f) {
  REQUIRE(f.Add(Page("http://a.test/"), 0, 2));
  REQUIRE(f.Add(Page("http://b.test/"), 0, 2));
  AllowAll(f);
  CHECK(Fetch(f, "http://a.test/", {Link("http://b.test/", "http://a.test/")}).cash == Approx(0.5));
  CHECK(Fetch(f, "http://b.test/", {Link("http://a.test/", "http://b.test/")}).cash == Approx(1.0));
}

}  // namespace

TEST_CASE("opic revisits: a link to a fetched page is credited to it and paid at its next visit", "[unit]") {
  MemoryOpicStore store;
  Frontier f(OpicOptions(true), &store);
  auto& order = dynamic_cast<OpicOrder&>(f.order());
  FetchBothLinkingBack(f);
  // b's whole 1.0 waits for a's next visit; nothing was lost.
  auto a = order.VisitsOf("http://a.test/");
  REQUIRE(a.has_value());
  CHECK(a->credit == Approx(1.0));
  CHECK(a->history == Approx(0.5));
  CHECK(order.reserve() == 0);
  CHECK(order.bonus() == 0);

  // The revisit: C = 0 (the revisit entry's cash) + 1.0 credit; H = 1.5 of
  // a total history of 0.5 + 1.0 + 1.0 = 2.5.
  f.Revisit(Page("http://a.test/"), 0);
  const FetchedScore again = Fetch(f, "http://a.test/", {});
  CHECK(again.cash == Approx(1.0));
  CHECK(order.total_history() == Approx(2.5));
  CHECK(again.importance == Approx(1.5 / 2.5));
  a = order.VisitsOf("http://a.test/");
  CHECK(a->credit == 0);
  CHECK(a->history == Approx(1.5));
}

TEST_CASE("opic without revisits: a link to a fetched page is lost to the virtual page", "[unit]") {
  MemoryOpicStore store;
  Frontier f(OpicOptions(false), &store);
  auto& order = dynamic_cast<OpicOrder&>(f.order());
  FetchBothLinkingBack(f);
  CHECK_FALSE(order.VisitsOf("http://a.test/").has_value());
  CHECK(order.reserve() == Approx(1.0));  // nothing queued to take it
  f.Revisit(Page("http://a.test/"), 0);
  CHECK(Fetch(f, "http://a.test/", {}).cash == 0);
}

TEST_CASE("opic revisits: the visits records are in the queue store and survive a reopen", "[unit]") {
  crawl::test_support::TempDir dir;
  {
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    auto writer = (*store)->NewWriter(7);
    CHECK_FALSE(writer->OpicVisitsGet(11).has_value());
    writer->OpicVisitsPut(11, OpicVisits{0.25, 1.75});
    // Read back from the uncommitted batch, then committed.
    REQUIRE(writer->OpicVisitsGet(11).has_value());
    CHECK(writer->OpicVisitsGet(11)->history == 1.75);
    REQUIRE(writer->Commit().ok());
  }
  auto store = QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto writer = (*store)->NewWriter(7);
  auto v = writer->OpicVisitsGet(11);
  REQUIRE(v.has_value());
  CHECK(v->credit == 0.25);
  CHECK(v->history == 1.75);
  CHECK_FALSE((*store)->NewWriter(8)->OpicVisitsGet(11).has_value());  // another crawl's records are apart
}
