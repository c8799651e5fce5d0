// The imbWEM site frontier (docs/DESIGN.md §5.4): rules, modules and iterations
// (queueserver/frontier/site_frontier.h) and the structure module's link-path trees,
// layers, GB writes and structure rank (queueserver/frontier/structure_module.h).
// Small hand-drawn sites are walked through several iterations; every
// expected number is worked out in the comment beside it.
#include "queueserver/frontier/site_frontier.h"

#include <catch2/catch.hpp>

#include "queueserver/frontier/structure_module.h"

using namespace crawl::queueserver;
using Catch::Detail::Approx;
using Strings = std::vector<std::string>;

namespace {

// A rule whose answer comes from a function, counting its evaluations.
class FnRule final : public Rule {
 public:
  FnRule(std::string sig, Kind kind, std::function<RuleResult(const Target&)> fn, int* calls)
      : sig_(std::move(sig)), kind_(kind), fn_(std::move(fn)), calls_(calls) {}
  std::string signature() const override { return sig_; }
  Kind kind() const override { return kind_; }
  RuleResult Evaluate(const Target& t, const SiteContext&) override {
    ++*calls_;
    return fn_(t);
  }

 private:
  std::string sig_;
  Kind kind_;
  std::function<RuleResult(const Target&)> fn_;
  int* calls_;
};

class FnControl final : public ControlRule {
 public:
  explicit FnControl(std::function<ControlAction(const Target&)> fn) : fn_(std::move(fn)) {}
  std::string signature() const override { return "test.control"; }
  ControlAction Check(const Target& t, const SiteContext&) override { return fn_(t); }

