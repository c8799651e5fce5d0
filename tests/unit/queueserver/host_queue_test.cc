// QueueServer.HostQueue (queueserver/service.h, CrawlShard::HostQueue,
// Frontier::QueueOfHost): one host's queued URLs per tier, those waiting for
// robots.txt and those leased, read from a real store without changing it.
//
// host_budget tiers (docs/DESIGN.md §5.1): a new URL's tier is
// floor(log10(WSEEN - WIN)) of its CLD after counting it, and a seed adds 1
// to WSEEN, so a CLD's seeds 1-9 are in tier 0 and seeds 10-99 in tier 1.
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "queueserver/service.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

namespace v1 = crawl::v1;
namespace qs = crawl::queueserver;

namespace {

// a.test on two origins (12 seeds: its CLD's tiers 0 and 1), b.test on one.
const std::vector<std::string> kHttpA = {"http://a.test/1", "http://a.test/2", "http://a.test/3",
                                         "http://a.test/4", "http://a.test/5", "http://a.test/6"};
const std::vector<std::string> kHttpsA = {"https://a.test:8443/7",  "https://a.test:8443/8",
                                          "https://a.test:8443/9",  "https://a.test:8443/10",
                                          "https://a.test:8443/11", "https://a.test:8443/12"};
const std::vector<std::string> kB = {"http://b.test/1", "http://b.test/2", "http://b.test/3"};

struct QueueServer {
  crawl::test_support::TempDir dir;
  crawl::ManualClock clock;
  std::unique_ptr<qs::QueueStore> store;
  std::unique_ptr<qs::QueueServerServiceImpl> service;
  grpc::ServerContext ctx;
  uint64_t crawl_id = 0;

  // `durable`: with a store in a temp dir (else the shard lives in memory).
  explicit QueueServer(const std::string& order = "", bool durable = true, uint64_t id = 7) : crawl_id(id) {
    if (durable) {
      auto opened = qs::QueueStore::Open(dir.path.string(), {});
      REQUIRE(opened.ok());
      store = std::move(*opened);
    }
    service = std::make_unique<qs::QueueServerServiceImpl>("qs-host", &clock, store.get());
    v1::InjectSeedsRequest seeds;
    seeds.mutable_crawl()->set_crawl_id(crawl_id);
    seeds.mutable_crawl()->set_state(v1::CRAWL_STATE_RUNNING);
    seeds.mutable_crawl()->mutable_params()->set_order(order);
    seeds.mutable_crawl()->mutable_params()->set_lease_seconds(600);
    for (const auto* list : {&kHttpA, &kHttpsA, &kB})
      for (const std::string& u : *list) seeds.add_urls(u);
    v1::InjectSeedsResponse injected;
    REQUIRE(service->InjectSeeds(&ctx, &seeds, &injected).ok());
    REQUIRE(injected.accepted() == 15);
  }

  v1::GetScheduleResponse Lease(uint32_t max_urls) {
    v1::GetScheduleRequest req;
    req.set_crawl_id(crawl_id);
    req.set_fetcher_id("f");
    req.set_max_urls(max_urls);
    v1::GetScheduleResponse resp;
    REQUIRE(service->GetSchedule(&ctx, &req, &resp).ok());
    return resp;
  }

  // Leases the three robots.txt URLs and reports them (everything allowed),
  // which files every seed in the order.
  void FetchRobots() {
    const v1::GetScheduleResponse schedule = Lease(100);
    REQUIRE(schedule.urls_size() == 3);
    v1::SubmitResultsRequest req;
    req.set_crawl_id(crawl_id);
    req.set_fetcher_id("f");
    req.set_schedule_id(schedule.schedule_id());
    req.set_final(true);
    for (const auto& u : schedule.urls()) {
      REQUIRE(u.kind() == v1::URL_KIND_ROBOTS);
      v1::FetchRecord* r = req.add_records();
      r->set_url(u.url());
      r->set_kind(v1::URL_KIND_ROBOTS);
      r->set_status(200);
      r->set_robots_body("User-agent: *\nDisallow:\n");
    }
    v1::SubmitResultsResponse resp;
    REQUIRE(service->SubmitResults(&ctx, &req, &resp).ok());
  }

