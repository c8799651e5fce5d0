// CrawlShard::ReturnSchedule: a schedule whose fetcher gave up before it
// arrived (the queue server was paused mid-call) goes back to the frontier at
// once, durably, instead of sitting leased until its lease runs out. And
// GetScheduleRequest.lane_started: what a killed lane had leased goes back
// when the lane starts again.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

namespace qs = crawl::queueserver;
namespace v1 = crawl::v1;

namespace {

v1::CrawlInfo Crawl() {
  v1::CrawlInfo c;
  c.set_crawl_id(11);
  c.set_state(v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_schedule_size(10);
  c.mutable_params()->set_lease_seconds(600);
  c.mutable_params()->set_order("bfs");
  return c;
}

void Seed(qs::CrawlShard& shard) {
  v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = Crawl();
  seeds.add_urls("http://a.test/");
  seeds.add_urls("http://b.test/");
  v1::InjectSeedsResponse out;
  REQUIRE(shard.InjectSeeds(seeds, &out).ok());
}

v1::GetScheduleResponse Lease(qs::CrawlShard& shard, const std::string& lane = "f", bool started = false) {
  v1::GetScheduleRequest req;
  req.set_crawl_id(11);
  req.set_fetcher_id(lane);
  req.set_lane_started(started);
  v1::GetScheduleResponse out;
  REQUIRE(shard.GetSchedule(req, &out).ok());
  return out;
}

std::set<std::string> Urls(const v1::GetScheduleResponse& s) {
  std::set<std::string> urls;
  for (const auto& u : s.urls()) urls.insert(u.url());
  return urls;
}

}  // namespace

TEST_CASE("return schedule: the URLs of a schedule nobody received are leased again at once", "[unit]") {
  crawl::ManualClock clock;
  qs::CrawlShard shard(Crawl(), &clock, nullptr);
  REQUIRE(shard.Create().ok());
  Seed(shard);
  const v1::GetScheduleResponse first = Lease(shard);
  REQUIRE(first.schedule_id() != 0);
  REQUIRE(first.urls_size() > 0);
  CHECK(shard.frontier_counters().leased_urls == static_cast<uint64_t>(first.urls_size()));
  // Leased: nothing more of these hosts is handed out.
  CHECK(Lease(shard).schedule_id() == 0);

  REQUIRE(shard.ReturnSchedule(first.schedule_id()).ok());
  CHECK(shard.frontier_counters().leased_urls == 0);
  CHECK(shard.frontier_counters().outstanding_schedules == 0);
  // No lease expiry needed: the same URLs come at once, without the clock moving.
  const v1::GetScheduleResponse again = Lease(shard);
  REQUIRE(again.schedule_id() != 0);
  CHECK(again.schedule_id() != first.schedule_id());
  CHECK(Urls(again) == Urls(first));
  // An unknown or already returned id changes nothing.
  REQUIRE(shard.ReturnSchedule(first.schedule_id()).ok());
  REQUIRE(shard.ReturnSchedule(987654321).ok());
  CHECK(shard.frontier_counters().leased_urls == static_cast<uint64_t>(again.urls_size()));
}

TEST_CASE("return schedule: the return is durable (a restart does not hold the URLs leased)", "[unit]") {
  crawl::test_support::TempDir dir;
  crawl::ManualClock clock;
  std::set<std::string> returned;
  {
    auto store = qs::QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    qs::CrawlShard shard(Crawl(), &clock, (*store)->NewWriter(11));
    REQUIRE(shard.Create().ok());
    Seed(shard);
    const v1::GetScheduleResponse first = Lease(shard);
    REQUIRE(first.schedule_id() != 0);
    returned = Urls(first);
    REQUIRE(shard.ReturnSchedule(first.schedule_id()).ok());
  }
  auto store = qs::QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto shard = qs::CrawlShard::Load(store->get(), 11, &clock);
  REQUIRE(shard.ok());
  CHECK((*shard)->frontier_counters().leased_urls == 0);
  CHECK(Urls(Lease(**shard)) == returned);
}

TEST_CASE("lane started again: its earlier process's schedules are leased again at once, durably", "[unit]") {
  crawl::test_support::TempDir dir;
  crawl::ManualClock clock;
  std::set<std::string> held;
  {
    auto store = qs::QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    qs::CrawlShard shard(Crawl(), &clock, (*store)->NewWriter(11));
    REQUIRE(shard.Create().ok());
    Seed(shard);
    const v1::GetScheduleResponse first = Lease(shard, "f", /*started=*/true);
    REQUIRE(first.schedule_id() != 0);
    held = Urls(first);
    // Another lane starting ends nothing of f's; f's later calls neither.
    CHECK(Lease(shard, "g", true).schedule_id() == 0);
    CHECK(Lease(shard, "f", false).schedule_id() == 0);
    CHECK(shard.frontier_counters().leased_urls == held.size());
    // Lane f killed and started again, a second later (the lease is 600 s).
    clock.Advance(std::chrono::milliseconds(1000));
    const v1::GetScheduleResponse again = Lease(shard, "f", true);
    REQUIRE(again.schedule_id() != 0);
    CHECK(again.schedule_id() != first.schedule_id());
    CHECK(Urls(again) == held);
    CHECK(shard.frontier_counters().outstanding_schedules == 1);
  }
  // Durable: after a restart the old schedule is not restored as leased.
  auto store = qs::QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto shard = qs::CrawlShard::Load(store->get(), 11, &clock);
  REQUIRE(shard.ok());
  CHECK((*shard)->frontier_counters().outstanding_schedules == 1);
  CHECK((*shard)->frontier_counters().leased_urls == held.size());
}