 private:
  std::function<ControlAction(const Target&)> fn_;
};

RuleResult Layer(int l) {
  RuleResult r;
  r.layer = l;
  return r;
}
RuleResult Score(double s) {
  RuleResult r;
  r.score = s;
  return r;
}

Strings Urls(const std::vector<Target>& ts) {
  Strings out;
  for (const Target& t : ts) out.push_back(t.url());
  return out;
}

bool Has(const std::string& url, std::string_view part) { return url.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("targets group links by address with anchor and URL tokens", "[unit]") {
  Target t("http://s.test/Docs/Library/os.html?v=3", 1);
  CHECK(t.url_tokens() == Strings{"s", "test", "docs", "library", "os", "html", "v", "3"});
  t.AddLink("http://s.test/", "The OS module");
  t.AddLink("http://s.test/index.html", "os Module docs");
  t.AddLink("http://s.test/", "The OS module");  // the same link again
  REQUIRE(t.links().size() == 2);
  CHECK(t.links()[1].referrer == "http://s.test/index.html");
  CHECK(t.anchor_tokens() == Strings{"the", "os", "module", "docs"});
}

TEST_CASE("passive rules run once per target, active rules every iteration", "[unit]") {
  SiteContext ctx("http://s.test");
  ctx.AddTarget("http://s.test/a", 1);
  ctx.AddTarget("http://s.test/b", 2);
  ctx.AddTarget("http://s.test/c", 3);
  int passive_calls = 0, active_calls = 0;
  int round = 0;
  SiteFrontier sf(/*load_take=*/1);
  auto rank = std::make_unique<RankingModule>("test");
  // Passive: b gets 10 once and for all. Active: c gets 4 * round.
  rank->AddRule(std::make_unique<FnRule>(
      "p", Rule::Kind::kPassive, [](const Target& t) { return Score(Has(t.url(), "/b") ? 10 : 0); },
      &passive_calls));
  rank->AddRule(std::make_unique<FnRule>(
      "a", Rule::Kind::kActive, [&](const Target& t) { return Score(Has(t.url(), "/c") ? 4.0 * round : 0); },
      &active_calls));
  sf.AddRankingModule(std::move(rank));

  round = 1;  // scores a 0, b 10, c 4
  IterationOutcome o1 = sf.Iterate(ctx);
  CHECK(Urls(o1.load) == Strings{"http://s.test/b"});
  CHECK(o1.load[0].score() == Approx(10));
  CHECK(o1.load[0].registry().at("p").score == Approx(10));
  CHECK(passive_calls == 3);
  CHECK(active_calls == 3);
  REQUIRE(ctx.active_size() == 2);

  round = 3;  // a 0, c 12: the active result is evaluated again
  IterationOutcome o2 = sf.Iterate(ctx);
  CHECK(Urls(o2.load) == Strings{"http://s.test/c"});
  CHECK(o2.load[0].score() == Approx(12));
  CHECK(passive_calls == 3);  // cached in the registry
  CHECK(active_calls == 5);
  CHECK(ctx.metrics().iterations == 2);
  CHECK(ctx.metrics().loaded == 2);
}

TEST_CASE("equal scores keep discovery order and load_take bounds the load", "[unit]") {
  SiteContext ctx("http://s.test");
  for (uint64_t i = 5; i >= 1; --i) ctx.AddTarget("http://s.test/p" + std::to_string(i), i);
  SiteFrontier sf(2);
  CHECK(Urls(sf.Iterate(ctx).load) == Strings{"http://s.test/p1", "http://s.test/p2"});
  CHECK(Urls(sf.Iterate(ctx).load) == Strings{"http://s.test/p3", "http://s.test/p4"});
  CHECK(Urls(sf.Iterate(ctx).load) == Strings{"http://s.test/p5"});
  CHECK(sf.Iterate(ctx).load.empty());
}

TEST_CASE("layer module: passive then active rules, first non-empty layer", "[unit]") {
  int pc = 0, ac = 0;
  SECTION("unassigned targets go to the deepest layer") {
    SiteContext ctx("http://s.test");
    for (const char* p : {"a", "b", "c", "d"}) ctx.AddTarget(std::string("http://s.test/") + p, p[0]);
    auto lm = std::make_unique<LayerModule>("test", Strings{"L0", "L1", "L2"}, false);
    // Active rule (added first) would put every target in L0; the passive
    // rule runs first and puts b in L1, so b never reaches the active rule.
    lm->AddRule(std::make_unique<FnRule>(
        "act", Rule::Kind::kActive,
        [](const Target& t) { return Has(t.url(), "/c") || Has(t.url(), "/b") ? Layer(0) : RuleResult{}; },
        &ac));
    lm->AddRule(std::make_unique<FnRule>(
        "pas", Rule::Kind::kPassive,
        [](const Target& t) { return Has(t.url(), "/b") ? Layer(1) : RuleResult{}; }, &pc));
    LayerModule* view = lm.get();
    SiteFrontier sf(10);
    sf.AddLayerModule(std::move(lm));
    IterationOutcome o = sf.Iterate(ctx);
    CHECK(view->last_layers() == std::vector<Strings>{{"http://s.test/c"},
                                                      {"http://s.test/b"},
                                                      {"http://s.test/a", "http://s.test/d"}});
    CHECK(Urls(o.load) == Strings{"http://s.test/c"});  // only the first non-empty layer
    CHECK(pc == 4);
    CHECK(ac == 3);  // b was assigned by the passive rule
    // Next iteration: L0 is empty, L1 (b) is the output; passive results cached.
    o = sf.Iterate(ctx);
    CHECK(Urls(o.load) == Strings{"http://s.test/b"});
    CHECK(pc == 4);
    o = sf.Iterate(ctx);
    CHECK(Urls(o.load) == Strings{"http://s.test/a", "http://s.test/d"});
  }
  SECTION("dismissing unassigned targets; all layers empty passes the input through") {
    SiteContext ctx("http://s.test");
    for (const char* p : {"a", "b"}) ctx.AddTarget(std::string("http://s.test/") + p, p[0]);
    auto lm = std::make_unique<LayerModule>("test", Strings{"L0", "L1"}, true);
    lm->AddRule(std::make_unique<FnRule>(
        "act", Rule::Kind::kActive,
        [](const Target& t) { return Has(t.url(), "/b") ? Layer(1) : RuleResult{}; }, &ac));
    LayerModule* view = lm.get();
    SiteFrontier sf(10);
    sf.AddLayerModule(std::move(lm));
    IterationOutcome o = sf.Iterate(ctx);
    CHECK(Urls(o.load) == Strings{"http://s.test/b"});
    CHECK(view->last_unassigned() == Strings{"http://s.test/a"});
    CHECK(ctx.active_size() == 1);  // a was dismissed from the layers, not from the site
    o = sf.Iterate(ctx);
    CHECK(view->last_layers() == std::vector<Strings>{{}, {}});
    CHECK(Urls(o.load) == Strings{"http://s.test/a"});
  }
}

TEST_CASE("control rules exclude, dismiss and end the objective", "[unit]") {
  SiteContext ctx("http://s.test");
  for (const char* p : {"a", "b", "c", "d", "e"}) ctx.AddTarget(std::string("http://s.test/") + p, p[0]);
  SiteFrontier sf(2);
  auto cm = std::make_unique<ControlModule>("test");
  cm->AddRule(std::make_unique<FnControl>([](const Target& t) {
    if (Has(t.url(), "/a")) return ControlAction::kExclude;
    if (Has(t.url(), "/b")) return ControlAction::kDismiss;
    if (Has(t.url(), "/e")) return ControlAction::kEndObjective;
    return ControlAction::kPass;
  }));
  sf.AddControlModule(std::move(cm));
  // a excluded (stays), b dismissed (leaves), c and d pass: load_take reached.
  IterationOutcome o = sf.Iterate(ctx);
  CHECK(Urls(o.load) == Strings{"http://s.test/c", "http://s.test/d"});
  CHECK(Urls(o.dismissed) == Strings{"http://s.test/b"});
  CHECK_FALSE(o.objective_ended);
  CHECK(ctx.active_size() == 2);  // a, e
  CHECK(ctx.metrics().excluded == 1);
  // a excluded again, e ends the objective: a leaves with it.
  o = sf.Iterate(ctx);
  CHECK(o.load.empty());
  CHECK(o.objective_ended);
  CHECK(Urls(o.dismissed) == Strings{"http://s.test/a", "http://s.test/e"});
  CHECK(ctx.objective_ended());
  CHECK(ctx.active_size() == 0);
  CHECK(ctx.metrics().dismissed == 3);
  ctx.AddTarget("http://s.test/f", 'f');
  CHECK(sf.Iterate(ctx).load.empty());  // an ended site loads nothing more
}

TEST_CASE("link-path nodes: folders are nodes, a target is a leaf of one", "[unit]") {
  CHECK(LeafNodeOf("http://h.test") == "/");
  CHECK(LeafNodeOf("http://h.test/") == "/");
  CHECK(LeafNodeOf("http://h.test/index.html") == "/");
  CHECK(LeafNodeOf("http://h.test/a/b/c.html") == "/a/b/");
  CHECK(LeafNodeOf("http://h.test/a/b/") == "/a/b/");
  CHECK(LeafNodeOf("http://h.test/a/b") == "/a/");  // "b" is the file name
  CHECK(LeafNodeOf("http://h.test/a/b?x=1.2#f") == "/a/");
  CHECK(LeafNodeOf("http://h.test/a/b/?x=1") == "/a/b/");
  CHECK(LeafNodeOf("http://h.test/a.d/c") == "/a.d/");
  CHECK(LeafNodeOf("http://h.test:8080//a//x.htm") == "/a/");
  CHECK(NodePath("/a/b/") == Strings{"/", "/a/", "/a/b/"});
  CHECK(ParentNode("/a/b/") == "/a/");
  CHECK(ParentNode("/a/") == "/");
  CHECK(ParentNode("/") == "");
  CHECK(NodeDepth("/") == 0);
  CHECK(NodeDepth("/a/b/") == 2);
}

namespace {

// The default structure evaluator: the structure module, structure rank.
struct StructureSite {
  SiteContext ctx{"http://s.test"};
  SiteFrontier sf{2};
  StructureModule* module = nullptr;
  uint64_t seq = 0;
  StructureSite() {
    auto m = std::make_unique<StructureModule>();
    module = m.get();
    sf.AddLayerModule(std::move(m));
    auto rank = std::make_unique<RankingModule>("rank");
    rank->AddRule(std::make_unique<StructureRankRule>(module));
    sf.AddRankingModule(std::move(rank));
  }
  void Discover(std::initializer_list<const char*> paths) {
    for (const char* p : paths) ctx.AddTarget(std::string("http://s.test") + p, ++seq);
  }
  Strings Iterate(std::vector<double>* scores = nullptr) {
    IterationOutcome o = sf.Iterate(ctx);
    for (const Target& t : o.load) {
      if (scores) scores->push_back(t.score());
      sf.OnCrawled(ctx, t.url());
    }
    return Urls(o.load);
  }
  std::vector<Strings> Layers() const { return module->last_layers(); }
};

std::string U(const char* path) { return std::string("http://s.test") + path; }

}  // namespace

TEST_CASE("structure module walks a small site through four iterations", "[unit]") {
  StructureSite s;
  s.Discover({"/index.html"});

  // Iteration 1. GT {"/":1}; GC empty, so GD = GT; top "/" holds the leaf.
  std::vector<double> scores;
  CHECK(s.Iterate(&scores) == Strings{U("/index.html")});
  CHECK(s.module->top_node() == "/");
  CHECK(s.Layers() == std::vector<Strings>{{U("/index.html")}, {}, {}});
  CHECK(scores == std::vector<double>{1.0});
  CHECK(s.module->gb().empty());
  // Crawled: GC {"/": 2} (a node starts at 2).
  CHECK(s.module->gc() == std::map<std::string, double>{{"/", 2}});
  CHECK(s.module->TakeChanges() == std::vector<GraphChange>{{'C', "/", 2}});

  s.Discover({"/docs/api/x.html", "/docs/api/y.html", "/docs/guide/g1.html", "/blog/p1.html"});
  // Iteration 2. GT: / 4, /docs/ 3, /docs/api/ 2, /docs/guide/ 1, /blog/ 1.
  // GD: / 4/2 = 2, the others as GT (not in GC, GB empty). Top /docs/ (3)
  // has no leaves: Primary empty, its children's leaves (x, y, g1) are
  // Secondary, p1 Reserve. GB: api += 3/2, guide += 3/2, /docs/ -= 3.
  scores.clear();
  CHECK(s.Iterate(&scores) == Strings{U("/docs/api/x.html"), U("/docs/api/y.html")});
  CHECK(s.module->top_node() == "/docs/");
  CHECK(s.module->gd().at("/") == Approx(2.0));
  CHECK(s.Layers() ==
        std::vector<Strings>{{},
                             {U("/docs/api/x.html"), U("/docs/api/y.html"), U("/docs/guide/g1.html")},
                             {U("/blog/p1.html")}});
  // Structure rank: x and y score GD(/docs/api/) = 2 (g1 would have 1).
  CHECK(scores == std::vector<double>{2.0, 2.0});
  CHECK(s.module->gb() ==
        std::map<std::string, double>{{"/docs/", -3}, {"/docs/api/", 1.5}, {"/docs/guide/", 1.5}});
  // GC after x, y: / 2+1+1 = 4, /docs/ 2+1 = 3, /docs/api/ 3.
  CHECK(s.module->gc() == std::map<std::string, double>{{"/", 4}, {"/docs/", 3}, {"/docs/api/", 3}});
  CHECK(s.module->TakeChanges() == std::vector<GraphChange>{{'B', "/docs/api/", 1.5},
                                                            {'B', "/docs/guide/", 1.5},
                                                            {'B', "/docs/", -3},
                                                            {'C', "/", 3},
                                                            {'C', "/docs/", 2},
                                                            {'C', "/docs/api/", 2},
                                                            {'C', "/", 4},
                                                            {'C', "/docs/", 3},
                                                            {'C', "/docs/api/", 3}});

  // Iteration 3. GT: / 2, /docs/ 1, /docs/guide/ 1, /blog/ 1.
  // GD: / 2/4 = 0.5; /docs/ 1/3 - 3 = -2.667; /docs/guide/ 1 + 1.5 = 2.5;
  // /blog/ 1. Top /docs/guide/ with leaf g1; p1 is Reserve. No GB write.
  scores.clear();
  CHECK(s.Iterate(&scores) == Strings{U("/docs/guide/g1.html")});
  CHECK(s.module->top_node() == "/docs/guide/");
  CHECK(s.module->gd().at("/docs/") == Approx(1.0 / 3 - 3));
  CHECK(s.Layers() == std::vector<Strings>{{U("/docs/guide/g1.html")}, {}, {U("/blog/p1.html")}});
  CHECK(scores == std::vector<double>{2.5});
  CHECK(s.module->gb().size() == 3);

  // Iteration 4. GT: / 1, /blog/ 1; GC / 5. GD / 0.2, /blog/ 1: top /blog/.
  CHECK(s.Iterate() == Strings{U("/blog/p1.html")});
  CHECK(s.module->top_node() == "/blog/");
  CHECK(s.module->gd().at("/") == Approx(0.2));
  CHECK(s.Iterate().empty());
  CHECK(s.ctx.metrics().crawled == 5);
}

TEST_CASE("structure module: the root without leaves spreads its score to its children", "[unit]") {
  StructureSite s;
  s.Discover({"/a/1.html", "/a/2.html", "/b/1.html", "/b/c/1.html"});
  // GT: / 4, /a/ 2, /b/ 2, /b/c/ 1; GD = GT. Top / (4) has no leaves and two
  // children: GB /a/ +2, /b/ +2, / -4. Secondary: leaves of /a/ and /b/
  // (a1, a2, b1); Reserve: /b/c/1. Rank: all GD 2, discovery order.
  CHECK(s.Iterate() == Strings{U("/a/1.html"), U("/a/2.html")});
  CHECK(s.module->top_node() == "/");
  CHECK(s.Layers() ==
        std::vector<Strings>{{}, {U("/a/1.html"), U("/a/2.html"), U("/b/1.html")}, {U("/b/c/1.html")}});
  CHECK(s.module->gb() == std::map<std::string, double>{{"/", -4}, {"/a/", 2}, {"/b/", 2}});
  // GC: / 3, /a/ 3. Iteration 2: GT / 2, /b/ 2, /b/c/ 1.
  // GD: / 2/3 - 4 = -3.33; /b/ 2 + 2 = 4; /b/c/ 1. Top /b/: b1 Primary,
  // /b/c/1 Secondary. Output b1 alone.
  CHECK(s.Iterate() == Strings{U("/b/1.html")});
  CHECK(s.module->top_node() == "/b/");
  CHECK(s.module->gd().at("/b/") == Approx(4.0));
  CHECK(s.Layers() == std::vector<Strings>{{U("/b/1.html")}, {U("/b/c/1.html")}, {}});
  // GC: / 4, /b/ 2. Iteration 3: GT / 1, /b/ 1, /b/c/ 1. GD / 1/4 - 4,
  // /b/ 1/2 + 2 = 2.5, /b/c/ 1: top /b/ has no leaves now: GB /b/c/ += 2.5,
  // /b/ -= 2.5 (to -0.5). /b/c/1 is Secondary and the output.
  CHECK(s.Iterate() == Strings{U("/b/c/1.html")});
  CHECK(s.module->top_node() == "/b/");
  CHECK(s.module->gb().at("/b/") == Approx(-0.5));
  CHECK(s.module->gb().at("/b/c/") == Approx(2.5));
}

TEST_CASE("structure module: restored GC and GB give the same distribution", "[unit]") {
  StructureSite a;
  a.Discover({"/a/1.html", "/a/2.html", "/b/1.html", "/b/c/1.html"});
  (void)a.Iterate();
  StructureSite b;
  for (const auto& [node, v] : a.module->gc()) b.module->RestoreNode('C', node, v);
  for (const auto& [node, v] : a.module->gb()) b.module->RestoreNode('B', node, v);
  b.Discover({"/b/1.html", "/b/c/1.html"});
  CHECK(b.Iterate() == a.Iterate());
  CHECK(b.module->gd() == a.module->gd());
  CHECK_FALSE(b.module->TakeChanges().empty());  // GC of the crawled page
}
