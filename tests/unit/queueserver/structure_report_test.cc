// imbWEM's Crawling Context sessions and Reporting Engine in the structure
// order (queueserver/frontier/structure_order.h "Sessions and reports"):
// when a site's session ends and what its report holds, the Objectives on
// the crawl path, the session's numbers across a restart of the queue store,
// and the report log (queueserver/site_report_log.h).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/frontier/structure_order.h"
#include "queueserver/site_report_log.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

using namespace crawl::queueserver;
using Strings = std::vector<std::string>;

using crawl::test_support::TempDir;

namespace {

std::string S(const std::string& path) { return "http://s.test" + path; }

FrontierOptions Options(const crawl::Clock* clock, size_t load_take, SiteControlOptions control = {}) {
  FrontierOptions o;
  o.order.kind = OrderKind::kStructure;
  o.order.structure_load_take = load_take;
  o.order.site_control = std::move(control);
  o.order.clock = clock;
  return o;
}

Strings Urls(const Schedule& s) {
  Strings out;
  for (const auto& e : s.entries) out.push_back(e.url);
  return out;
}

// Reports every URL of `s` fetched (robots.txt 404), with the links of `links_of`.
void Fetch(Frontier& f, const Schedule& s, const std::map<std::string, Strings>& links_of = {}) {
  for (const auto& e : s.entries) {
    FetchOutcome o;
    o.url = e.url;
    o.kind = e.url.ends_with("/robots.txt") ? UrlKind::kRobots : UrlKind::kPage;
    o.status = o.kind == UrlKind::kRobots ? 404 : 200;
    f.Report(s.id, o, 0);
    auto it = links_of.find(e.url);
    if (it == links_of.end()) continue;
    std::vector<LinkInput> links;
    for (const std::string& u : it->second) {
      LinkInput& l = links.emplace_back();
      l.entry.url = u;
      l.entry.referrer = e.url;
      l.entry.depth = e.depth + 1;
    }
    f.AddLinks(std::move(links), 0);
  }
  f.Complete(s.id, 0);
  f.EndRequest();
}

StructureOrder& OrderOf(Frontier& f) { return dynamic_cast<StructureOrder&>(f.order()); }

// Seeds s.test/ and fetches its robots.txt.
void Seed(Frontier& f) {
  FrontierEntry e;
  e.url = S("/");
  f.Add(e, 0);
  Fetch(f, f.Lease("f", 100, 0));
}

}  // namespace

// imbWEM: "At the end of a DLC session, before the instance is disposed,
// metrics relevant for the evaluation are sent to the Reporting Engine."
TEST_CASE("site report: a site's session is reported once nothing is left to load", "[unit]") {
  crawl::ManualClock clock(1'000'000);
  Frontier f(Options(&clock, 2));
  Seed(f);
  Schedule home = f.Lease("f", 100, 0);
  clock.Advance(std::chrono::milliseconds(500));
  Fetch(f, home, {{S("/"), {S("/a/1.html"), S("/a/2.html"), S("/b/1.html")}}});
  CHECK(OrderOf(f).TakeReports().empty());  // the session runs
  Schedule second = f.Lease("f", 100, 0);
  CHECK(Urls(second) == Strings{S("/a/1.html"), S("/a/2.html")});
  Fetch(f, second);
  CHECK(OrderOf(f).TakeReports().empty());  // b/1 is left
  Schedule third = f.Lease("f", 100, 0);
  clock.Advance(std::chrono::milliseconds(2'000));
  Fetch(f, third);
  const std::vector<SiteReport> reports = OrderOf(f).TakeReports();
  REQUIRE(reports.size() == 1);
  const SiteReport& r = reports[0];
  CHECK(r.site == "http://s.test");
  CHECK(r.end_reason == "exhausted");
  CHECK(r.started_unix_ms == 1'000'000);  // the first iteration
  CHECK(r.ended_unix_ms == 1'002'500);
  CHECK(r.iterations == 3);
  CHECK(r.pages_loaded == 4);
  CHECK(r.pages_crawled == 4);
  CHECK(r.targets_seen == 4);
  CHECK(r.dismissed == 0);
  CHECK(r.report_number == 1);
  CHECK(r.layer_names == Strings{"Primary", "Secondary", "Reserve"});
  // Iteration 1: the seed, a leaf of the top node /. Iteration 2: GC / is
  // 2, so GD / = 3/2 and /a/ = 2 is the top: a/1, a/2 Primary, b/1
  // Reserve. Iteration 3: GD / = 1/4, /b/ = 1: b/1 Primary.
  CHECK(r.layer_sizes == std::vector<std::vector<uint32_t>>{{1, 0, 0}, {2, 0, 1}, {1, 0, 0}});
  CHECK(OrderOf(f).TakeReports().empty());  // reported once
}

TEST_CASE("site report: objective.pages on the crawl path ends the site and drops its later links",
          "[unit]") {
  crawl::ManualClock clock;
  SiteControlOptions control;
  control.max_pages_per_site = 2;
  Frontier f(Options(&clock, 5, control));
  Seed(f);
  Fetch(f, f.Lease("f", 100, 0), {{S("/"), {S("/a/1.html"), S("/a/2.html"), S("/a/3.html")}}});
  Schedule s = f.Lease("f", 100, 0);
  CHECK(Urls(s) == Strings{S("/a/1.html")});  // one more makes two pages
  CHECK(OrderOf(f).TakeReports().empty());    // its last load is out
  Fetch(f, s, {{S("/a/1.html"), {S("/a/4.html")}}});
  const auto reports = OrderOf(f).TakeReports();
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].end_reason == "objective.pages");
  CHECK(reports[0].pages_crawled == 2);
  CHECK(reports[0].dismissed == 2);  // a/2, a/3
  CHECK(f.order().size() == 0);      // a/4 was not queued
  CHECK(f.Lease("f", 100, 0).id == 0);
}