  grpc::Status Ask(const std::string& host, v1::HostQueueResponse* resp, uint32_t sample = 100,
                   uint64_t max_scan = 0, uint64_t id = 0) {
    v1::HostQueueRequest req;
    req.set_crawl_id(id ? id : crawl_id);
    req.set_host(host);
    req.set_sample_urls(sample);
    req.set_max_scan(max_scan);
    return service->HostQueue(&ctx, &req, resp);
  }
  v1::HostQueueResponse Queue(const std::string& host, uint32_t sample = 100, uint64_t max_scan = 0) {
    v1::HostQueueResponse resp;
    REQUIRE(Ask(host, &resp, sample, max_scan).ok());
    return resp;
  }
};

std::map<int32_t, uint64_t> Tiers(const v1::HostQueueResponse& r) {
  std::map<int32_t, uint64_t> out;
  for (const auto& t : r.tiers()) out[t.tier()] = t.urls();
  return out;
}

std::vector<std::string> Sample(const v1::HostQueueResponse& r) {
  return {r.sample_urls().begin(), r.sample_urls().end()};
}

std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("host queue: a host's URLs wait for robots.txt, then are counted per tier in hand-out order",
          "[unit]") {
  QueueServer q;
  v1::HostQueueResponse a = q.Queue("a.test");
  CHECK(a.tiers_size() == 0);
  CHECK(a.waiting_for_robots() == 12);  // both origins of a.test
  CHECK(q.Queue("b.test").waiting_for_robots() == 3);
  q.FetchRobots();

  a = q.Queue("a.test");
  CHECK(a.waiting_for_robots() == 0);
  CHECK(a.leased() == 0);
  // Seeds 1-9 of the CLD a.test in tier 0, 10-12 in tier 1; b.test's are
  // not a.test's.
  CHECK(Tiers(a) == std::map<int32_t, uint64_t>{{0, 9}, {1, 3}});
  CHECK(a.scanned() == 15);
  CHECK_FALSE(a.truncated());
  CHECK_FALSE(a.unknown_crawl());
  // Lowest tier first, arrival order inside a tier (the order robots.txt
  // released them: http://a.test, then https://a.test:8443).
  CHECK(Sample(a) == Concat(kHttpA, kHttpsA));
  CHECK(Sample(q.Queue("a.test", 4)) == std::vector<std::string>(kHttpA.begin(), kHttpA.begin() + 4));
  CHECK(Tiers(q.Queue("b.test")) == std::map<int32_t, uint64_t>{{0, 3}});
  CHECK(Sample(q.Queue("b.test")) == kB);
  CHECK(q.Queue("c.test").tiers_size() == 0);
  CHECK(Tiers(q.Queue("A.Test")) == Tiers(a));  // host names compare as URLs do
}

TEST_CASE("host queue: leased URLs are counted until reported, not as queued", "[unit]") {
  QueueServer q;
  // The robots.txt fetches of a.test's two origins are leased URLs too.
  const v1::GetScheduleResponse robots = q.Lease(100);
  REQUIRE(robots.urls_size() == 3);
  CHECK(q.Queue("a.test").leased() == 2);
  CHECK(q.Queue("b.test").leased() == 1);
}

TEST_CASE("host queue: pages leased by a schedule leave the tiers and count as leased", "[unit]") {
  QueueServer q;
  q.FetchRobots();
  const v1::GetScheduleResponse schedule = q.Lease(5);
  uint64_t leased_a = 0;
  for (const auto& u : schedule.urls())
    if (u.url().find("a.test") != std::string::npos) ++leased_a;
  REQUIRE(leased_a > 0);
  const v1::HostQueueResponse a = q.Queue("a.test");
  CHECK(a.leased() == leased_a);
  uint64_t queued = 0;
  for (const auto& t : a.tiers()) queued += t.urls();
  CHECK(queued + leased_a == 12);
  for (const std::string& u : Sample(a))
    for (const auto& s : schedule.urls()) CHECK(u != s.url());
}

TEST_CASE("host queue: the scan stops at max_scan and says its counts are lower bounds", "[unit]") {
  QueueServer q;
  q.FetchRobots();
  const v1::HostQueueResponse five = q.Queue("a.test", 100, 5);
  CHECK(five.scanned() == 5);
  CHECK(five.truncated());
  CHECK(Tiers(five) == std::map<int32_t, uint64_t>{{0, 5}});  // the first five of tier 0 are a.test's
  CHECK(Sample(five) == std::vector<std::string>(kHttpA.begin(), kHttpA.begin() + 5));
  CHECK(q.Queue("a.test", 100, 14).truncated());
  const v1::HostQueueResponse all = q.Queue("a.test", 100, 15);  // exactly every entry
  CHECK(all.scanned() == 15);
  CHECK_FALSE(all.truncated());
}

TEST_CASE("host queue: reading it changes nothing", "[unit]") {
  QueueServer q;
  q.FetchRobots();
  v1::QueueServerStats before;
  q.service->FillStats(&before);
  (void)q.Queue("a.test", 100, 3);
  (void)q.Queue("b.test");
  v1::QueueServerStats after;
  q.service->FillStats(&after);
  CHECK(after.SerializeAsString() == before.SerializeAsString());
  // What the store holds gives the same answer after a restart.
  const v1::HostQueueResponse live = q.Queue("a.test");
  q.service = std::make_unique<qs::QueueServerServiceImpl>("qs-host", &q.clock, q.store.get());
  REQUIRE(q.service->LoadStoredCrawls().ok());
  const v1::HostQueueResponse loaded = q.Queue("a.test");
  CHECK(Tiers(loaded) == Tiers(live));
  CHECK(Sample(loaded) == Sample(live));
}

TEST_CASE("host queue: a shard without a store counts the same", "[unit]") {
  QueueServer q("", /*durable=*/false);
  q.FetchRobots();
  const v1::HostQueueResponse a = q.Queue("a.test");
  CHECK(Tiers(a) == std::map<int32_t, uint64_t>{{0, 9}, {1, 3}});
  CHECK(Sample(a) == Concat(kHttpA, kHttpsA));
  CHECK(q.Queue("a.test", 100, 5).truncated());
}

TEST_CASE("host queue: a bfs crawl keeps one FIFO, tier 0", "[unit]") {
  QueueServer q("bfs");
  q.FetchRobots();
  const v1::HostQueueResponse a = q.Queue("a.test");
  CHECK(Tiers(a) == std::map<int32_t, uint64_t>{{0, 12}});
  CHECK(Sample(a) == Concat(kHttpA, kHttpsA));
}

TEST_CASE("host queue: an opic crawl counts its queued URLs in tier 0", "[unit]") {
  QueueServer q("opic");
  CHECK(q.Queue("a.test").waiting_for_robots() == 12);
  q.FetchRobots();
  const v1::HostQueueResponse a = q.Queue("a.test");
  CHECK(Tiers(a) == std::map<int32_t, uint64_t>{{0, 12}});
  // Seeds share their cash equally: best first is arrival order.
  CHECK(Sample(a) == Concat(kHttpA, kHttpsA));
  CHECK(Tiers(q.Queue("b.test")) == std::map<int32_t, uint64_t>{{0, 3}});
}

TEST_CASE("host queue: a structure crawl counts the targets it holds in memory", "[unit]") {
  QueueServer q("structure");
  q.FetchRobots();
  const v1::HostQueueResponse a = q.Queue("a.test");
  uint64_t queued = 0;
  for (const auto& t : a.tiers()) queued += t.urls();
  CHECK(queued == 12);
  CHECK(a.sample_urls_size() == 12);
  CHECK(a.scanned() == 15);
}

TEST_CASE("host queue: bad requests are refused, an unknown crawl is said so", "[unit]") {
  QueueServer q;
  v1::HostQueueResponse resp;
  v1::HostQueueRequest no_id;
  no_id.set_host("a.test");
  CHECK(q.service->HostQueue(&q.ctx, &no_id, &resp).error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  for (const char* bad :
       {"", "a.test:80", "http://a.test/", "a.test/x", "a test", "user@a.test", "a.test?q", "%61.test"}) {
    INFO(bad);
    const grpc::Status s = q.Ask(bad, &resp);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK_FALSE(s.error_message().empty());
  }
  v1::HostQueueResponse unknown;
  REQUIRE(q.Ask("a.test", &unknown, 10, 0, /*id=*/99).ok());
  CHECK(unknown.unknown_crawl());
  CHECK(unknown.tiers_size() == 0);
}
