// The structure crawl order (queueserver/frontier/structure_order.h, docs/DESIGN.md §5.4)
// behind the Frontier: one site iteration per schedule, no new iteration
// while a host's pages are out, host round-robin, link vectors, and GC/GB
// in the queue store across a restart.
#include "queueserver/frontier/structure_order.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

using namespace crawl::queueserver;
using Strings = std::vector<std::string>;
using Graph = std::map<std::string, double>;

using crawl::test_support::TempDir;

namespace {

FrontierOptions StructureOptions(size_t load_take) {
  FrontierOptions o;
  o.order.kind = OrderKind::kStructure;
  o.order.structure_load_take = load_take;
  return o;
}

FrontierEntry Page(const std::string& url) {
  FrontierEntry e;
  e.url = url;
  return e;
}

FetchOutcome Outcome(const std::string& url, int status, const std::string& body = "") {
  FetchOutcome o;
  o.url = url;
  o.kind = url.ends_with("/robots.txt") ? UrlKind::kRobots : UrlKind::kPage;
  o.status = status;
  o.robots_body = body;
  return o;
}

Strings Urls(const Schedule& s) {
  Strings out;
  for (const auto& e : s.entries) out.push_back(e.url);
  return out;
}

std::string S(const char* path) { return std::string("http://s.test") + path; }

// Reports every URL of `s` fetched, the links of `links_of` with them.
void Fetch(Frontier& f, const Schedule& s, const std::map<std::string, Strings>& links_of = {}) {
  for (const auto& e : s.entries) {
    f.Report(s.id, Outcome(e.url, 200), 0);
    auto it = links_of.find(e.url);
    if (it == links_of.end()) continue;
    std::vector<LinkInput> links;
    uint32_t rank = 0;
    for (const std::string& u : it->second) {
      LinkInput& l = links.emplace_back();
      l.entry.url = u;
      l.entry.referrer = e.url;
      l.entry.depth = e.depth + 1;
      l.link_rank = rank++;
      l.anchor_text = "about " + u.substr(u.rfind('/') + 1);
    }
    f.AddLinks(std::move(links), 0);
  }
  f.Complete(s.id, 0);
  f.EndRequest();
}

const StructureOrder& OrderOf(const Frontier& f) { return dynamic_cast<const StructureOrder&>(f.order()); }

}  // namespace

TEST_CASE("structure order: a site is crawled one iteration per schedule", "[unit]") {
  Frontier f(StructureOptions(2));
  REQUIRE(f.order().name() == "structure");
  f.Add(Page(S("/")), 0);
  Fetch(f, f.Lease("f", 100, 0));  // robots.txt (404: all allowed)

  // Iteration 1: the seed alone.
  Schedule s1 = f.Lease("f", 100, 0);
  CHECK(Urls(s1) == Strings{S("/")});
  Fetch(f, s1,
        {{S("/"),
          {S("/docs/api/x.html"), S("/docs/api/y.html"), S("/docs/guide/g1.html"), S("/blog/p1.html")}}});

  // Iteration 2 (worked out in site_frontier_test.cc): top /docs/ without
  // leaves, Secondary x, y, g1 ranked 2, 2, 1; load_take 2.
  Schedule s2 = f.Lease("f", 100, 0);
  CHECK(Urls(s2) == Strings{S("/docs/api/x.html"), S("/docs/api/y.html")});
  const StructureModule* m = OrderOf(f).ModuleOf("http://s.test");
  REQUIRE(m != nullptr);
  CHECK(m->gb() == Graph{{"/docs/", -3}, {"/docs/api/", 1.5}, {"/docs/guide/", 1.5}});
  const SiteContext* ctx = OrderOf(f).ContextOf("http://s.test");
  REQUIRE(ctx != nullptr);
  CHECK(ctx->metrics().iterations == 2);
  // The targets' link vectors carry the anchor text of the links to them.
  const Target* g1 = ctx->Find(S("/docs/guide/g1.html"));
  REQUIRE(g1 != nullptr);
  CHECK(g1->links() == std::vector<TargetLink>{{S("/"), "about g1.html"}});
  CHECK(g1->anchor_tokens() == Strings{"about", "g1", "html"});

  // While x and y are out, the site runs no new iteration and hands out nothing.
  CHECK(f.Lease("f2", 100, 0).id == 0);
  CHECK(ctx->metrics().iterations == 2);
  CHECK(f.order().size() == 2);  // g1, p1

  Fetch(f, s2);
  // Iteration 3: GD /docs/guide/ = 1 + 1.5 beats /blog/ = 1.
  CHECK(Urls(f.Lease("f", 100, 0)) == Strings{S("/docs/guide/g1.html")});
  CHECK(ctx->metrics().iterations == 3);
  CHECK(m->gc() == Graph{{"/", 4}, {"/docs/", 3}, {"/docs/api/", 3}});
}

