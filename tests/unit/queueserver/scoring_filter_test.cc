// The ScoringFilter chain as a plug-in point (after
// Nutch's ScoringFilter): the registry and its settings, the built-in
// filters (opic, depth, link-kind), how each order uses the chain, the
// hooks the frontier calls (PassScore*, UpdateDbScore over the batch), and
// a filter defined in this file that plugs in with no change elsewhere.
#include "queueserver/frontier/scoring_filter.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "queueserver/crawl_shard.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/frontier/opic_order.h"
#include "queueserver/frontier/scoring_filters.h"

using namespace crawl::queueserver;
using Catch::Detail::Approx;

namespace {

// ---- A filter that lives only in this file ------------------------------

// "test-boost": URLs whose path holds "/boost" sort `bonus` higher; the
// lease carries twice the score; the index gets `bonus` as the boost; each
// UpdateDbScore call records how many inlinks it was given.
std::vector<size_t> g_inlinks_per_update;

class TestBoostFilter final : public ScoringFilter {
 public:
  explicit TestBoostFilter(double bonus) : bonus_(bonus) {}
  std::string_view name() const override { return "test-boost"; }
  double GeneratorSortValue(const ScoreDatum& d, double sort) const override {
    return d.url.find("/boost") != std::string_view::npos ? sort + bonus_ : sort;
  }
  double PassScoreBeforeProcessing(const ScoreDatum& /*d*/, double passed) const override {
    return 2 * passed;
  }
  double UpdateDbScore(const ScoreDatum& /*old*/, const std::vector<ScoreInlink>& in,
                       double score) const override {
    g_inlinks_per_update.push_back(in.size());
    return score;
  }
  double IndexerScore(const ScoreDatum& d, double, double, double boost) const override {
    return d.url.find("/boost") != std::string_view::npos ? boost + bonus_ : boost;
  }

 private:
  double bonus_;
};

const ScoringFilterRegistration kTestBoost(
    "test-boost", [](ScoringSettings& s) -> crawl::Result<std::unique_ptr<ScoringFilter>> {
      auto bonus = s.Number("bonus", 10.0, 0.0, 1000.0);
      if (!bonus.ok()) return bonus.status();
      return std::unique_ptr<ScoringFilter>(std::make_unique<TestBoostFilter>(*bonus));
    });

FrontierEntry Entry(const std::string& url, uint32_t depth = 0, double cash = 0,
                    LinkKind kind = LinkKind::kBody) {
  FrontierEntry e;
  e.url = url;
  e.depth = depth;
  e.cash = cash;
  e.link_kind = kind;
  return e;
}

OrderOptions Chain(OrderKind kind, const std::string& filters, std::vector<std::string> params = {}) {
  OrderOptions o;
  o.kind = kind;
  o.cld_rule = crawl::CldRule::kSimple;
  o.scoring_filters = filters;
  o.scoring_params = std::move(params);
  return o;
}

std::vector<std::string> PopAll(FrontierOrder& order) {
  std::vector<std::string> out;
  while (auto e = order.Pop()) {
    out.push_back(e->entry.url);
    order.Taken(*e);
  }
  return out;
}

std::string ErrorOf(const std::string& filters, std::vector<std::string> params) {
  auto chain = ScoringChain::Make(filters, params);
  return chain.ok() ? std::string() : chain.status().message();
}

}  // namespace

// ---------------------------------------------------------------------------
// The plug-in point

TEST_CASE("a filter defined in a test file registers itself and runs in an order's chain", "[unit]") {
  const auto names = ScoringFilterRegistry::Global().names();
  CHECK(std::find(names.begin(), names.end(), "test-boost") != names.end());
  // Its own setting is read; an unknown key is refused with the keys it takes.
  CHECK(ErrorOf("test-boost", {"test-boost.bonus=3"}).empty());
  CHECK(ErrorOf("test-boost", {"test-boost.colour=red"}).find("takes: bonus") != std::string::npos);
  // In the opic order: /boost sorts 10 above its cash, so it is served first.
  auto order = MakeOrder(Chain(OrderKind::kOpic, "opic,test-boost"), nullptr);
  REQUIRE(order.ok());
  (*order)->Push(Entry("http://a.test/rich", 0, 0.9), false);
  (*order)->Push(Entry("http://b.test/boost", 0, 0.1), false);
  CHECK(PopAll(**order) == std::vector<std::string>{"http://b.test/boost", "http://a.test/rich"});
  // Without it, cash decides.
  auto plain = MakeOrder(Chain(OrderKind::kOpic, "opic"), nullptr);
  (*plain)->Push(Entry("http://a.test/rich", 0, 0.9), false);
  (*plain)->Push(Entry("http://b.test/boost", 0, 0.1), false);
  CHECK(PopAll(**plain) == std::vector<std::string>{"http://a.test/rich", "http://b.test/boost"});
}

