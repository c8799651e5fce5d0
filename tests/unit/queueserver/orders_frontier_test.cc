// Crawl orders in a Frontier (docs/DESIGN.md §5): OPIC cash conserved
// through fetches and across queue servers, the opic queue past its RAM
// budget, host back-off and parking, WIN from echoed referrer data, and
// the tier queues with a small RAM window. Every expected number is
// worked out by hand in the comment beside it.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>

#include "queueserver/frontier/frontier.h"
#include "queueserver/frontier/host_backoff.h"
#include "queueserver/frontier/host_budget.h"
#include "queueserver/frontier/opic_order.h"
#include "queueserver/frontier/scoring_filter.h"
#include "tests/unit/queueserver/orders_test_util.h"

using namespace crawl::queueserver;
using Catch::Detail::Approx;
using namespace crawl::queueserver::orders_test;  // NOLINT: the tests' helpers

namespace {
// Cash of every URL the frontier holds: queued, leased and lost-but-unspread.
double TotalCash(Frontier& f, OpicOrder& order, const MemoryOpicStore* store,
                 const std::vector<Schedule>& leased) {
  double total = order.reserve();
  if (store) {
    for (const auto& [key, e] : store->entries()) total += e.cash + order.bonus();
  }
  for (const Schedule& s : leased) {
    for (const auto& e : s.entries) total += e.cash;
  }
  (void)f;
  return total;
}
}  // namespace

TEST_CASE("opic: seeds share 1.0 and cash is conserved to 1e-12 through fetches", "[unit]") {
  MemoryOpicStore store;
  FrontierOptions opts = Options(OrderKind::kOpic);
  Frontier f(opts, &store);
  auto& order = dynamic_cast<OpicOrder&>(f.order());
  for (const char* u : {"http://a.test/", "http://b.test/", "http://c.test/", "http://d.test/"})
    REQUIRE(f.Add(Page(u), 0, /*seed_count=*/4));
  AllowAll(f);
  CHECK(*order.CashOf("http://a.test/") == Approx(0.25).epsilon(1e-15));
  CHECK(std::abs(TotalCash(f, order, &store, {}) - 1.0) < 1e-12);

  std::mt19937 rng(7);
  int pages = 0;
  for (int round = 0; round < 40 && order.size() > 0; ++round) {
    Schedule s = f.Lease("f", 3, 0);
    REQUIRE(s.id != 0);
    CHECK(std::abs(TotalCash(f, order, &store, {s}) - 1.0) < 1e-12);
    std::vector<LinkInput> links;
    for (const auto& e : s.entries) {
      if (e.kind != UrlKind::kPage) continue;
      f.Report(s.id, Outcome(e.url, 200), 0);
      ++pages;
      // Links to new and known URLs of the same and other CLDs; some
      // pages have none (their cash is lost and spread).
      const uint32_t n = rng() % 5;
      for (uint32_t k = 0; k < n; ++k) {
        const std::string host = std::string(1, static_cast<char>('a' + rng() % 6));
        links.push_back(Link("http://" + host + ".test/p" + std::to_string(rng() % 30), e.url, k, n));
      }
    }
    (void)f.AddLinks(links, 0);
    f.Complete(s.id, 0);
    f.EndRequest();
    AllowAll(f);
    CHECK(std::abs(TotalCash(f, order, &store, {}) - 1.0) < 1e-12);
  }
  CHECK(pages > 10);
  CHECK(order.total_history() > 0);
}

