// Crawl orders (docs/DESIGN.md §5): host_budget formulas and tiers, bfs,
// OPIC cash splitting and the ScoringFilter chain, each formula on its own.
// In a frontier: orders_frontier_test.cc. Every expected number is worked
// out by hand in the comment beside it.
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

// ---------------------------------------------------------------------------
// host_budget formulas (docs/DESIGN.md §5.1)

TEST_CASE("weighted-seen increment: log is 1 + log5(1 + i), min is always 1", "[unit][policy]") {
  CHECK(WseenStep(WseenIncrement::kLog, 0) == Approx(1.0).epsilon(1e-15));   // 1 + log5(1)
  CHECK(WseenStep(WseenIncrement::kLog, 4) == Approx(2.0).epsilon(1e-15));   // 1 + log5(5)
  CHECK(WseenStep(WseenIncrement::kLog, 24) == Approx(3.0).epsilon(1e-15));  // 1 + log5(25)
  CHECK(WseenStep(WseenIncrement::kLog, 1) == Approx(1.0 + std::log(2.0) / std::log(5.0)));
  for (uint32_t i : {0u, 1u, 4u, 24u, 1000u}) CHECK(WseenStep(WseenIncrement::kMin, i) == 1.0);
  CHECK(ParseWseenIncrement("").ok());
  CHECK(*ParseWseenIncrement("") == WseenIncrement::kLog);
  CHECK(*ParseWseenIncrement("min") == WseenIncrement::kMin);
  CHECK_FALSE(ParseWseenIncrement("max").ok());
}

TEST_CASE("weighted incoming: 1 / (1.1 + t + log5(1 + w))", "[unit]") {
  CHECK(WinStep(0, 0) == Approx(1.0 / 1.1).epsilon(1e-15));
  CHECK(WinStep(2, 4) == Approx(1.0 / 4.1).epsilon(1e-15));   // 1.1 + 2 + log5(5)
  CHECK(WinStep(0, 24) == Approx(1.0 / 3.1).epsilon(1e-15));  // 1.1 + 0 + log5(25)
}

TEST_CASE("tier boundaries: floor(log10(max(1, WSEEN - WIN))) + 4 sitemap + 1 non-HTML", "[unit]") {
  CHECK(TierFor(Cld(1, 1.0, 0), false, false) == 0);
  CHECK(TierFor(Cld(9, 9.999, 0), false, false) == 0);
  CHECK(TierFor(Cld(10, 10.0, 0), false, false) == 1);
  CHECK(TierFor(Cld(99, 99.99, 0), false, false) == 1);
  CHECK(TierFor(Cld(100, 100.0, 0), false, false) == 2);
  CHECK(TierFor(Cld(1000, 1000.0, 0), false, false) == 3);
  CHECK(TierFor(Cld(150, 150.0, 60.0), false, false) == 1);   // 90
  CHECK(TierFor(Cld(150, 150.0, 141.0), false, false) == 0);  // 9
  CHECK(TierFor(Cld(3, 3.0, 50.0), false, false) == 0);       // max(1, -47) = 1
  CHECK(TierFor(Cld(100, 100.0, 0), true, false) == 6);       // 2 + 4
  CHECK(TierFor(Cld(100, 100.0, 0), false, true) == 3);       // 2 + 1
  // A sitemap file is XML, likely non-HTML: its penalty replaces the + 1.
  CHECK(TierFor(Cld(1, 1.0, 0), true, true) == 4);
  // Ten increments of 1 + log5(1) accumulated in floating point are 10.
  CldStats st;
  for (int k = 0; k < 10; ++k) st.wseen += WseenStep(WseenIncrement::kLog, 0);
  CHECK(TierFor(st, false, false) == 1);
}