TEST_CASE("scoring settings: unknown filter, unknown key, bad value and misplaced params are errors",
          "[unit]") {
  CHECK(ErrorOf("opic,pagerank", {}).find("unknown scoring filter 'pagerank'") != std::string::npos);
  CHECK(ErrorOf("opic", {"opic.score_power=0.5", "opic.split=plain", "opic.sitemap=page"}).empty());
  CHECK(ErrorOf("opic", {"opic.nope=1"}).find("unknown scoring param opic.nope") != std::string::npos);
  CHECK(ErrorOf("opic", {"opic.score_power=abc"}).find("want a number") != std::string::npos);
  CHECK(ErrorOf("opic", {"opic.score_power=9"}).find("want a number") != std::string::npos);
  CHECK(ErrorOf("opic", {"opic.split=even"}).find("want one of cld, plain") != std::string::npos);
  CHECK(ErrorOf("opic", {"depth.weight=2"}).find("not in the chain") != std::string::npos);
  CHECK(ErrorOf("opic", {"opic=1"}).find("filter.key=value") != std::string::npos);
  CHECK(ErrorOf("depth,depth", {}).find("named twice") != std::string::npos);
  CHECK(ErrorOf("depth, link-kind", {"link-kind.nav=0.1", "depth.free_depth=2"}).empty());
  // Every order takes a chain and refuses a bad one when it is made.
  for (OrderKind k : {OrderKind::kBfs, OrderKind::kHostBudget, OrderKind::kOpic, OrderKind::kStructure}) {
    CHECK(MakeOrder(Chain(k, "depth,link-kind", {"depth.weight=0.5"}), nullptr).ok());
    CHECK_FALSE(MakeOrder(Chain(k, "depth", {"depth.weight=-1"}), nullptr).ok());
  }
}

// ---------------------------------------------------------------------------
// Built-in filters

TEST_CASE("opic filter: Nutch's score_power on the importance, plain and CLD splits, sitemap weighting",
          "[unit]") {
  const ScoreDatum d{"u", 0, LinkKind::kBody, 0};
  CHECK(ScoringChain::Make("opic", {})->IndexerScore(d, 0.25, 1.0) == Approx(0.25));  // today's default
  CHECK(ScoringChain::Make("opic", {"opic.score_power=0.5"})->IndexerScore(d, 0.25, 1.0) == Approx(0.5));
  auto links = [] {
    std::vector<ScoredLink> l(4);
    for (uint32_t k = 0; k < 4; ++k) {
      l[k].same_cld = k == 0;
      l[k].from_sitemap = true;
      l[k].rank = k;
    }
    return l;
  };
  ScoredPage page{"http://a.test/sitemap.xml", 1.0, 4, 0};
  auto ranked = links();
  (void)ScoringChain::Make("opic", {})->DistributeScoreToOutlinks(page, ranked);
  CHECK(ranked[0].share > 4 * ranked[1].share * 0.99);  // 1/i^2: entry 1 gets four times entry 2
  auto even = links();
  (void)ScoringChain::Make("opic", {"opic.sitemap=page", "opic.split=plain"})
      ->DistributeScoreToOutlinks(page, even);
  for (const ScoredLink& l : even) CHECK(l.share == Approx(0.25));
  auto cld = links();
  (void)ScoringChain::Make("opic", {"opic.sitemap=page"})->DistributeScoreToOutlinks(page, cld);
  CHECK(cld[0].share == Approx(1.0 / 8));              // same CLD: C/(2n)
  CHECK(cld[1].share == Approx((1.0 - 1.0 / 8) / 3));  // others: (C - s C/(2n)) / (n - s)
}

TEST_CASE("depth filter: Heritrix-style, the sort value loses weight per level past free_depth", "[unit]") {
  auto chain = ScoringChain::Make("depth", {"depth.weight=0.5", "depth.free_depth=1"});
  REQUIRE(chain.ok());
  CHECK(chain->GeneratorSortValue(ScoreDatum{"u", 1, LinkKind::kBody, 0.2}) == Approx(0.2));
  CHECK(chain->GeneratorSortValue(ScoreDatum{"u", 5, LinkKind::kBody, 0.2}) == Approx(0.2 - 2.0));
  // In the opic order a shallow URL with little cash goes before a deep rich one.
  auto order = MakeOrder(Chain(OrderKind::kOpic, "opic,depth"), nullptr);
  REQUIRE(order.ok());
  (*order)->Push(Entry("http://a.test/deep", 3, 0.9), false);
  (*order)->Push(Entry("http://b.test/", 1, 0.05), false);
  CHECK(PopAll(**order) == std::vector<std::string>{"http://b.test/", "http://a.test/deep"});
}

