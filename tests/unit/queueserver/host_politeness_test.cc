// Politeness you can see (docs/ARCHITECTURE.md "Politeness per address and pacing"): what fetchers report per
// record (FetchRecord remote_ip, pace_ms, fetch_ms) kept per origin in RAM
// (queueserver/frontier/origin_pace.h), answered in QueueServer.HostQueue
// 11-17 with the frontier's back-off (host_backoff.h), echoed as
// ScheduledUrl.start_pace_ms, and the /metrics board of the largest paces
// (QueueServerMetrics::Politeness).
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/frontier/origin_pace.h"
#include "queueserver/queueserver_metrics.h"
#include "queueserver/service.h"
#include "tests/unit/metrics_text.h"

namespace v1 = crawl::v1;
namespace qs = crawl::queueserver;

namespace {

// A queue server in memory with crawl 9 and seeds on a.test (`a_pages`
// of them) and b.test (one).
struct Server {
  crawl::ManualClock clock;
  qs::QueueServerServiceImpl service{"qs-p", &clock};
  grpc::ServerContext ctx;

  explicit Server(int a_pages = 3) {
    v1::InjectSeedsRequest seeds;
    seeds.mutable_crawl()->set_crawl_id(9);
    seeds.mutable_crawl()->set_state(v1::CRAWL_STATE_RUNNING);
    seeds.mutable_crawl()->mutable_params()->set_lease_seconds(600);
    for (int i = 1; i <= a_pages; ++i) seeds.add_urls("http://a.test/" + std::to_string(i));
    seeds.add_urls("http://b.test/1");
    v1::InjectSeedsResponse injected;
    REQUIRE(service.InjectSeeds(&ctx, &seeds, &injected).ok());
  }
  v1::GetScheduleResponse Lease(uint32_t max_urls = 100) {
    v1::GetScheduleRequest req;
    req.set_crawl_id(9);
    req.set_fetcher_id("f");
    req.set_max_urls(max_urls);
    v1::GetScheduleResponse resp;
    REQUIRE(service.GetSchedule(&ctx, &req, &resp).ok());
    return resp;
  }
  // Reports every URL of `s` with `status`, from `ip`, pace `pace_ms` and
  // response times fetch_ms, fetch_ms + 1, ...
  void Report(const v1::GetScheduleResponse& s, int status, const std::string& ip, uint32_t pace_ms,
              uint32_t fetch_ms, bool final = true) {
    v1::SubmitResultsRequest req;
    req.set_crawl_id(9);
    req.set_fetcher_id("f");
    req.set_schedule_id(s.schedule_id());
    req.set_final(final);
    for (const auto& u : s.urls()) {
      v1::FetchRecord* r = req.add_records();
      r->set_url(u.url());
      r->set_kind(u.kind());
      r->set_status(status);
      if (u.kind() == v1::URL_KIND_ROBOTS) r->set_robots_body("User-agent: *\nDisallow:\n");
      r->set_remote_ip(ip);
      r->set_pace_ms(pace_ms);
      r->set_fetch_ms(fetch_ms++);
    }
    v1::SubmitResultsResponse resp;
    REQUIRE(service.SubmitResults(&ctx, &req, &resp).ok());
  }
  v1::HostQueueResponse Host(const std::string& host) {
    v1::HostQueueRequest req;
    req.set_crawl_id(9);
    req.set_host(host);
    v1::HostQueueResponse resp;
    REQUIRE(service.HostQueue(&ctx, &req, &resp).ok());
    return resp;
  }
};

std::vector<uint32_t> Recent(const v1::HostQueueResponse& r) {
  return {r.recent_fetch_ms().begin(), r.recent_fetch_ms().end()};
}

}  // namespace

TEST_CASE("host politeness: the host queue answers the last pace, address and response times", "[unit]") {
  Server q;
  CHECK(q.Host("a.test").pace_ms() == 0);
  CHECK(q.Host("a.test").address().empty());
  q.Report(q.Lease(), 200, "192.0.2.7", 250, 40);  // robots.txt of both hosts
  const v1::GetScheduleResponse pages = q.Lease();
  REQUIRE(pages.urls_size() == 4);
  // A schedule holds a.test now.
  CHECK(q.Host("a.test").leased_now());
  q.Report(pages, 200, "2001:db8::1", 900, 100);
  const v1::HostQueueResponse a = q.Host("a.test");
  CHECK_FALSE(a.leased_now());
  CHECK(a.pace_ms() == 900);
  CHECK(a.address() == "2001:db8::1");
  // robots.txt (40), then a.test's three pages in schedule order.
  CHECK(Recent(a) == std::vector<uint32_t>{40, 100, 101, 102});
  CHECK(a.consecutive_failures() == 0);
  CHECK(a.backoff_until_unix_ms() == 0);
  CHECK_FALSE(a.parked());
  CHECK(q.Host("b.test").pace_ms() == 900);
  CHECK(q.Host("c.test").recent_fetch_ms_size() == 0);
}