TEST_CASE("host_budget counts SEEN, WSEEN and WIN per CLD and files links by tier", "[unit]") {
  Frontier f(Options(OrderKind::kHostBudget));
  auto& order = dynamic_cast<TieredOrder&>(f.order());
  REQUIRE(f.Add(Page("http://www.a.test/"), 0));
  AllowAll(f);
  // The seed: SEEN 1, WSEEN 1, tier 0.
  CHECK(order.Stats("a.test") ==
        CldStats{.seen = 1, .wseen = 1.0, .win = 0.0, .seeded = true, .in_clds = {}});
  Schedule s = f.Lease("f", 10, 0);
  REQUIRE(Urls(s) == std::vector<std::string>{"http://www.a.test/"});
  f.Report(s.id, Outcome("http://www.a.test/", 200), 0);
  // Links: ranks 0 and 4 to b.test (another CLD), rank 24 to a.test.
  std::vector<LinkInput> links = {Link("http://b.test/x", "http://www.a.test/", 0),
                                  Link("http://b.test/y", "http://www.a.test/", 4),
                                  Link("http://a.test/z", "http://www.a.test/", 24)};
  CHECK(f.AddLinks(links, 0) == 3);
  f.EndRequest();
  // b.test: SEEN 2, WSEEN 1 + 2 = 3; two links from a page of tier 0 and
  // weight 0: WIN 2 / 1.1.
  const CldStats b = order.Stats("b.test");
  CHECK(b.seen == 2);
  CHECK(b.wseen == Approx(3.0).epsilon(1e-12));
  CHECK(b.win == Approx(2.0 / 1.1).epsilon(1e-12));
  // a.test: SEEN 2, WSEEN 1 + 3 = 4, WIN 0 (same CLD).
  CHECK(order.Stats("a.test") ==
        CldStats{.seen = 2, .wseen = 4.0, .win = 0.0, .seeded = true, .in_clds = {}});
  CHECK_FALSE(b.seeded);
}

TEST_CASE("host_budget: a CLD with ten URLs moves to tier 1; sitemap and non-HTML offsets", "[unit]") {
  Frontier f(Options(OrderKind::kHostBudget));
  auto& order = dynamic_cast<TieredOrder&>(f.order());
  REQUIRE(f.Add(Page("http://a.test/"), 0));
  AllowAll(f);
  std::vector<LinkInput> links;
  // Nine more rank-0 links of a.test: WSEEN 2..10, the tenth URL is tier 1.
  for (int k = 1; k <= 9; ++k)
    links.push_back(Link("http://a.test/" + std::to_string(k), "http://a.test/", 0));
  LinkInput sitemap = Link("http://a.test/sitemap.xml", "http://a.test/", 0);  // a sitemap file
  sitemap.from_sitemap = false;                                                // WSEEN 11: tier 1 + 4
  links.push_back(sitemap);
  LinkInput pdf = Link("http://a.test/f.pdf", "http://a.test/", 0);
  pdf.likely_non_html = true;  // WSEEN 12: tier 1 + 1
  links.push_back(pdf);
  (void)f.AddLinks(links, 0);
  f.EndRequest();
  CHECK(order.TierSize(0) == 1 + 8);  // the seed and links 1..8 (WSEEN 2..9)
  CHECK(order.TierSize(1) == 1);      // link 9 (WSEEN 10)
  CHECK(order.TierSize(5) == 1);
  CHECK(order.TierSize(2) == 1);
}

TEST_CASE("host_budget: one schedule drains its tier, then the next ones; arrival order inside a tier",
          "[unit]") {
  TieredOrder order(OrderOf(OrderKind::kHostBudget));
  auto push = [&](const std::string& u, int32_t tier) {
    FrontierEntry e = Page(u);
    e.tier = tier;
    order.Push(e, false);
  };
  push("t0a", 0);
  push("t0b", 0);
  push("t0c", 0);
  push("t2a", 2);
  push("t1a", 1);
  push("t2b", 2);
  std::vector<std::string> got;
  while (auto e = order.Pop()) {
    got.push_back(e->entry.url);
    order.Taken(*e);
  }
  // One schedule (no BeginSchedule between the Pops): Yioop makes a schedule
  // from one tier; host_budget_test.cc checks the rotation between schedules.
  CHECK(got == std::vector<std::string>{"t0a", "t0b", "t0c", "t1a", "t2a", "t2b"});
}

TEST_CASE("bfs ignores tiers: one FIFO", "[unit]") {
  TieredOrder order(OrderOf(OrderKind::kBfs));
  for (int k = 0; k < 4; ++k) {
    FrontierEntry e = Page("u" + std::to_string(k));
    e.tier = 3 - k;
    order.Push(e, false);
  }
  std::vector<std::string> got;
  while (auto e = order.Pop()) got.push_back(e->entry.url);
  CHECK(got == std::vector<std::string>{"u0", "u1", "u2", "u3"});
}

// ---------------------------------------------------------------------------
// OPIC cash splitting (docs/DESIGN.md §5.2)

namespace {
std::vector<ScoredLink> Links(std::initializer_list<bool> same_cld) {
  std::vector<ScoredLink> out;
  uint32_t rank = 0;
  for (bool s : same_cld) {
    ScoredLink l;
    l.same_cld = s;
    l.rank = rank++;
    out.push_back(l);
  }
  return out;
}
}  // namespace

TEST_CASE("plain OPIC gives each of n links C/n", "[unit]") {
  auto links = Links({true, false, false, false});
  const double given = SplitCash(0.8, 4, CashSplit::kPlain, links);
  for (const auto& l : links) CHECK(l.share == Approx(0.2).epsilon(1e-15));
  CHECK(std::abs(given - 0.8) < 1e-12);
}