TEST_CASE("link-kind filter: shares scaled by kind, the rest is the source page's adjust", "[unit]") {
  CHECK(LinkKindOf("a", true, false) == LinkKind::kNav);
  CHECK(LinkKindOf("a", false, false) == LinkKind::kBody);
  CHECK(LinkKindOf("area", false, true) == LinkKind::kSitemap);
  CHECK(LinkKindOf("sitemap", false, false) == LinkKind::kSitemap);
  CHECK(LinkKindOf("redirect", false, false) == LinkKind::kRedirect);
  CHECK(LinkKindOf("refresh", false, false) == LinkKind::kRedirect);
  CHECK(LinkKindOf("canonical", false, false) == LinkKind::kRedirect);
  CHECK(LinkKindOf("hreflang", false, false) == LinkKind::kBody);
  CHECK(LinkKindOf("img", true, false) == LinkKind::kEmbed);
  auto chain = ScoringChain::Make("opic,link-kind", {"opic.split=plain", "link-kind.nav=0.25"});
  REQUIRE(chain.ok());
  std::vector<ScoredLink> links(2);
  links[0].kind = LinkKind::kBody;
  links[1].kind = LinkKind::kNav;
  const double adjust = chain->DistributeScoreToOutlinks(ScoredPage{"p", 1.0, 2, 0}, links);
  CHECK(links[0].share == Approx(0.5));
  CHECK(links[1].share == Approx(0.125));
  CHECK(adjust == Approx(0.375));
  // Sort: sort_bias * log2(w); a nav link (0.5 by default) sorts one unit lower.
  auto sort = ScoringChain::Make("link-kind", {});
  CHECK(sort->GeneratorSortValue(ScoreDatum{"u", 0, LinkKind::kNav, 0}) == Approx(-1.0));
  CHECK(sort->GeneratorSortValue(ScoreDatum{"u", 0, LinkKind::kEmbed, 0}) == Approx(-2.0));
  CHECK(sort->GeneratorSortValue(ScoreDatum{"u", 0, LinkKind::kSitemap, 0}) == Approx(0.0));
}

// ---------------------------------------------------------------------------
// How the orders that keep no score use the chain

TEST_CASE("bfs with a chain serves the chain's classes in turn, FIFO inside one", "[unit][policy]") {
  auto fifo = MakeOrder(Chain(OrderKind::kBfs, ""), nullptr);
  auto classed = MakeOrder(Chain(OrderKind::kBfs, "link-kind"), nullptr);
  for (auto* order : {fifo->get(), classed->get()}) {
    std::vector<LinkInput> links(4);
    links[0].entry = Entry("http://a.test/nav", 1, 0, LinkKind::kNav);
    links[1].entry = Entry("http://a.test/img", 1, 0, LinkKind::kEmbed);
    links[2].entry = Entry("http://a.test/body", 1, 0, LinkKind::kBody);
    links[3].entry = Entry("http://a.test/body2", 1, 0, LinkKind::kBody);
    order->OnLinks(PageContext{}, links, std::vector<bool>(4, true));
    for (LinkInput& l : links) order->Push(l.entry, false);
  }
  CHECK(PopAll(**fifo) == std::vector<std::string>{"http://a.test/nav", "http://a.test/img",
                                                   "http://a.test/body", "http://a.test/body2"});
  // Classes in turn, lowest first (not round-robin as host_budget's tiers).
  CHECK(PopAll(**classed) == std::vector<std::string>{"http://a.test/body", "http://a.test/body2",
                                                      "http://a.test/nav", "http://a.test/img"});
}

TEST_CASE("host_budget with a chain moves a URL back by floor(-sort value) tiers", "[unit][policy]") {
  auto plain = MakeOrder(Chain(OrderKind::kHostBudget, ""), nullptr);
  auto deep = MakeOrder(Chain(OrderKind::kHostBudget, "depth", {"depth.weight=0.5"}), nullptr);
  int32_t tiers[2];
  int i = 0;
  for (auto* order : {plain->get(), deep->get()}) {
    std::vector<LinkInput> links(1);
    links[0].entry = Entry("http://a.test/x", 5);
    order->OnLinks(PageContext{}, links, {true});
    tiers[i++] = links[0].entry.tier;
  }
  CHECK(tiers[1] == tiers[0] + 2);  // floor(5 * 0.5)
}

// ---------------------------------------------------------------------------
// Hooks the frontier calls