TEST_CASE("opic: CLD-aware split in the frontier, s = n loses half, normalisation restores it", "[unit]") {
  MemoryOpicStore store;
  Frontier f(Options(OrderKind::kOpic), &store);
  auto& order = dynamic_cast<OpicOrder&>(f.order());
  REQUIRE(f.Add(Page("http://a.test/"), 0, 2));
  REQUIRE(f.Add(Page("http://z.test/"), 0, 2));
  AllowAll(f);
  // Lease a.test/ alone: both seeds have 0.5; the older one comes first.
  Schedule s = f.Lease("f", 1, 0);
  REQUIRE(Urls(s) == std::vector<std::string>{"http://a.test/"});
  const auto score = f.Report(s.id, Outcome("http://a.test/", 200), 0).score;
  CHECK(score.cash == Approx(0.5));
  CHECK(score.importance == Approx(1.0));  // the only history so far
  // Two links, both to a.test (s = n = 2): 0.5 / 4 = 0.125 each; 0.25 lost.
  (void)f.AddLinks(
      {Link("http://a.test/1", "http://a.test/", 0, 2), Link("http://a.test/2", "http://a.test/", 1, 2)}, 0);
  f.Complete(s.id, 0);
  f.EndRequest();
  // The lost 0.25 went to the three queued URLs (two wait for nothing:
  // a.test's robots are known), 1/12 each.
  CHECK(*order.CashOf("http://a.test/1") == Approx(0.125 + 0.25 / 3).epsilon(1e-12));
  CHECK(*order.CashOf("http://z.test/") == Approx(0.5 + 0.25 / 3).epsilon(1e-12));
  CHECK(std::abs(TotalCash(f, order, &store, {}) - 1.0) < 1e-12);
  // The richest URL goes next.
  CHECK(Urls(f.Lease("f", 1, 0)) == std::vector<std::string>{"http://z.test/"});
}

TEST_CASE("opic: a link to a queued URL adds to its cash", "[unit]") {
  MemoryOpicStore store;
  FrontierOptions o = Options(OrderKind::kOpic);
  o.order.split = CashSplit::kPlain;
  Frontier f(o, &store);
  auto& order = dynamic_cast<OpicOrder&>(f.order());
  REQUIRE(f.Add(Page("http://a.test/"), 0, 2));
  REQUIRE(f.Add(Page("http://b.test/"), 0, 2));
  AllowAll(f);
  Schedule s = f.Lease("f", 1, 0);
  REQUIRE(Urls(s) == std::vector<std::string>{"http://a.test/"});
  f.Report(s.id, Outcome("http://a.test/", 200), 0);
  // One link, to the queued b.test/: it gets all of a.test's 0.5.
  (void)f.AddLinks({Link("http://b.test/", "http://a.test/", 0, 1)}, 0);
  f.Complete(s.id, 0);
  f.EndRequest();
  CHECK(*order.CashOf("http://b.test/") == Approx(1.0).epsilon(1e-12));
  CHECK(order.bonus() == 0);
}

// ---------------------------------------------------------------------------
// The opic queue past its RAM budget

