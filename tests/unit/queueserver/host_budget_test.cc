// host_budget as Yioop 9 describes it: the tier
// chosen per schedule, SITEMAP_TIER_PENALTY on sitemap files only, WIN
// adjusted as URLs are added, the CLD rule per crawl, per-CLD budgets from
// WIN (IRLbot) and the Heritrix-style trap rules. Each test quotes the rule
// it checks.
#include "queueserver/frontier/host_budget.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "queueserver/crawl_shard.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/frontier/trap_rules.h"

using namespace crawl::queueserver;
using Catch::Detail::Approx;

namespace {

CldStats Cld(uint64_t seen, double wseen, double win, bool seeded = false) {
  CldStats st;
  st.seen = seen;
  st.wseen = wseen;
  st.win = win;
  st.seeded = seeded;
  return st;
}

LinkInput Link(const std::string& url, const std::string& referrer, uint32_t rank = 0) {
  LinkInput l;
  l.entry.url = url;
  l.entry.referrer = referrer;
  l.link_rank = rank;
  return l;
}

FetchOutcome Outcome(const std::string& url, int status, UrlKind kind = UrlKind::kPage) {
  FetchOutcome o;
  o.url = url;
  o.kind = kind;
  o.status = status;
  return o;
}

FrontierOptions BudgetOptions() {
  FrontierOptions o;
  o.order.kind = OrderKind::kHostBudget;
  o.order.cld_rule = crawl::CldRule::kSimple;
  return o;
}

// Answers every robots.txt waiting (404: all allowed).
void AllowAll(Frontier& f) {
  for (;;) {
    Schedule s = f.Lease("robots", 1000, 0, /*max_pages=*/0);
    if (s.id == 0) return;
    for (const auto& e : s.entries) f.Report(s.id, Outcome(e.url, 404, UrlKind::kRobots), 0);
    f.Complete(s.id, 0);
  }
}

std::vector<int32_t> Tiers(const Schedule& s) {
  std::vector<int32_t> out;
  for (const auto& e : s.entries) out.push_back(e.tier);
  return out;
}

// Fetches `page` (leased alone) and offers `links` found on it.
void FetchWithLinks(Frontier& f, const std::string& page, std::vector<LinkInput> links) {
  Schedule s = f.Lease("f", 1, 0);
  REQUIRE(s.entries.size() == 1);
  REQUIRE(s.entries[0].url == page);
  f.Report(s.id, Outcome(page, 200), 0);
  (void)f.AddLinks(std::move(links), 0);
  f.EndRequest();
  f.Complete(s.id, 0);
}

}  // namespace

// ---------------------------------------------------------------------------
// Yioop 9: "When the scheduler produces a schedule for a fetcher, it chooses
// a tier to make the schedule from in a round robin fashion."

TEST_CASE("host_budget makes a whole schedule from one tier, the next schedule from the next tier",
          "[unit][policy]") {
  TieredOrder order([] {
    OrderOptions o;
    o.kind = OrderKind::kHostBudget;
    return o;
  }());
  auto push = [&](const std::string& u, int32_t tier) {
    FrontierEntry e;
    e.url = u;
    e.tier = tier;
    order.Push(e, false);
  };
  for (const char* u : {"t0a", "t0b", "t0c", "t0d"}) push(u, 0);
  for (const char* u : {"t2a", "t2b"}) push(u, 2);
  auto schedule = [&](size_t n) {
    order.BeginSchedule();
    std::vector<std::string> got;
    for (size_t k = 0; k < n; ++k) {
      auto e = order.Pop();
      if (!e) break;
      order.Taken(*e);
      got.push_back(e->entry.url);
    }
    return got;
  };
  // Per URL (before) this was t0a, t2a, t0b: the tier now stays for the schedule.
  CHECK(schedule(3) == std::vector<std::string>{"t0a", "t0b", "t0c"});
  // The next schedule: the next non-empty tier after 0.
  CHECK(schedule(1) == std::vector<std::string>{"t2a"});
  // Then round again to tier 0; when it runs dry the schedule goes on with
  // the next non-empty tier rather than leave URLs waiting.
  CHECK(schedule(3) == std::vector<std::string>{"t0d", "t2b"});
}