TEST_CASE("PassScoreAfterProcessing: the fetched page's score is what its record carried back", "[unit]") {
  FrontierOptions o;
  o.order = Chain(OrderKind::kOpic, "opic");
  Frontier f(o);
  REQUIRE(f.Add(Entry("http://a.test/"), 0, 1));
  for (Schedule s = f.Lease("r", 10, 0, 0); s.id != 0; s = f.Lease("r", 10, 0, 0)) {
    for (const auto& e : s.entries)
      f.Report(s.id, FetchOutcome{e.url, UrlKind::kRobots, 404, "", 0, {}, 0, "", 0, 0}, 0);
    f.Complete(s.id, 0);
  }
  Schedule s = f.Lease("f", 10, 0);
  REQUIRE(s.entries.size() == 1);
  CHECK(s.entries[0].cash == Approx(1.0));
  FetchOutcome out{"http://a.test/", UrlKind::kPage, 200, "", 0, 0.25, 0, "", 0, 0};
  CHECK(f.Report(s.id, out, 0).score.cash == Approx(0.25));
}

TEST_CASE("PassScoreBeforeProcessing: without an echo the lease's value comes back", "[unit]") {
  auto order = MakeOrder(Chain(OrderKind::kOpic, "opic,test-boost"), nullptr);
  REQUIRE(order.ok());
  FrontierEntry e = Entry("http://a.test/", 0, 0.5);
  CHECK((*order)->chain().PassScoreBeforeProcessing(ScoreDatum{e.url, 0, LinkKind::kBody, 0.5}) == 1.0);
  CHECK((*order)->Fetched(e, std::nullopt).cash == Approx(1.0));  // doubled by test-boost
  FrontierEntry g = Entry("http://b.test/boost", 0, 0.5);
  CHECK((*order)->Fetched(g, 0.3).cash == Approx(0.3));
  // IndexerScore: opic's importance plus test-boost's 10 for /boost.
  CHECK((*order)->Fetched(g, 0.3).importance > 10.0);
}

TEST_CASE("UpdateDbScore runs once per queued URL with every inlink of the batch", "[unit]") {
  auto made = MakeOrder(Chain(OrderKind::kOpic, "opic,test-boost"), nullptr);
  REQUIRE(made.ok());
  auto& order = dynamic_cast<OpicOrder&>(**made);
  order.Push(Entry("http://t.test/", 1, 0.0), false);
  g_inlinks_per_update.clear();
  for (const char* from : {"http://a.test/", "http://b.test/"}) {
    PageContext page;
    page.url = from;
    page.scheduled_elsewhere = true;  // its cash comes with the links
    page.cash = 0.5;
    std::vector<LinkInput> links(1);
    links[0].entry = Entry("http://t.test/", 1);
    links[0].entry.referrer = from;
    links[0].links_on_page = 1;
    order.OnLinks(page, links, {false});
  }
  CHECK(g_inlinks_per_update.empty());  // not before the batch ends
  order.EndRequest();
  CHECK(g_inlinks_per_update == std::vector<size_t>{2});
  CHECK(*order.CashOf("http://t.test/") == Approx(1.0));  // opic: both shares of 0.5
}

TEST_CASE("a link from the wire is filed with its kind: source, in_nav, from_sitemap", "[unit]") {
  crawl::v1::DiscoveredLink l;
  l.set_source("a");
  CHECK(LinkFromWire(l, "http://a.test/", l.referrer()).entry.link_kind == LinkKind::kBody);
  l.set_in_nav(true);
  CHECK(LinkFromWire(l, "http://a.test/", l.referrer()).entry.link_kind == LinkKind::kNav);
  l.set_source("iframe");
  CHECK(LinkFromWire(l, "http://a.test/", l.referrer()).entry.link_kind == LinkKind::kEmbed);
  l.set_source("redirect");
  CHECK(LinkFromWire(l, "http://a.test/", l.referrer()).entry.link_kind == LinkKind::kRedirect);
  l.set_source("");
  l.set_from_sitemap(true);
  CHECK(LinkFromWire(l, "http://a.test/", l.referrer()).entry.link_kind == LinkKind::kSitemap);
}

TEST_CASE("structure with a chain ranks a site's targets by the chain's sort value too", "[unit][policy]") {
  for (const bool chained : {false, true}) {
    auto order = MakeOrder(Chain(OrderKind::kStructure, chained ? "depth" : ""), nullptr);
    REQUIRE(order.ok());
    (*order)->Push(Entry("http://s.test/deep", 5), false);
    (*order)->Push(Entry("http://s.test/shallow", 1), false);
    const auto popped = PopAll(**order);
    INFO("chained " << chained);
    REQUIRE(popped.size() == 2);
    // Without it the two equal leaves keep discovery order.
    CHECK(popped.front() == (chained ? "http://s.test/shallow" : "http://s.test/deep"));
  }
}