TEST_CASE("opic queue past its RAM budget pops in exact cash order, updates of spilled URLs included",
          "[unit]") {
  std::mt19937 rng(11);
  for (size_t budget : {1, 3, 7, 1000}) {
    MemoryOpicStore store;
    OrderOptions o;
    o.kind = OrderKind::kOpic;
    o.ram_budget_urls = budget;
    OpicOrder order(o, *ScoringChain::Make("opic", {"opic.split=plain"}), &store);
    std::map<std::string, double> cash;
    std::uniform_real_distribution<double> d(0.0, 1.0);
    for (int k = 0; k < 60; ++k) {
      FrontierEntry e = Page("http://h.test/" + std::to_string(k));
      e.cash = d(rng);
      cash[e.url] = e.cash;
      order.Push(e, false);
    }
    CHECK(order.in_memory() <= budget);
    // A fetched page hands cash to queued URLs (most of them spilled):
    // pretend p0 was fetched with cash 3 and linked to ten URLs.
    FrontierEntry fetched = Page("http://p.test/0");
    fetched.cash = 3.0;
    (void)order.OnFetched(fetched);
    std::vector<LinkInput> links;
    for (int k = 0; k < 10; ++k)
      links.push_back(Link("http://h.test/" + std::to_string(k * 6), fetched.url, k, 10));
    PageContext page;
    page.url = fetched.url;
    page.fetched_here = true;
    page.cash = 3.0;
    order.OnLinks(page, links, std::vector<bool>(links.size(), false));
    for (const auto& l : links) cash[l.entry.url] += 0.3;  // plain: 3 / 10
    order.EndRequest();
    CHECK(order.bonus() < 1e-15);  // everything was handed out (up to rounding)
    CHECK(order.in_memory() <= budget);
    // Pop everything, with a few pops put back on the way (as Lease does).
    std::vector<std::pair<double, std::string>> expected;
    for (const auto& [u, c] : cash) expected.emplace_back(c, u);
    std::sort(expected.begin(), expected.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    size_t k = 0;
    while (auto e = order.Pop()) {
      if (k % 7 == 3) {  // a busy origin: back, then again
        order.Unpop(*e);
        e = order.Pop();
        REQUIRE(e);
      }
      REQUIRE(k < expected.size());
      CHECK(e->entry.url == expected[k].second);
      CHECK(e->entry.cash == Approx(expected[k].first).epsilon(1e-12));
      order.Taken(*e);
      ++k;
    }
    CHECK(k == expected.size());
    CHECK(store.entries().empty());
  }
}

// ---------------------------------------------------------------------------
// Back-off of hosts answering 429 or 503, or unreachable

TEST_CASE("back-off: Retry-After bounded, else exponential, parked after repeated failures",
          "[unit][policy]") {
  BackoffOptions o;  // base 2 s, max 600 s, park after 8 for 1800 s
  CHECK(NextBackoff(o, 1, 0).delay_ms == 2'000);
  CHECK(NextBackoff(o, 2, 0).delay_ms == 4'000);
  CHECK(NextBackoff(o, 5, 0).delay_ms == 32'000);
  CHECK(NextBackoff(o, 7, 0).delay_ms == 128'000);
  CHECK(NextBackoff(o, 1, 30).delay_ms == 30'000);       // Retry-After
  CHECK(NextBackoff(o, 1, 86'400).delay_ms == 600'000);  // bounded
  o.max_ms = 100'000;
  CHECK(NextBackoff(o, 7, 0).delay_ms == 100'000);
  CHECK_FALSE(NextBackoff(o, 7, 0).park);
  CHECK(NextBackoff(o, 8, 0).park);
  CHECK(NextBackoff(o, 8, 0).delay_ms == 1'800'000);
  CHECK(NextBackoff(o, 60, 0).park);
}

TEST_CASE("a 503 with Retry-After puts the URL back and the host waits", "[unit][policy]") {
  Frontier f(Options(OrderKind::kHostBudget));
  REQUIRE(f.Add(Page("http://a.test/1"), 0));
  REQUIRE(f.Add(Page("http://a.test/2"), 0));
  REQUIRE(f.Add(Page("http://b.test/1"), 0));
  AllowAll(f);
  Schedule s = f.Lease("f", 10, 1000);
  REQUIRE(s.entries.size() == 3);
  FetchOutcome busy = Outcome("http://a.test/1", 503);
  busy.retry_after_seconds = 7;
  f.Report(s.id, Outcome("http://a.test/2", 200), 1000);
  CHECK(f.Report(s.id, busy, 1000).requeued);
  f.Report(s.id, Outcome("http://b.test/1", 200), 1000);
  f.Complete(s.id, 1000);
  const auto rec = f.Origin("http://a.test");
  REQUIRE(rec);
  CHECK(rec->backoff_until_ms == 8000);
  CHECK(rec->failures == 1);
  CHECK_FALSE(f.Idle());
  CHECK(f.Lease("f", 10, 7999).id == 0);  // still backed off
  Schedule again = f.Lease("f", 10, 8000);
  CHECK(Urls(again) == std::vector<std::string>{"http://a.test/1"});
  CHECK(again.entries[0].retries == 1);
  f.Report(again.id, Outcome("http://a.test/1", 200), 8000);
  CHECK(f.Origin("http://a.test")->failures == 0);  // an answer ends the run
}

TEST_CASE("a host that keeps failing is parked, not dropped, and its URL gives up after max retries",
          "[unit][policy]") {
  FrontierOptions o = Options(OrderKind::kBfs);
  o.backoff.base_ms = 1000;
  o.backoff.max_ms = 4000;
  o.backoff.park_after = 3;
  o.backoff.park_ms = 60'000;
  o.backoff.max_url_retries = 4;
  Frontier f(o);
  REQUIRE(f.Add(Page("http://a.test/x"), 0));
  AllowAll(f);
  int64_t now = 0;
  std::vector<int64_t> waits;
  int attempts = 0;
  for (;;) {
    Schedule s = f.Lease("f", 10, now);
    if (s.id == 0) {
      now += 500;
      REQUIRE(now < 1'000'000);
      continue;
    }
    ++attempts;
    const bool requeued = f.Report(s.id, Outcome("http://a.test/x", 429), now).requeued;
    f.Complete(s.id, now);
    waits.push_back(f.Origin("http://a.test")->backoff_until_ms - now);
    if (!requeued) break;
  }
  // 1 s, 2 s, then parked (third failure) for 60 s, then parked again; the
  // fifth answer stands (4 retries).
  CHECK(attempts == 5);
  CHECK(waits == std::vector<int64_t>{1000, 2000, 60'000, 60'000, 60'000});
  CHECK(f.Origin("http://a.test")->parked);
  CHECK(f.Idle());
}

TEST_CASE("more than the error threshold in one schedule makes a host crawl-delayed", "[unit][policy]") {
  FrontierOptions o = Options(OrderKind::kBfs);
  o.error_crawl_delay_ms = 2000;
  Frontier f(o);
  for (int k = 0; k < 5; ++k) REQUIRE(f.Add(Page("http://a.test/" + std::to_string(k)), 0));
  AllowAll(f);
  Schedule s = f.Lease("f", 1, 0);
  f.NoteHostErrors(s.id, "http://a.test", 30);
  CHECK_FALSE(f.Origin("http://a.test")->error_delayed);
  f.NoteHostErrors(s.id, "http://a.test", 21);  // 51 in one schedule
  CHECK(f.Origin("http://a.test")->error_delayed);
  f.Report(s.id, Outcome(s.entries[0].url, 500), 0);
  f.Complete(s.id, 0);
  // Crawl-delayed: one URL per slot (a schedule of 200 has 2 slots), none
  // before the delay has passed since the last schedule.
  CHECK(f.Lease("f", 200, 1999).id == 0);
  Schedule next = f.Lease("f", 200, 2000);
  CHECK(next.entries.size() == 2);
  CHECK(next.crawl_delay_ms.at("http://a.test") == 2000);
}

// ---------------------------------------------------------------------------
// Links found on pages another queue server scheduled (AddUrls)

TEST_CASE("host_budget counts a link from an unknown page as t = 0, w = 0", "[unit]") {
  Frontier f(Options(OrderKind::kHostBudget));
  auto& order = dynamic_cast<TieredOrder&>(f.order());
  // The referrer was never leased here: WIN += 1 / (1.1 + 0 + log5(1)).
  CHECK(f.AddLinks({Link("http://b.test/x", "http://a.test/", 3)}, 0) == 1);
  f.EndRequest();
  const CldStats b = order.Stats("b.test");
  CHECK(b.seen == 1);
  CHECK(b.wseen == Approx(1.0 + std::log(4.0) / std::log(5.0)).epsilon(1e-12));  // 1 + log5(1 + 3)
  CHECK(b.win == Approx(1.0 / 1.1).epsilon(1e-12));
}

TEST_CASE("host_budget: WIN uses the tier and weight the referring page was scheduled with", "[unit]") {
  Frontier f(Options(OrderKind::kHostBudget));
  auto& order = dynamic_cast<TieredOrder&>(f.order());
  REQUIRE(f.Add(Page("http://a.test/"), 0));
  AllowAll(f);
  Schedule s = f.Lease("f", 10, 0);
  f.Report(s.id, Outcome("http://a.test/", 200), 0);
  // a.test/p found as link 4 of a.test/: weight 4, tier 0.
  (void)f.AddLinks({Link("http://a.test/p", "http://a.test/", 4)}, 0);
  f.Complete(s.id, 0);
  f.EndRequest();
  Schedule p = f.Lease("f", 10, 0);
  REQUIRE(Urls(p) == std::vector<std::string>{"http://a.test/p"});
  CHECK(p.entries[0].weight == 4);
  CHECK(p.entries[0].tier == 0);
  f.Report(p.id, Outcome("http://a.test/p", 200), 0);
  (void)f.AddLinks({Link("http://c.test/", "http://a.test/p", 0)}, 0);
  f.EndRequest();
  // WIN of c.test: 1 / (1.1 + 0 + log5(5)) = 1 / 2.1.
  CHECK(order.Stats("c.test").win == Approx(1.0 / 2.1).epsilon(1e-12));
}

TEST_CASE("opic: a URL found on another server's page starts with no cash and gets the normalised share",
          "[unit]") {
  MemoryOpicStore store;
  Frontier f(Options(OrderKind::kOpic), &store);
  auto& order = dynamic_cast<OpicOrder&>(f.order());
  REQUIRE(f.Add(Page("http://a.test/"), 0, 1));
  AllowAll(f);
  CHECK(f.AddLinks({Link("http://a.test/x", "http://elsewhere.test/", 0, 1)}, 0) == 1);
  f.EndRequest();
  CHECK(*order.CashOf("http://a.test/x") == 0.0);
  CHECK(*order.CashOf("http://a.test/") == 1.0);
  // a.test/ is fetched and has no links: its 1.0 is lost and spread over
  // the one queued URL.
  Schedule s = f.Lease("f", 1, 0);
  REQUIRE(Urls(s) == std::vector<std::string>{"http://a.test/"});
  f.Report(s.id, Outcome("http://a.test/", 404), 0);
  f.Complete(s.id, 0);
  f.EndRequest();
  CHECK(*order.CashOf("http://a.test/x") == Approx(1.0).epsilon(1e-12));
}

namespace {
// A link as the fetcher sends it to the queue server that owns it when
// another queue server scheduled the referrer (DiscoveredLink 12, 20-23).
LinkInput Echoed(LinkInput l, int32_t tier, uint32_t weight, double cash, uint32_t same_cld) {
  l.referrer_known = true;
  l.referrer_tier = tier;
  l.referrer_weight = weight;
  l.referrer_cash = cash;
  l.same_cld_links_on_page = same_cld;
  return l;
}
// The copy the referrer's queue server gets of a link sent elsewhere.
LinkInput SentElsewhere(LinkInput l) {
  l.sent_elsewhere = true;
  return l;
}
}  // namespace

TEST_CASE("opic across two queue servers: shares sent elsewhere are booked at home and credited by the owner",
          "[unit]") {
  MemoryOpicStore store_a, store_b;
  Frontier fa(Options(OrderKind::kOpic), &store_a);
  Frontier fb(Options(OrderKind::kOpic), &store_b);
  auto& oa = dynamic_cast<OpicOrder&>(fa.order());
  auto& ob = dynamic_cast<OpicOrder&>(fb.order());
  // Two seeds of one crawl, one per queue server: 0.5 each.
  REQUIRE(fa.Add(Page("http://a.test/"), 0, 2));
  REQUIRE(fb.Add(Page("http://b.test/"), 0, 2));
  AllowAll(fa);
  AllowAll(fb);
  Schedule s = fa.Lease("f", 1, 0);
  REQUIRE(Urls(s) == std::vector<std::string>{"http://a.test/"});
  fa.Report(s.id, Outcome("http://a.test/", 200), 0);
  // a.test/ links to a.test/1 (owned by a's server) and to c.test/x and the
  // queued b.test/ (owned by b's). n = 3, s = 1: 0.5 / 6 to a.test/1 and
  // (0.5 - 0.5/6) / 2 = 5/24 to each of the others.
  const LinkInput to_c = Link("http://c.test/x", "http://a.test/", 1, 3);
  const LinkInput to_b = Link("http://b.test/", "http://a.test/", 2, 3);
  CHECK(fa.AddLinks(
            {Link("http://a.test/1", "http://a.test/", 0, 3), SentElsewhere(to_c), SentElsewhere(to_b)}, 0) ==
        1);
  fa.Complete(s.id, 0);
  fa.EndRequest();
  CHECK(*oa.CashOf("http://a.test/1") == Approx(0.5 / 6).epsilon(1e-12));
  CHECK(oa.bonus() == 0);  // nothing lost: the copies' shares were given away
  CHECK(oa.reserve() == 0);
  CHECK(oa.size() == 1);  // the copies are neither queued nor seen here
  CHECK_FALSE(oa.CashOf("http://c.test/x").has_value());
  // The owner gets the links with a.test/'s cash C = 0.5 and s = 1.
  CHECK(fb.AddLinks({Echoed(to_c, 0, 0, 0.5, 1), Echoed(to_b, 0, 0, 0.5, 1)}, 0) == 1);
  fb.EndRequest();
  AllowAll(fb);  // c.test/x waits for c.test's robots.txt
  fb.EndRequest();
  REQUIRE(ob.CashOf("http://c.test/x").has_value());
  CHECK(*ob.CashOf("http://c.test/x") == Approx(5.0 / 24).epsilon(1e-12));
  CHECK(*ob.CashOf("http://b.test/") == Approx(0.5 + 5.0 / 24).epsilon(1e-12));
  CHECK(ob.bonus() == 0);
  // The crawl's cash, over both servers, is still 1.
  CHECK(std::abs(TotalCash(fa, oa, &store_a, {}) + TotalCash(fb, ob, &store_b, {}) - 1.0) < 1e-12);
}

TEST_CASE("opic across queue servers: a share the owner cannot credit is lost and spread there", "[unit]") {
  MemoryOpicStore store;
  Frontier fb(Options(OrderKind::kOpic), &store);
  auto& ob = dynamic_cast<OpicOrder&>(fb.order());
  REQUIRE(fb.Add(Page("http://b.test/"), 0, 2));
  AllowAll(fb);
  Schedule s = fb.Lease("f", 1, 0);
  REQUIRE(Urls(s) == std::vector<std::string>{"http://b.test/"});
  fb.Report(s.id, Outcome("http://b.test/", 200), 0);
  fb.Complete(s.id, 0);
  // A link to the fetched b.test/ (no credit) and one to the new b.test/y,
  // from a page with cash 0.4, n = 2, s = 0: 0.2 each.
  (void)fb.AddLinks({Link("http://b.test/z", "http://b.test/", 0, 1)}, 0);  // b.test/'s own link
  fb.EndRequest();
  const double before = *ob.CashOf("http://b.test/z");
  CHECK(fb.AddLinks({Echoed(Link("http://b.test/", "http://a.test/", 0, 2), 0, 0, 0.4, 0),
                     Echoed(Link("http://b.test/y", "http://a.test/", 1, 2), 0, 0, 0.4, 0)},
                    0) == 1);
  fb.EndRequest();
  // The 0.2 for the fetched b.test/ is spread over the two queued URLs.
  CHECK(*ob.CashOf("http://b.test/y") == Approx(0.2 + 0.1).epsilon(1e-12));
  CHECK(*ob.CashOf("http://b.test/z") == Approx(before + 0.1).epsilon(1e-12));
}

TEST_CASE("host_budget: a link from another server's page counts WIN with the echoed tier and weight",
          "[unit]") {
  Frontier fa(Options(OrderKind::kHostBudget));
  Frontier fb(Options(OrderKind::kHostBudget));
  auto& oa = dynamic_cast<TieredOrder&>(fa.order());
  auto& ob = dynamic_cast<TieredOrder&>(fb.order());
  // WIN of c.test: 1 / (1.1 + 2 + log5(1 + 4)) = 1 / 4.1.
  const LinkInput to_c = Link("http://c.test/", "http://a.test/p", 0, 1);
  CHECK(fb.AddLinks({Echoed(to_c, 2, 4, 0, 0)}, 0) == 1);
  fb.EndRequest();
  CHECK(ob.Stats("c.test").win == Approx(1.0 / 4.1).epsilon(1e-12));
  CHECK(ob.Stats("c.test").seen == 1);
  // The copy at the referrer's server changes nothing there.
  CHECK(fa.AddLinks({SentElsewhere(to_c)}, 0) == 0);
  fa.EndRequest();
  CHECK(oa.Stats("c.test").seen == 0);
  CHECK(oa.Stats("c.test").win == 0);
  CHECK(oa.size() == 0);
}

// ---------------------------------------------------------------------------
// Tier queues past their RAM window (queueserver/frontier/tier_store.h)

namespace {

// Keeps the order's persisted scalars, as a store would.
struct StateJournal final : FrontierJournal {
  std::string state;
  void Seen(uint64_t) override {}
  void Queued(QueueKind, const SeqEntry&) override {}
  void Dequeued(QueueKind, uint64_t) override {}
  void WaitAdded(const std::string&, const SeqEntry&) override {}
  void WaitRemoved(const std::string&, uint64_t) override {}
  void OriginChanged(const std::string&, const OriginRecord&) override {}
  void LeaseOpened(uint64_t, const LeaseRecord&, const std::vector<FrontierEntry>&) override {}
  void LeaseUrlDone(uint64_t, const std::string&) override {}
  void LeaseClosed(uint64_t, const std::vector<std::string>&) override {}
  void CldChanged(const std::string&, const CldStats&) override {}
  void OrderStateChanged(const std::string& blob) override { state = blob; }
};

}  // namespace

TEST_CASE("tier queues with a small RAM window pop exactly as with everything in RAM, across restores",
          "[unit]") {
  const OrderKind kind = GENERATE(OrderKind::kBfs, OrderKind::kHostBudget);
  const size_t window = GENERATE(size_t{1}, size_t{3});
  INFO("order " << (kind == OrderKind::kBfs ? "bfs" : "host_budget") << " window " << window);
  OrderOptions big = OrderOf(kind);
  big.tier_window_urls = 1'000'000;
  OrderOptions small = OrderOf(kind);
  small.tier_window_urls = window;
  TieredOrder ref(big);  // everything in its window
  MemoryTierStore store;
  StateJournal journal;
  auto order = std::make_unique<TieredOrder>(small, &store);
  order->SetJournal(&journal);
  std::mt19937 rng(11);
  int next = 0;
  size_t taken = 0;
  for (int round = 0; round < 400; ++round) {
    // New URLs at the back, over five tiers.
    const int pushes = static_cast<int>(rng() % 6);
    for (int k = 0; k < pushes; ++k) {
      FrontierEntry e = Page("u" + std::to_string(next++));
      e.tier = static_cast<int32_t>(rng() % 5);
      ref.Push(e, false);
      order->Push(e, false);
    }
    // A lease: pop some, put back the skipped ones in reverse, take the rest.
    ref.BeginSchedule();
    order->BeginSchedule();
    std::vector<SeqEntry> a, b;
    const size_t pops = rng() % 9;
    for (size_t k = 0; k < pops; ++k) {
      auto x = ref.Pop();
      auto y = order->Pop();
      REQUIRE(x.has_value() == y.has_value());
      if (!x) break;
      REQUIRE(x->entry.url == y->entry.url);
      a.push_back(*x);
      b.push_back(*y);
    }
    std::vector<bool> skip(a.size());
    for (size_t k = 0; k < a.size(); ++k) skip[k] = rng() % 3 == 0;
    for (size_t k = a.size(); k-- > 0;) {
      if (!skip[k]) continue;
      ref.Unpop(a[k]);
      order->Unpop(b[k]);
    }
    std::vector<FrontierEntry> back;  // leased, then returned unfetched
    for (size_t k = 0; k < a.size(); ++k) {
      if (skip[k]) continue;
      ref.Taken(a[k]);
      order->Taken(b[k]);
      ++taken;
      if (rng() % 4 == 0) back.push_back(a[k].entry);
    }
    for (auto it = back.rbegin(); it != back.rend(); ++it) {
      ref.Push(*it, true);
      order->Push(*it, true);
    }
    REQUIRE(order->size() == ref.size());
    REQUIRE(order->QueuedByTier() == ref.QueuedByTier());
    REQUIRE(order->in_memory() <= 5 * window);
    if (round % 37 == 36) {
      // A restart: only counts, bounds and the cursor come back; the
      // windows refill from the store.
      order = std::make_unique<TieredOrder>(small, &store);
      order->Restore({}, {}, journal.state);
      order->SetJournal(&journal);
      REQUIRE(order->in_memory() == 0);
      REQUIRE(order->size() == ref.size());
    }
  }
  // Drain both.
  for (;;) {
    auto x = ref.Pop();
    auto y = order->Pop();
    REQUIRE(x.has_value() == y.has_value());
    if (!x) break;
    REQUIRE(x->entry.url == y->entry.url);
    ref.Taken(*x);
    order->Taken(*y);
    ++taken;
  }
  CHECK(taken > 500);
  CHECK(store.reads() > 100);  // the windows were refilled many times
  CHECK(store.TierSummary().empty());
}