TEST_CASE("host_budget leases alternate tiers schedule by schedule through the frontier", "[unit][policy]") {
  Frontier f(BudgetOptions());
  REQUIRE(f.Add(FrontierEntry{"http://a.test/", "", 0}, 0));
  AllowAll(f);
  // Thirty links of a.test: WSEEN 2..31; links 1..8 in tier 0, 9..30 in tier 1.
  std::vector<LinkInput> links;
  for (int k = 1; k <= 30; ++k) links.push_back(Link("http://a.test/" + std::to_string(k), "http://a.test/"));
  FetchWithLinks(f, "http://a.test/", links);  // that schedule was tier 0's: tier 1 is next
  // Per URL (before) these were {1, 0, 1, 0} and {1, 0, 1, 0}.
  Schedule first = f.Lease("f", 4, 0);
  CHECK(Tiers(first) == std::vector<int32_t>{1, 1, 1, 1});
  f.Complete(first.id, 0);
  Schedule second = f.Lease("f", 4, 0);
  CHECK(Tiers(second) == std::vector<int32_t>{0, 0, 0, 0});
}

// ---------------------------------------------------------------------------
// Yioop 9: "For urls to sitemaps a constant SITEMAP_TIER_PENALTY (4) is
// added" - the URLs of sitemap files, not the pages a sitemap lists.

TEST_CASE("a sitemap file is a robots.txt Sitemap line, a sitemap index entry or a link to *sitemap*.xml",
          "[unit][policy]") {
  // robots.txt's Sitemap: lines (the fetcher's only links from robots.txt).
  CHECK(IsSitemapUrl("http://a.test/maps/list", "http://a.test/robots.txt", true));
  // Entries of a sitemap index: XML files.
  CHECK(IsSitemapUrl("http://a.test/sitemaps/1.xml.gz", "http://a.test/sitemap_index.xml", true));
  CHECK(IsSitemapUrl("http://a.test/sitemaps/2.XML", "http://a.test/sitemap_index.xml", true));
  // A page linking to its sitemap.
  CHECK(IsSitemapUrl("http://a.test/sitemap.xml?x=1", "http://a.test/", false));
  // Pages a sitemap lists are not sitemaps.
  CHECK_FALSE(IsSitemapUrl("http://a.test/page/3.html", "http://a.test/sitemap.xml", true));
  CHECK_FALSE(IsSitemapUrl("http://a.test/", "http://a.test/sitemap.xml", true));
  // An XML file linked from a page, not named as a sitemap (a feed).
  CHECK_FALSE(IsSitemapUrl("http://a.test/feed.xml", "http://a.test/", false));
  CHECK_FALSE(IsSitemapUrl("http://a.test/sitemap.html", "http://a.test/", false));
}

TEST_CASE("SITEMAP_TIER_PENALTY goes to sitemap files, not to the URLs a sitemap lists", "[unit][policy]") {
  Frontier f(BudgetOptions());
  auto& order = dynamic_cast<TieredOrder&>(f.order());
  REQUIRE(f.Add(FrontierEntry{"http://a.test/", "", 0}, 0));
  AllowAll(f);
  LinkInput listed = Link("http://a.test/listed.html", "http://a.test/", 0);
  listed.from_sitemap = true;  // a <loc> of a sitemap: WSEEN 2, tier 0
  LinkInput map = Link("http://a.test/sitemaps/1.xml.gz", "http://a.test/", 1);
  map.from_sitemap = true;     // a sitemap index entry: WSEEN 3.43, tier 0 + 4
  map.likely_non_html = true;  // .xml.gz: the penalty replaces the + 1
  FetchWithLinks(f, "http://a.test/", {listed, map});
  CHECK(order.TierSize(0) == 1);
  CHECK(order.TierSize(4) == 1);
  CHECK(order.TierSize(5) == 0);
  CHECK(TierFor(Cld(1, 1.0, 0), /*sitemap_url=*/true, /*likely_non_html=*/true) == 4);
}