TEST_CASE("CLD-aware OPIC: C/(2n) to the own CLD, (C - sC/(2n))/(n - s) to others", "[unit]") {
  // C = 1, n = 4, s = 1: same 1/8; others (1 - 1/8) / 3 = 7/24.
  auto links = Links({true, false, false, false});
  const double given = SplitCash(1.0, 4, CashSplit::kCldAware, links);
  CHECK(links[0].share == Approx(1.0 / 8).epsilon(1e-15));
  for (int k = 1; k < 4; ++k) CHECK(links[k].share == Approx(7.0 / 24).epsilon(1e-15));
  CHECK(std::abs(given - 1.0) < 1e-12);  // all of C is handed out

  // C = 0.6, n = 5, s = 2: same 0.06 each; others (0.6 - 0.12) / 3 = 0.16.
  auto five = Links({false, true, false, true, false});
  CHECK(std::abs(SplitCash(0.6, 5, CashSplit::kCldAware, five) - 0.6) < 1e-12);
  CHECK(five[1].share == Approx(0.06).epsilon(1e-14));
  CHECK(five[0].share == Approx(0.16).epsilon(1e-14));
}

TEST_CASE("CLD-aware OPIC with s = n: C/(2n) each, half of C lost", "[unit]") {
  // C = 1, n = 3, all same CLD: 1/6 each, 1/2 handed out; the other half
  // is lost and restored by normalisation.
  auto links = Links({true, true, true});
  const double given = SplitCash(1.0, 3, CashSplit::kCldAware, links);
  for (const auto& l : links) CHECK(l.share == Approx(1.0 / 6).epsilon(1e-15));
  CHECK(std::abs(given - 0.5) < 1e-12);
}

TEST_CASE("n counts links this server does not see: their shares are not handed out", "[unit]") {
  // C = 1, n = 10, two links seen, both other CLD, plain: 0.1 each.
  auto links = Links({false, false});
  CHECK(std::abs(SplitCash(1.0, 10, CashSplit::kPlain, links) - 0.2) < 1e-12);
}

TEST_CASE("sitemap: the i-th entry gets C/(gamma i^2), summing to C", "[unit]") {
  // n = 3: gamma = 1 + 1/4 + 1/9 = 49/36; shares 36/49, 9/49, 4/49.
  auto links = Links({false, true, false});
  for (auto& l : links) l.from_sitemap = true;
  const double given = SplitCash(1.0, 3, CashSplit::kCldAware, links);
  CHECK(links[0].share == Approx(36.0 / 49).epsilon(1e-15));
  CHECK(links[1].share == Approx(9.0 / 49).epsilon(1e-15));
  CHECK(links[2].share == Approx(4.0 / 49).epsilon(1e-15));
  CHECK(std::abs(given - 1.0) < 1e-12);
  // A long sitemap: 1000 entries still sum to C.
  std::vector<ScoredLink> many(1000);
  for (uint32_t k = 0; k < many.size(); ++k) {
    many[k].rank = k;
    many[k].from_sitemap = true;
  }
  CHECK(std::abs(SplitCash(0.37, 1000, CashSplit::kCldAware, many) - 0.37) < 1e-12);
}

TEST_CASE("scoring filter chain: names parse, unknown names are refused", "[unit]") {
  auto chain = ScoringChain::Make("opic", {});
  REQUIRE(chain.ok());
  CHECK(chain->names() == std::vector<std::string>{"opic"});
  CHECK(chain->IndexerScore(ScoreDatum{"u", 0, LinkKind::kBody, 0}, 0.25, 2.0) ==
        Approx(0.125));  // history / total
  CHECK(chain->InjectedScore(ScoreDatum{"u", 0, LinkKind::kBody, 0.5}) == 0.5);
  CHECK(chain->UpdateDbScore(ScoreDatum{"u", 0, LinkKind::kBody, 0.5},
                             {ScoreInlink{"p", LinkKind::kBody, 0.25}}) == 0.75);
  CHECK(ScoringChain::Make("", {})->empty());
  auto bad = ScoringChain::Make("opic,pagerank", {});
  CHECK_FALSE(bad.ok());
  CHECK(bad.status().message().find("pagerank") != std::string::npos);
  // Every order takes a ScoringFilter chain.
  OrderOptions o;
  o.kind = OrderKind::kHostBudget;
  o.scoring_filters = "opic";
  CHECK(MakeOrder(o, nullptr).ok());
}

// ---------------------------------------------------------------------------
// OPIC in the frontier: conservation, order, history