TEST_CASE("structure order: unreported pages come back as active targets", "[unit]") {
  Frontier f(StructureOptions(2));
  f.Add(Page(S("/a/1.html")), 0);
  f.Add(Page(S("/a/2.html")), 0);
  f.Add(Page(S("/b/1.html")), 0);
  Fetch(f, f.Lease("f", 100, 0));  // robots.txt
  Schedule s = f.Lease("f", 100, 0);
  // Top / (3) without leaves: Secondary a1, a2, b1; GD /a/ 2 > /b/ 1.
  CHECK(Urls(s) == Strings{S("/a/1.html"), S("/a/2.html")});
  f.Report(s.id, Outcome(S("/a/1.html"), 200), 0);
  f.Complete(s.id, 0);  // a2 was not reported
  const SiteContext* ctx = OrderOf(f).ContextOf("http://s.test");
  CHECK(ctx->metrics().returned == 1);
  CHECK(ctx->active_size() == 2);
  // GC / 2, /a/ 2; GB / -3, /a/ 1.5, /b/ 1.5. GT / 2, /a/ 1, /b/ 1:
  // GD / 2/2 - 3 = -2, /a/ 1/2 + 1.5 = 2, /b/ 1 + 1.5 = 2.5: top /b/.
  CHECK(Urls(f.Lease("f", 100, 0)) == Strings{S("/b/1.html")});
}

TEST_CASE("structure order: hosts take turns, one iteration each", "[unit]") {
  Frontier f(StructureOptions(1));
  for (const char* u :
       {"http://a.test/1.html", "http://a.test/2.html", "http://b.test/1.html", "http://b.test/2.html"})
    f.Add(Page(u), 0);
  Fetch(f, f.Lease("f", 100, 0));  // both robots.txt
  // Each host loads one page per iteration (load_take 1); both hosts get a slot.
  Schedule s = f.Lease("f", 100, 0);
  CHECK(Urls(s) == Strings{"http://a.test/1.html", "http://b.test/1.html"});
  Fetch(f, s);
  CHECK(Urls(f.Lease("f", 100, 0)) == Strings{"http://a.test/2.html", "http://b.test/2.html"});
}

TEST_CASE("structure order: unknown order names are refused, structure parses", "[unit]") {
  CHECK(ParseOrder("structure").ok());
  CHECK(*ParseOrder("structure") == OrderKind::kStructure);
  CHECK_FALSE(ParseOrder("structural").ok());
  OrderOptions o;
  o.kind = OrderKind::kStructure;
  o.scoring_filters = "depth";
  CHECK(MakeOrder(o, nullptr).ok());  // it ranks a site's targets
  o.scoring_filters = "no-such-filter";
  CHECK_FALSE(MakeOrder(o, nullptr).ok());
}