TEST_CASE("site report: a site re-opened by later links is reported again", "[unit]") {
  crawl::ManualClock clock;
  Frontier f(Options(&clock, 5));
  Seed(f);
  Fetch(f, f.Lease("f", 100, 0));
  REQUIRE(OrderOf(f).TakeReports().size() == 1);
  // A link from elsewhere brings a new target: the session resumes.
  std::vector<LinkInput> links(1);
  links[0].entry.url = S("/late.html");
  links[0].entry.referrer = "http://other.test/";
  f.AddLinks(std::move(links), 0);
  f.EndRequest();
  CHECK(OrderOf(f).TakeReports().empty());
  Fetch(f, f.Lease("f", 100, 0));
  const auto again = OrderOf(f).TakeReports();
  REQUIRE(again.size() == 1);
  CHECK(again[0].report_number == 2);
  CHECK(again[0].pages_crawled == 2);
  CHECK(again[0].iterations == 2);
}

TEST_CASE("control rules on the crawl path: a dismissed first layer does not stall the site", "[unit]") {
  crawl::ManualClock clock;
  SiteControlOptions control;
  control.dismiss_patterns = {"*/wiki/*"};
  Frontier f(Options(&clock, 5, control));
  Seed(f);
  Fetch(f, f.Lease("f", 100, 0),
        {{S("/"), {S("/wiki/1.html"), S("/wiki/2.html"), S("/wiki/3.html"), S("/b/1.html")}}});
  // GD /wiki/ = 3 is the top: its leaves, the whole Primary layer, are
  // dismissed; the next iteration (in the same lease) loads b/1.
  CHECK(Urls(f.Lease("f", 100, 0)) == Strings{S("/b/1.html")});
  CHECK(OrderOf(f).ContextOf("http://s.test")->metrics().dismissed == 3);
}

TEST_CASE("site report: the crawl's end reports every open session", "[unit]") {
  crawl::ManualClock clock;
  Frontier f(Options(&clock, 1));
  Seed(f);
  Fetch(f, f.Lease("f", 100, 0), {{S("/"), {S("/a.html"), S("/b.html")}}});
  (void)f.Lease("f", 100, 0);  // a.html out
  OrderOf(f).EndSessions("crawl ended");
  const auto reports = OrderOf(f).TakeReports();
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].end_reason == "crawl ended");
  CHECK(reports[0].targets_left == 1);
  CHECK(reports[0].pages_loaded == 2);
  CHECK(reports[0].pages_crawled == 1);
}

namespace {

crawl::v1::CrawlInfo Crawl(uint64_t max_pages_per_site) {
  crawl::v1::CrawlInfo c;
  c.set_crawl_id(9);
  c.set_state(crawl::v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_order("structure");
  c.mutable_params()->set_structure_load_take(1);
  c.mutable_params()->set_site_max_pages(max_pages_per_site);
  return c;
}

crawl::v1::GetScheduleResponse Lease(CrawlShard& shard) {
  crawl::v1::GetScheduleRequest req;
  req.set_crawl_id(9);
  req.set_fetcher_id("f");
  crawl::v1::GetScheduleResponse resp;
  REQUIRE(shard.GetSchedule(req, &resp).ok());
  return resp;
}

// Fetches a schedule's URLs; `links` are found on the first.
void Submit(CrawlShard& shard, const crawl::v1::GetScheduleResponse& s, const Strings& links = {}) {
  crawl::v1::SubmitResultsRequest req;
  req.set_crawl_id(9);
  req.set_fetcher_id("f");
  req.set_schedule_id(s.schedule_id());
  req.set_final(true);
  for (const auto& u : s.urls()) {
    auto* r = req.add_records();
    r->set_url(u.url());
    r->set_kind(u.kind());
    r->set_status(u.kind() == crawl::v1::URL_KIND_ROBOTS ? 404 : 200);
  }
  for (const std::string& u : links) {
    auto* l = req.add_links();
    l->set_url(u);
    l->set_referrer(s.urls(0).url());
  }
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(req, &resp).ok());
}

void Start(CrawlShard& shard) {
  crawl::v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = Crawl(3);
  seeds.add_urls(S("/"));
  crawl::v1::InjectSeedsResponse injected;
  REQUIRE(shard.InjectSeeds(seeds, &injected).ok());
  Submit(shard, Lease(shard));  // robots.txt
  Submit(shard, Lease(shard), {S("/1.html"), S("/2.html"), S("/3.html"), S("/4.html")});
  Submit(shard, Lease(shard));  // 1.html: two pages of three
}

}  // namespace