// ---------------------------------------------------------------------------
// WEIGHTED_INCOMING_URLS: adjusted as a URL is added, when the page it was
// found on is of another CLD (docs/DESIGN.md §5.1).

TEST_CASE("WIN grows for new URLs from another CLD, not for links to URLs already seen", "[unit][policy]") {
  Frontier f(BudgetOptions());
  auto& order = dynamic_cast<TieredOrder&>(f.order());
  REQUIRE(f.Add(FrontierEntry{"http://a.test/", "", 0}, 0));
  REQUIRE(f.Add(FrontierEntry{"http://b.test/", "", 0}, 0));
  AllowAll(f);
  // a.test's page (tier 0, weight 0) links to a new b.test URL and to b.test's
  // root, already seen (a seed): only the new one adds 1 / 1.1.
  FetchWithLinks(f, "http://a.test/",
                 {Link("http://b.test/new", "http://a.test/"), Link("http://b.test/", "http://a.test/")});
  const CldStats b = order.Stats("b.test");
  CHECK(b.seen == 2);
  CHECK(b.win == Approx(1.0 / 1.1).epsilon(1e-12));
}

// ---------------------------------------------------------------------------
// The CLD rule per crawl: `--cld-rule simple|psl`.

TEST_CASE("a crawl's cld_rule reaches the order; psl is the default; a bad one is refused", "[unit]") {
  crawl::v1::CrawlParams p;
  auto psl = CrawlShard::FrontierOptionsFor(p);
  REQUIRE(psl.ok());
  CHECK(psl->order.cld_rule == crawl::CldRule::kPublicSuffixList);
  p.set_cld_rule("simple");
  auto simple = CrawlShard::FrontierOptionsFor(p);
  REQUIRE(simple.ok());
  CHECK(simple->order.cld_rule == crawl::CldRule::kSimple);
  // Under the simple rule x.co.uk keeps three labels: two CLDs, not one.
  Frontier f(*simple);
  auto& order = dynamic_cast<TieredOrder&>(f.order());
  REQUIRE(f.Add(FrontierEntry{"http://www.x.co.uk/", "", 0}, 0));
  CHECK(order.Stats("x.co.uk").seen == 1);
  p.set_cld_rule("registrable");
  CHECK_FALSE(CrawlShard::FrontierOptionsFor(p).ok());
}

// ---------------------------------------------------------------------------
// Per-CLD budgets (IRLbot, Lee et al. 2008, section 6: a domain's budget
// grows with its in-degree from other domains: distinct CLDs by default,
// Yioop's weighted WIN with the rule "win").

namespace {
CldBudget WinBudget(double base, double per_win, bool exempt_seeded = true) {
  return CldBudget{
      .rule = CldBudgetRule::kWin, .base = base, .per_win = per_win, .exempt_seeded = exempt_seeded};
}
CldBudget InCldBudget(double base, double per_in_cld, bool exempt_seeded = true) {
  return CldBudget{.base = base, .per_in_cld = per_in_cld, .exempt_seeded = exempt_seeded};
}
}  // namespace

TEST_CASE("rule win: a CLD queues new URLs while SEEN <= base + per_win * WIN", "[unit][policy]") {
  const CldBudget budget = WinBudget(3, 2);
  CHECK_FALSE(OverBudget(Cld(3, 3.0, 0.0), budget));
  CHECK(OverBudget(Cld(4, 4.0, 0.0), budget));
  CHECK_FALSE(OverBudget(Cld(4, 4.0, 0.5), budget));  // 3 + 2 x 0.5 = 4
  CldBudget off = budget;
  off.enabled = false;
  CHECK_FALSE(OverBudget(Cld(4, 4.0, 0.0), off));
  // A seed's CLD is what the user asked for: no budget, unless asked.
  CHECK_FALSE(OverBudget(Cld(4, 4.0, 0.0, true), budget));
  CHECK(OverBudget(Cld(4, 4.0, 0.0, true), WinBudget(3, 2, false)));
}