TEST_CASE("host politeness: a leased URL starts from its origin's last pace", "[unit]") {
  Server q;
  const v1::GetScheduleResponse robots = q.Lease();
  for (const auto& u : robots.urls()) CHECK(u.start_pace_ms() == 0);  // nothing reported yet
  q.Report(robots, 200, "192.0.2.7", 1'500, 40);
  const v1::GetScheduleResponse pages = q.Lease(1);
  REQUIRE(pages.urls_size() == 1);
  CHECK(pages.urls(0).start_pace_ms() == 1'500);
}

TEST_CASE("host politeness: back-off and parking show in the host queue", "[unit]") {
  Server q(10);
  q.Report(q.Lease(), 200, "192.0.2.7", 10, 5);
  const int64_t t0 = q.clock.NowUnixMs();
  q.Report(q.Lease(1), 503, "192.0.2.7", 10, 5);
  v1::HostQueueResponse a = q.Host("a.test");
  CHECK(a.consecutive_failures() == 1);
  CHECK(a.backoff_until_unix_ms() > t0);
  CHECK_FALSE(a.parked());
  // Failures in a row until parked (8): each after the last back-off ended.
  for (int i = 0; i < 7; ++i) {
    q.clock.Advance(
        std::chrono::milliseconds(q.Host("a.test").backoff_until_unix_ms() + 1 - q.clock.NowUnixMs()));
    const v1::GetScheduleResponse s = q.Lease(1);
    REQUIRE(s.urls_size() == 1);
    REQUIRE(s.urls(0).url().rfind("http://a.test/", 0) == 0);
    q.Report(s, -2, "", 0, 0);  // network errors: no address, no response time
  }
  a = q.Host("a.test");
  CHECK(a.consecutive_failures() == 8);
  CHECK(a.parked());
  CHECK(a.backoff_until_unix_ms() > q.clock.NowUnixMs());
  CHECK(a.address() == "192.0.2.7");  // an unreached address keeps the known one
  q.clock.Advance(std::chrono::milliseconds(a.backoff_until_unix_ms() + 1 - q.clock.NowUnixMs()));
  a = q.Host("a.test");
  CHECK(a.backoff_until_unix_ms() == 0);  // over: not backed off now
  CHECK_FALSE(a.parked());
}

TEST_CASE("origin pace keeps the last 16 response times, saturating, oldest first", "[unit]") {
  qs::OriginPace p;
  CHECK_FALSE(p.known());
  CHECK(p.MedianMs() == 0);
  for (uint32_t i = 1; i <= 20; ++i) p.Note("", 7, i * 10, 200, 1'000);
  std::vector<uint32_t> want;
  for (uint32_t i = 5; i <= 20; ++i) want.push_back(i * 10);
  CHECK(p.Recent() == want);
  CHECK(p.MedianMs() == 120);  // the lower middle of 50..200
  p.Note("198.51.100.3", 9, 1'000'000, 200, 2'000);
  CHECK(p.Recent().back() == 65'535);
  CHECK(p.Address() == "198.51.100.3");
  p.Note("not an address", 9, 0, -3, 3'000);  // nothing reached: no response time, address kept
  CHECK(p.Address() == "198.51.100.3");
  CHECK(p.Recent().size() == 16);
  CHECK(p.pace_ms() == 9);
  CHECK(sizeof(qs::OriginPace) <= 64);
}

TEST_CASE("pace board keeps the largest recent paces and drops stale hosts", "[unit]") {
  qs::PaceBoard board;
  for (uint32_t i = 0; i < qs::kPaceBoardSize; ++i) board.Note("h" + std::to_string(i), 100 + i, 5, 0);
  board.Note("slow.test", 50, 5, 0);  // smaller than every line of the full board: left out
  CHECK(board.size() == qs::kPaceBoardSize);
  board.Note("slower.test", 10'000, 70, 0);  // replaces the smallest (h0)
  std::vector<qs::HostPace> top = board.Top(3, 1);
  REQUIRE(top.size() == 3);
  CHECK(top[0].host == "slower.test");
  CHECK(top[0].median_ms == 70);
  CHECK(top[1].host == "h63");
  board.Note("h5", 0, 0, 1);  // a pace of 0 is not shown
  for (const auto& h : board.Top(100, 1)) CHECK(h.host != "h5");
  board.Note("fresh.test", 20, 1, qs::kPaceBoardStaleMs + 10);
  top = board.Top(100, qs::kPaceBoardStaleMs + 10);
  REQUIRE(top.size() == 1);  // every other line is older than kPaceBoardStaleMs
  CHECK(top[0].host == "fresh.test");
}

TEST_CASE("frontier counts the origins backed off and parked now", "[unit]") {
  qs::Frontier f(qs::FrontierOptions{});
  for (const char* u : {"http://a.test/", "http://b.test/"}) {
    qs::FrontierEntry e;
    e.url = u;
    f.Add(e, 0);
  }
  qs::Schedule robots = f.Lease("f", 10, 0);
  for (const auto& e : robots.entries) {
    qs::FetchOutcome o;
    o.url = e.url;
    o.kind = qs::UrlKind::kRobots;
    o.status = 200;
    (void)f.Report(robots.id, o, 0);
  }
  f.Complete(robots.id, 0);
  CHECK(f.CountBackoffs(0).backing_off == 0);
  qs::Schedule pages = f.Lease("f", 10, 0);
  REQUIRE(pages.entries.size() == 2);
  qs::FetchOutcome o;
  o.url = "http://a.test/";
  o.status = 429;
  o.pace_ms = 3'000;
  (void)f.Report(pages.id, o, 0);
  const qs::BackoffCounts now = f.CountBackoffs(1);
  CHECK(now.backing_off == 1);
  CHECK(now.parked == 0);
  CHECK(f.TopPaces(20, 1).at(0).host == "a.test");
  CHECK(f.CountBackoffs(qs::BackoffOptions{}.max_ms + 1).backing_off == 0);
}

TEST_CASE("politeness metrics show the top hosts and drop the series of hosts that left it",
          "[unit][metrics]") {
  using crawl::testing::Samples;
  prometheus::Registry registry;
  qs::QueueServerMetrics m(registry);
  auto samples = Samples(crawl::metrics::Exposition(registry));
  CHECK(samples.at("crawl_queueserver_hosts_backing_off") == "0");
  CHECK(samples.at("crawl_queueserver_hosts_parked") == "0");
  std::vector<qs::HostPace> top;
  for (int i = 0; i < 25; ++i) top.push_back({"h" + std::to_string(i) + ".test", 5'000u - i, 40});
  m.Politeness(top, 3, 1);
  samples = Samples(crawl::metrics::Exposition(registry));
  CHECK(samples.at("crawl_queueserver_host_pace_ms{host=\"h0.test\"}") == "5000");
  CHECK(samples.at("crawl_queueserver_host_response_ms{host=\"h0.test\"}") == "40");
  CHECK(samples.count("crawl_queueserver_host_pace_ms{host=\"h19.test\"}") == 1);
  CHECK(samples.count("crawl_queueserver_host_pace_ms{host=\"h20.test\"}") == 0);  // 20 at most
  CHECK(samples.at("crawl_queueserver_hosts_backing_off") == "3");
  CHECK(samples.at("crawl_queueserver_hosts_parked") == "1");
  m.Politeness({{"new.test", 7'000, 90}}, 0, 0);
  samples = Samples(crawl::metrics::Exposition(registry));
  CHECK(samples.at("crawl_queueserver_host_pace_ms{host=\"new.test\"}") == "7000");
  CHECK(samples.count("crawl_queueserver_host_pace_ms{host=\"h0.test\"}") == 0);
  CHECK(samples.count("crawl_queueserver_host_response_ms{host=\"h0.test\"}") == 0);
  m.CrawlEnded();
  samples = Samples(crawl::metrics::Exposition(registry));
  CHECK(samples.count("crawl_queueserver_host_pace_ms{host=\"new.test\"}") == 0);
}