namespace {

crawl::v1::CrawlInfo StructureCrawl() {
  crawl::v1::CrawlInfo c;
  c.set_crawl_id(7);
  c.set_state(crawl::v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_order("structure");
  c.mutable_params()->set_structure_load_take(2);
  c.mutable_params()->set_schedule_size(10);
  c.mutable_params()->set_lease_seconds(60);
  return c;
}

crawl::v1::GetScheduleResponse ShardLease(CrawlShard& shard) {
  crawl::v1::GetScheduleRequest req;
  req.set_crawl_id(7);
  req.set_fetcher_id("f");
  crawl::v1::GetScheduleResponse resp;
  REQUIRE(shard.GetSchedule(req, &resp).ok());
  return resp;
}

Strings ShardUrls(const crawl::v1::GetScheduleResponse& s) {
  Strings out;
  for (const auto& u : s.urls()) out.push_back(u.url());
  return out;
}

// Submits `urls` fetched (200) in schedule `id`, with `links` found on the first.
void Submit(CrawlShard& shard, uint64_t id, uint64_t seq, bool final, const Strings& urls,
            const Strings& links = {}) {
  crawl::v1::SubmitResultsRequest req;
  req.set_crawl_id(7);
  req.set_fetcher_id("f");
  req.set_schedule_id(id);
  req.set_sequence(seq);
  req.set_final(final);
  for (const std::string& u : urls) {
    auto* r = req.add_records();
    r->set_url(u);
    r->set_status(u.ends_with("/robots.txt") ? 404 : 200);
    r->set_kind(u.ends_with("/robots.txt") ? crawl::v1::URL_KIND_ROBOTS : crawl::v1::URL_KIND_PAGE);
  }
  for (const std::string& u : links) {
    auto* l = req.add_links();
    l->set_url(u);
    l->set_referrer(urls.front());
    l->set_depth(1);
    l->set_anchor_text("link");
  }
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(req, &resp).ok());
}

// Seeds s.test, crawls / and x, leaves y leased. Returns y's schedule.
uint64_t DriveSite(CrawlShard& shard) {
  crawl::v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = StructureCrawl();
  seeds.add_urls(S("/"));
  crawl::v1::InjectSeedsResponse injected;
  REQUIRE(shard.InjectSeeds(seeds, &injected).ok());
  auto robots = ShardLease(shard);
  Submit(shard, robots.schedule_id(), 0, true, ShardUrls(robots));
  auto home = ShardLease(shard);
  REQUIRE(ShardUrls(home) == Strings{S("/")});
  Submit(shard, home.schedule_id(), 0, true, {S("/")},
         {S("/docs/api/x.html"), S("/docs/api/y.html"), S("/docs/guide/g1.html"), S("/blog/p1.html")});
  auto docs = ShardLease(shard);
  REQUIRE(ShardUrls(docs) == Strings{S("/docs/api/x.html"), S("/docs/api/y.html")});
  Submit(shard, docs.schedule_id(), 0, false, {S("/docs/api/x.html")});
  return docs.schedule_id();
}

const StructureModule& ModuleOf(const CrawlShard& shard) {
  const auto* m = dynamic_cast<const StructureOrder&>(shard.frontier().order()).ModuleOf("http://s.test");
  REQUIRE(m != nullptr);
  return *m;
}

}  // namespace

TEST_CASE("structure order: GC and GB survive a restart of the queue store", "[unit]") {
  TempDir dir;
  crawl::ManualClock clock;
  auto twin = std::make_unique<CrawlShard>(StructureCrawl(), &clock, nullptr);
  REQUIRE(twin->Create().ok());
  const uint64_t open_twin = DriveSite(*twin);
  uint64_t open = 0;
  {
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    CrawlShard shard(StructureCrawl(), &clock, (*store)->NewWriter(7));
    REQUIRE(shard.Create().ok());
    open = DriveSite(shard);
  }  // closed as after kill -9: everything is in RocksDB's log
  REQUIRE(open == open_twin);
  auto store = QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto loaded = CrawlShard::Load(store->get(), 7, &clock);
  REQUIRE(loaded.ok());
  CrawlShard& shard = **loaded;

  // GC: / 2 (/, x) + ... = 3, /docs/ 2, /docs/api/ 2; GB from iteration 2.
  CHECK(ModuleOf(shard).gc() == Graph{{"/", 3}, {"/docs/", 2}, {"/docs/api/", 2}});
  CHECK(ModuleOf(shard).gb() == Graph{{"/docs/", -3}, {"/docs/api/", 1.5}, {"/docs/guide/", 1.5}});
  CHECK(ModuleOf(shard).gc() == ModuleOf(*twin).gc());
  CHECK(ModuleOf(shard).gb() == ModuleOf(*twin).gb());
  CHECK(shard.frontier().order().size() == 2);  // g1, p1 from the page queue

  // y finishes after the restart; the next iteration is the twin's.
  Submit(shard, open, 1, true, {S("/docs/api/y.html")});
  Submit(*twin, open, 1, true, {S("/docs/api/y.html")});
  const Strings next = ShardUrls(ShardLease(shard));
  CHECK(next == ShardUrls(ShardLease(*twin)));
  CHECK(next == Strings{S("/docs/guide/g1.html")});
  CHECK(ModuleOf(shard).gc() == ModuleOf(*twin).gc());
}