TEST_CASE("rule in-clds (the default): SEEN <= base + per_in_cld * distinct other CLDs linking in",
          "[unit][policy]") {
  // IRLbot's STAR: "budgets ... based on the in-degree of each PLD" in the
  // PLD graph, distinct PLDs, which a spammer must pay for one by one.
  CHECK(ParseCldBudgetRule("").value() == CldBudgetRule::kInClds);
  CHECK(ParseCldBudgetRule("win").value() == CldBudgetRule::kWin);
  CHECK_FALSE(ParseCldBudgetRule("pagerank").ok());
  const CldBudget budget = InCldBudget(3, 2);
  CHECK(CldBudget{}.rule == CldBudgetRule::kInClds);
  CHECK(OverBudget(Cld(4, 4.0, 9.0), budget));  // WIN counts nothing under this rule
  CldStats st = Cld(4, 4.0, 0.0);
  CHECK(AddInCld(st, CldNameHash("b.test")));
  CHECK_FALSE(AddInCld(st, CldNameHash("b.test")));  // the same CLD again: no change
  CHECK_FALSE(OverBudget(st, budget));               // 3 + 2 x 1 = 5
  st.seen = 6;
  CHECK(OverBudget(st, budget));
  // The in-degree stops at kMaxInClds: a budget never grows past it.
  for (uint32_t k = 0; k < 2 * CldStats::kMaxInClds; ++k) AddInCld(st, k * 7919u);
  CHECK(st.in_clds.size() == CldStats::kMaxInClds);
  CHECK(std::is_sorted(st.in_clds.begin(), st.in_clds.end()));
}

TEST_CASE("a seeded CLD has no budget: a site with no links from other CLDs is crawled whole",
          "[unit][policy]") {
  // rust-doc on one host has WIN 0: a budget of base + 0 would cut it at
  // `base` URLs, a small part of the site.
  auto over_budget = [](bool exempt_seeded) {
    FrontierOptions o = BudgetOptions();
    o.order.budget = InCldBudget(3, 1, exempt_seeded);
    Frontier f(o);
    auto& order = dynamic_cast<TieredOrder&>(f.order());
    REQUIRE(f.Add(FrontierEntry{"http://a.test/", "", 0}, 0));
    AllowAll(f);
    std::vector<LinkInput> own;
    for (int k = 1; k <= 6; ++k) own.push_back(Link("http://a.test/" + std::to_string(k), "http://a.test/"));
    FetchWithLinks(f, "http://a.test/", own);
    CHECK(order.Stats("a.test").seeded);
    CHECK(order.Stats("a.test").seen == 7);
    return order.over_budget();
  };
  CHECK(over_budget(true) == 0);
  CHECK(over_budget(false) == 4);  // /3 to /6: SEEN 4..7 > 3
}

