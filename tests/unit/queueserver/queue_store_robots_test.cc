// Queue store (queueserver/store/queue_store.h) and robots.txt expiry
// (queueserver/frontier/frontier_robots.cc): when an origin's rules are due
// again survives a restart, and the re-fetch then comes on time.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <random>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

using crawl::ManualClock;
using crawl::queueserver::CrawlShard;
using crawl::queueserver::QueueStore;

using crawl::test_support::TempDir;

namespace {

crawl::v1::CrawlInfo Crawl() {
  crawl::v1::CrawlInfo c;
  c.set_crawl_id(43);
  c.set_state(crawl::v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_schedule_size(1);
  c.mutable_params()->set_lease_seconds(60);
  return c;
}

std::vector<std::string> Lease(CrawlShard& shard, uint64_t* id) {
  crawl::v1::GetScheduleRequest req;
  req.set_crawl_id(43);
  req.set_fetcher_id("f");
  crawl::v1::GetScheduleResponse resp;
  REQUIRE(shard.GetSchedule(req, &resp).ok());
  *id = resp.schedule_id();
  std::vector<std::string> out;
  for (const auto& u : resp.urls()) out.push_back(u.url());
  return out;
}

void Submit(CrawlShard& shard, uint64_t id, const std::string& url, int64_t expires_unix_s = 0) {
  crawl::v1::SubmitResultsRequest req;
  req.set_crawl_id(43);
  req.set_fetcher_id("f");
  req.set_schedule_id(id);
  req.set_final(true);
  auto* r = req.add_records();
  r->set_url(url);
  r->set_status(200);
  const bool robots = url.ends_with("/robots.txt");
  r->set_kind(robots ? crawl::v1::URL_KIND_ROBOTS : crawl::v1::URL_KIND_PAGE);
  if (robots) r->set_robots_body("User-agent: *\nDisallow:\n");
  r->set_expires_unix_s(expires_unix_s);
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(req, &resp).ok());
}

}  // namespace

TEST_CASE("queue store: a robots.txt expiry survives a restart and the re-fetch comes on time",
          "[unit][rfc9309]") {
  TempDir dir;
  ManualClock clock;
  const int64_t start = clock.NowUnixMs();
  crawl::queueserver::OriginRecord before;
  {
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    CrawlShard shard(Crawl(), &clock, (*store)->NewWriter(43));
    REQUIRE(shard.Create().ok());
    crawl::v1::InjectSeedsRequest seeds;
    *seeds.mutable_crawl() = Crawl();
    for (const char* u : {"http://a.test/1", "http://a.test/2", "http://a.test/3"}) seeds.add_urls(u);
    crawl::v1::InjectSeedsResponse injected;
    REQUIRE(shard.InjectSeeds(seeds, &injected).ok());
    uint64_t id = 0;
    REQUIRE(Lease(shard, &id) == std::vector<std::string>{"http://a.test/robots.txt"});
    // Cache-Control: max-age=3600 on the robots.txt answer.
    Submit(shard, id, "http://a.test/robots.txt", start / 1000 + 3600);
    auto rec = shard.frontier().Origin("http://a.test");
    REQUIRE(rec);
    CHECK(rec->robots_fetched_ms == start);
    CHECK(rec->robots_expires_ms == start + 3'600'000);
    REQUIRE(Lease(shard, &id) == std::vector<std::string>{"http://a.test/1"});
    Submit(shard, id, "http://a.test/1");
    before = *rec;
  }
  auto store = QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto shard = CrawlShard::Load(store->get(), 43, &clock);
  REQUIRE(shard.ok());
  auto rec = (*shard)->frontier().Origin("http://a.test");
  REQUIRE(rec);
  CHECK(*rec == before);
  uint64_t id = 0;
  clock.Advance(std::chrono::seconds(3599));
  REQUIRE(Lease(**shard, &id) == std::vector<std::string>{"http://a.test/2"});  // not yet due
  Submit(**shard, id, "http://a.test/2");
  clock.Advance(std::chrono::seconds(1));
  CHECK(Lease(**shard, &id) == std::vector<std::string>{"http://a.test/robots.txt"});
  CHECK((*shard)->frontier().Origin("http://a.test")->robots_refreshing);
}