TEST_CASE("site report: a session's numbers survive a restart of the queue store", "[unit]") {
  TempDir dir;
  crawl::ManualClock clock;
  {
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    CrawlShard shard(Crawl(3), &clock, (*store)->NewWriter(9));
    REQUIRE(shard.Create().ok());
    Start(shard);
  }
  auto store = QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto loaded = CrawlShard::Load(store->get(), 9, &clock);
  REQUIRE(loaded.ok());
  CrawlShard& shard = **loaded;
  REQUIRE(shard.OpenSiteReports((dir.path / "reports" / "crawl-9-sites.jsonl").string()).ok());
  const auto& order = dynamic_cast<const StructureOrder&>(shard.frontier().order());
  const SiteContext* ctx = order.ContextOf("http://s.test");
  REQUIRE(ctx != nullptr);
  CHECK(ctx->metrics().loaded == 2);
  CHECK(ctx->metrics().crawled == 2);
  CHECK(ctx->metrics().iterations == 2);
  CHECK(ctx->started_ms() == clock.NowUnixMs());
  // The page limit counts the pages before the restart: one more, then the end.
  Submit(shard, Lease(shard));
  CHECK(Lease(shard).schedule_id() == 0);
  crawl::v1::QueueServerStats stats;
  shard.FillStats(&stats);
  REQUIRE(stats.site_reports_size() == 1);
  CHECK(stats.sites_reported() == 1);
  CHECK(stats.site_reports(0).end_reason() == "objective.pages");
  CHECK(stats.site_reports(0).pages_crawled() == 3);
  CHECK(stats.site_reports(0).dismissed() == 2);
  // The report file holds it as one JSON line, read back by a new log.
  std::ifstream in(dir.path / "reports" / "crawl-9-sites.jsonl");
  std::string line;
  REQUIRE(std::getline(in, line));
  CHECK(line.find("\"end_reason\":\"objective.pages\"") != std::string::npos);
  CHECK(line.find("\"site\":\"http://s.test\"") != std::string::npos);
  SiteReportLog reread(10);
  REQUIRE(reread.Open((dir.path / "reports" / "crawl-9-sites.jsonl").string()).ok());
  crawl::v1::QueueServerStats again;
  reread.Fill(&again);
  REQUIRE(again.site_reports_size() == 1);
  CHECK(again.site_reports(0).pages_crawled() == 3);
}

TEST_CASE("site report log: the latest per site, newest first, bounded, short in stats", "[unit]") {
  SiteReportLog log(2);
  auto report = [](const std::string& site, int64_t ended, size_t iterations) {
    SiteReport r;
    r.site = site;
    r.ended_unix_ms = ended;
    r.layer_sizes.assign(iterations, {1, 2, 3});
    return r;
  };
  REQUIRE(log.Add({report("http://a.test", 1, 1), report("http://b.test", 2, 30)}).ok());
  REQUIRE(log.Add({report("http://a.test", 3, 2)}).ok());  // a re-reported
  REQUIRE(log.Add({report("http://c.test", 4, 1)}).ok());  // b falls out
  crawl::v1::QueueServerStats stats;
  log.Fill(&stats);
  CHECK(stats.sites_reported() == 4);
  REQUIRE(stats.site_reports_size() == 2);
  CHECK(stats.site_reports(0).site() == "http://c.test");
  CHECK(stats.site_reports(1).site() == "http://a.test");
  CHECK(stats.site_reports(1).ended_unix_ms() == 3);

  SiteReportLog long_one(5);
  REQUIRE(long_one.Add({report("http://b.test", 2, 30)}).ok());
  crawl::v1::QueueServerStats s2;
  long_one.Fill(&s2);
  CHECK(s2.site_reports(0).layer_sizes_size() == 20);
  CHECK(s2.site_reports(0).layer_sizes_omitted() == 10);
}

TEST_CASE("site report log: a torn or foreign line in the file is skipped", "[unit]") {
  TempDir dir;
  const std::string path = (dir.path / "r.jsonl").string();
  {
    std::ofstream out(path);
    out << "{\"site\":\"http://a.test\",\"pages_crawled\":5}\nnot json\n{\"site\":\"http://b.te";
  }
  SiteReportLog log(10);
  REQUIRE(log.Open(path).ok());
  crawl::v1::QueueServerStats stats;
  log.Fill(&stats);
  REQUIRE(stats.site_reports_size() == 1);
  CHECK(stats.site_reports(0).pages_crawled() == 5);
}