TEST_CASE(
    "rule win: URLs past their CLD's budget are seen but never queued; WIN from other CLDs raises the budget",
    "[unit][policy]") {
  FrontierOptions o = BudgetOptions();
  // Seeded CLDs budgeted too, to count; one new URL from another CLD (WIN 1/1.1) adds 1.
  o.order.budget = WinBudget(3, 1.1, false);
  Frontier f(o);
  auto& order = dynamic_cast<TieredOrder&>(f.order());
  REQUIRE(f.Add(FrontierEntry{"http://a.test/", "", 0}, 0));
  REQUIRE(f.Add(FrontierEntry{"http://b.test/", "", 0}, 0));
  AllowAll(f);
  // a.test's root links to four more a.test URLs: SEEN 2, 3 fit, 4 and 5 do not.
  std::vector<LinkInput> own;
  for (int k = 1; k <= 4; ++k) own.push_back(Link("http://a.test/" + std::to_string(k), "http://a.test/"));
  FetchWithLinks(f, "http://a.test/", own);
  CHECK(order.TierSize(0) == 1 + 2);  // b.test's root, a.test/1 and /2
  CHECK(order.over_budget() == 2);
  // Offered again, a refused URL stays out: it was seen.
  FetchWithLinks(f, "http://b.test/", {Link("http://a.test/3", "http://b.test/")});
  CHECK(order.over_budget() == 2);
  // New a.test URLs from another CLD's page each add 1 to the budget
  // (1.1 x 1/1.1) but also 1 to SEEN: SEEN 6..9 against budgets 4..7, so a
  // CLD that went over stays closed until links from elsewhere outrun it.
  Schedule s = f.Lease("f", 10, 0);
  for (const auto& e : s.entries) f.Report(s.id, Outcome(e.url, 200), 0);
  std::vector<LinkInput> cross;
  for (int k = 6; k <= 9; ++k) cross.push_back(Link("http://a.test/" + std::to_string(k), "http://b.test/"));
  (void)f.AddLinks(cross, 0);
  f.EndRequest();
  CHECK(order.Stats("a.test").seen == 9);
  CHECK(order.Stats("a.test").win == Approx(4 / 1.1).epsilon(1e-12));
  CHECK(order.over_budget() == 2 + 4);
}

TEST_CASE("rule in-clds: only distinct other CLDs raise a budget, links to seen URLs included",
          "[unit][policy]") {
  FrontierOptions o = BudgetOptions();
  o.order.budget = InCldBudget(3, 2, false);
  Frontier f(o);
  auto& order = dynamic_cast<TieredOrder&>(f.order());
  REQUIRE(f.Add(FrontierEntry{"http://a.test/", "", 0}, 0));
  REQUIRE(f.Add(FrontierEntry{"http://b.test/", "", 0}, 0));
  AllowAll(f);
  // Its own links: SEEN 2 and 3 fit the base, 4 and 5 do not.
  std::vector<LinkInput> own;
  for (int k = 1; k <= 4; ++k) own.push_back(Link("http://a.test/" + std::to_string(k), "http://a.test/"));
  FetchWithLinks(f, "http://a.test/", own);
  CHECK(order.over_budget() == 2);
  CHECK(order.Stats("a.test").in_clds.empty());
  // b.test links a URL a.test already has: IRLbot's in-degree counts the
  // edge (b -> a) though no URL is new; the budget is now 3 + 2 = 5.
  FetchWithLinks(f, "http://b.test/", {Link("http://a.test/1", "http://b.test/")});
  CHECK(order.Stats("a.test").in_clds.size() == 1);
  CHECK(order.Stats("a.test").seen == 5);
  Schedule s = f.Lease("f", 10, 0);
  for (const auto& e : s.entries) f.Report(s.id, Outcome(e.url, 200), 0);
  // More links from b.test add nothing to the in-degree: SEEN 6 > 5.
  std::vector<LinkInput> from_b{Link("http://a.test/6", "http://b.test/"),
                                Link("http://a.test/7", "http://b.test/")};
  (void)f.AddLinks(from_b, 0);
  f.EndRequest();
  CHECK(order.Stats("a.test").in_clds.size() == 1);
  CHECK(order.over_budget() == 2 + 2);
  // A link from a third CLD raises the budget to 3 + 2 x 2 = 7, still under SEEN 8.
  (void)f.AddLinks({Link("http://a.test/8", "http://c.test/")}, 0);
  f.EndRequest();
  CHECK(order.Stats("a.test").in_clds.size() == 2);
  CHECK(order.Stats("a.test").seen == 8);
  CHECK(order.over_budget() == 2 + 2 + 1);
  CHECK(f.Counters().over_budget == 2 + 2 + 1);  // what QueueServerStats.over_budget_urls reports
}

// ---------------------------------------------------------------------------
// IRLbot's BEAST (--tier-rule beast): budgets as queues read less often.

TEST_CASE("BEAST files a CLD's n-th URL in queue floor(log2(1 + (n - 1) / B)), B = unit x (1 + D)",
          "[unit][policy]") {
  CHECK(ParseTierRule("").value() == TierRule::kYioop);
  CHECK(ParseTierRule("beast").value() == TierRule::kBeast);
  CHECK_FALSE(ParseTierRule("irlbot").ok());
  CldStats st = Cld(10, 10, 0);
  CHECK(BeastTier(st, 10) == 0);  // B = 10: URLs 1..10 in queue 0
  st.seen = 11;
  CHECK(BeastTier(st, 10) == 1);  // 11..30 in queue 1 (2B)
  st.seen = 30;
  CHECK(BeastTier(st, 10) == 1);
  st.seen = 31;
  CHECK(BeastTier(st, 10) == 2);  // 31..70 in queue 2 (4B)
  // One CLD linking in doubles B: URL 11 is back in queue 0.
  REQUIRE(AddInCld(st, CldNameHash("b.test")));
  st.seen = 11;
  CHECK(BeastTier(st, 10) == 0);
  st.seen = 21;
  CHECK(BeastTier(st, 10) == 1);
  st.seen = uint64_t{1} << 62;
  CHECK(BeastTier(st, 10) == 30);  // bounded
}

TEST_CASE("BEAST reads queue j for one schedule in 2^(j+1)", "[unit][policy]") {
  std::vector<int32_t> got;
  for (uint32_t k = 1; k <= 8; ++k) got.push_back(BeastTierForSchedule(k));
  CHECK(got == std::vector<int32_t>{0, 1, 0, 2, 0, 1, 0, 3});
  OrderOptions o;
  o.kind = OrderKind::kHostBudget;
  o.tier_rule = TierRule::kBeast;
  TieredOrder order(o);
  for (int32_t tier : {0, 0, 0, 0, 1, 1, 2}) {
    FrontierEntry e;
    e.url = "q" + std::to_string(tier) + "-" + std::to_string(order.size());
    e.tier = tier;
    order.Push(e, false);
  }
  std::vector<int32_t> tiers;
  for (int k = 0; k < 7; ++k) {
    order.BeginSchedule();
    auto e = order.Pop();
    REQUIRE(e);
    order.Taken(*e);
    tiers.push_back(e->entry.tier);
  }
  // Schedules 1..4 read queues 0, 1, 0, 2; then 0, 1, and queue 0 (empty by
  // then) gives way to the next non-empty queue.
  CHECK(tiers == std::vector<int32_t>{0, 1, 0, 2, 0, 1, 0});
}

TEST_CASE("BEAST through the frontier: a CLD's URLs past its budget are filed in later queues",
          "[unit][policy]") {
  FrontierOptions o = BudgetOptions();
  o.order.tier_rule = TierRule::kBeast;
  o.order.beast_unit = 4;
  Frontier f(o);
  auto& order = dynamic_cast<TieredOrder&>(f.order());
  REQUIRE(f.Add(FrontierEntry{"http://a.test/", "", 0}, 0));
  AllowAll(f);
  std::vector<LinkInput> own;
  for (int k = 1; k <= 11; ++k) own.push_back(Link("http://a.test/" + std::to_string(k), "http://a.test/"));
  FetchWithLinks(f, "http://a.test/", own);
  // SEEN 2..4 in queue 0 (B 4, the root was 1), 5..12 in queue 1.
  CHECK(order.TierSize(0) == 3);
  CHECK(order.TierSize(1) == 8);
}

// ---------------------------------------------------------------------------
// Heritrix's default decide rules (trap_rules.h).

TEST_CASE("trap rules: PathologicalPath (a segment 3 times in a row), 20 segments, 20 hops",
          "[unit][policy]") {
  const TrapRules on;
  CHECK(CheckTrap(on, "http://a.test/deep/a/a/", 3) == TrapVerdict::kKeep);
  CHECK(CheckTrap(on, "http://a.test/deep/a/a/a/", 3) == TrapVerdict::kRepeatedSegment);
  CHECK(CheckTrap(on, "http://a.test/x/y/x/y/x/", 3) == TrapVerdict::kKeep);  // not in a row
  CHECK(CheckTrap(on, "http://a.test/a/a/a.html", 3) == TrapVerdict::kKeep);  // a file is no segment "a/"
  std::string deep = "http://a.test";
  for (int k = 0; k < 20; ++k) deep += "/s" + std::to_string(k);
  CHECK(CheckTrap(on, deep, 3) == TrapVerdict::kKeep);
  CHECK(CheckTrap(on, deep + "/last", 3) == TrapVerdict::kTooManySegments);
  CHECK(CheckTrap(on, "http://a.test/calendar/2026/11/", 20) == TrapVerdict::kKeep);
  CHECK(CheckTrap(on, "http://a.test/calendar/2026/11/", 21) == TrapVerdict::kTooManyHops);
  CHECK(CheckTrap(TrapRules{false, 2, 20, 20}, "http://a.test/a/a/a/a/", 99) == TrapVerdict::kKeep);
}

TEST_CASE("the frontier refuses trap links without marking them seen", "[unit][policy]") {
  FrontierOptions o = BudgetOptions();
  o.trap_rules.max_hops = 2;
  Frontier f(o);
  REQUIRE(f.Add(FrontierEntry{"http://a.test/", "", 0}, 0));
  AllowAll(f);
  LinkInput far = Link("http://a.test/far", "http://a.test/");
  far.entry.depth = 3;
  LinkInput loop = Link("http://a.test/b/b/b/", "http://a.test/");
  loop.entry.depth = 1;
  LinkInput near = Link("http://a.test/far", "http://a.test/");
  near.entry.depth = 1;
  Schedule s = f.Lease("f", 1, 0);
  f.Report(s.id, Outcome("http://a.test/", 200), 0);
  CHECK(f.AddLinks({far, loop}, 0) == 0);
  CHECK(f.Counters().trap_refused == 2);
  // Found again within the hop limit, the URL enters: it was not seen.
  CHECK(f.AddLinks({near}, 0) == 1);
}

TEST_CASE("a link from another CLD opens room a link from the CLD itself does not", "[unit][policy]") {
  // c.test/x is its CLD's second URL (SEEN 2); the budget is 1 + 11 x WIN
  // (rule win) or 1 + 1 x distinct other CLDs (rule in-clds).
  auto refused = [](const std::string& referrer, CldBudget budget) {
    FrontierOptions o = BudgetOptions();
    o.order.budget = budget;
    Frontier f(o);
    auto& order = dynamic_cast<TieredOrder&>(f.order());
    REQUIRE(f.Add(FrontierEntry{referrer, "", 0}, 0));
    if (referrer != "http://c.test/") REQUIRE(f.Add(FrontierEntry{"http://c.test/", "", 0}, 0));
    AllowAll(f);
    FetchWithLinks(f, referrer, {Link("http://c.test/x", referrer)});
    return order.over_budget();
  };
  CHECK(refused("http://a.test/", WinBudget(1, 11, false)) == 0);   // WIN 1/1.1: budget 11
  CHECK(refused("http://c.test/", WinBudget(1, 11, false)) == 1);   // WIN 0: budget 1
  CHECK(refused("http://a.test/", InCldBudget(1, 1, false)) == 0);  // one CLD links in: budget 2
  CHECK(refused("http://c.test/", InCldBudget(1, 1, false)) == 1);  // none: budget 1
}
