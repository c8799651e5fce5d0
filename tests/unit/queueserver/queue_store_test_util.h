// Helpers of the queue store tests (queue_store_test.cc,
// queue_store_order_test.cc): a store in a temporary directory, a crawl,
// shards opened and reloaded, leases, result requests and a drive through
// every kind of shard state.
#pragma once

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

namespace crawl::queueserver::store_test {

using crawl::ManualClock;
using crawl::queueserver::CrawlShard;
using crawl::queueserver::QueueStore;
using crawl::test_support::TempDir;

// A fresh directory, removed at the end of the test.
inline std::unique_ptr<QueueStore> OpenStore(const TempDir& dir) {
  auto s = QueueStore::Open(dir.path.string(), {});
  REQUIRE(s.ok());
  return std::move(*s);
}

// The crawl order the shards of a test use ("" is host_budget).
inline std::string g_order;

inline crawl::v1::CrawlInfo Crawl() {
  crawl::v1::CrawlInfo c;
  c.mutable_params()->set_order(g_order);
  // opic: a RAM budget of two URLs, so most of its queue lives in the store.
  c.mutable_params()->set_ram_budget_urls(2);
  // bfs, host_budget: tier windows of two URLs, refilled from the store.
  c.mutable_params()->set_tier_window_urls(2);
  c.set_crawl_id(42);
  c.set_state(crawl::v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_schedule_size(3);
  c.mutable_params()->set_lease_seconds(60);
  return c;
}

inline std::unique_ptr<CrawlShard> NewShard(QueueStore* store, const ManualClock* clock) {
  auto shard = std::make_unique<CrawlShard>(Crawl(), clock, store ? store->NewWriter(42) : nullptr);
  REQUIRE(shard->Create().ok());
  return shard;
}

inline std::unique_ptr<CrawlShard> Reload(QueueStore* store, const ManualClock* clock) {
  auto shard = CrawlShard::Load(store, 42, clock);
  REQUIRE(shard.ok());
  return std::move(*shard);
}

inline crawl::v1::GetScheduleResponse Lease(CrawlShard& shard, const std::string& fetcher) {
  crawl::v1::GetScheduleRequest req;
  req.set_crawl_id(42);
  req.set_fetcher_id(fetcher);
  crawl::v1::GetScheduleResponse resp;
  REQUIRE(shard.GetSchedule(req, &resp).ok());
  return resp;
}

inline std::vector<std::string> Urls(const crawl::v1::GetScheduleResponse& s) {
  std::vector<std::string> out;
  for (const auto& u : s.urls()) out.push_back(u.url());
  return out;
}

inline crawl::v1::SubmitResultsRequest Results(uint64_t schedule, uint64_t sequence, bool final) {
  crawl::v1::SubmitResultsRequest req;
  req.set_crawl_id(42);
  req.set_fetcher_id("f");
  req.set_schedule_id(schedule);
  req.set_sequence(sequence);
  req.set_final(final);
  return req;
}

inline void AddRecord(crawl::v1::SubmitResultsRequest* req, const std::string& url, int status,
                      const std::string& robots_body = "") {
  auto* r = req->add_records();
  r->set_url(url);
  r->set_status(status);
  r->set_bytes(100);
  r->set_kind(url.ends_with("/robots.txt") ? crawl::v1::URL_KIND_ROBOTS : crawl::v1::URL_KIND_PAGE);
  r->set_robots_body(robots_body);
}

// Injects `urls` (all of a.test) as seeds and answers a.test's robots.txt
// with allow-all, so the pages can be leased next.
inline void SeedAndAllow(CrawlShard& shard, const std::vector<std::string>& urls) {
  crawl::v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = Crawl();
  for (const auto& u : urls) seeds.add_urls(u);
  crawl::v1::InjectSeedsResponse injected;
  REQUIRE(shard.InjectSeeds(seeds, &injected).ok());
  auto robots = Lease(shard, "f");
  auto r = Results(robots.schedule_id(), 0, true);
  AddRecord(&r, "http://a.test/robots.txt", 200, "User-agent: *\nDisallow:\n");
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(r, &resp).ok());
}

inline void AddLink(crawl::v1::SubmitResultsRequest* req, const std::string& url) {
  auto* l = req->add_links();
  l->set_url(url);
  l->set_referrer("http://a.test/");
  l->set_depth(1);
}

inline crawl::v1::QueueServerStats Stats(const CrawlShard& shard) {
  crawl::v1::QueueServerStats s;
  shard.FillStats(&s);
  return s;
}

inline std::vector<std::string> Log(const CrawlShard& shard) {
  crawl::v1::CrawlLogChunk chunk;
  REQUIRE(shard.ReadLog(0, 0, &chunk).ok());
  std::vector<std::string> out;
  for (const auto& r : chunk.records())
    out.push_back(r.url() + " " + std::to_string(r.status()) + " tier " + std::to_string(r.order_tier()) +
                  " cash " + std::to_string(r.order_cash()) + " importance " +
                  std::to_string(r.order_importance()));
  return out;
}

// Drives a shard through every kind of state: seeds, robots rules (one
// origin known, one still waiting), a page queue, an open lease with one URL
// reported, applied batches and the log. Returns the open schedule's id.
inline uint64_t Drive(CrawlShard& shard) {
  crawl::v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = Crawl();
  for (const char* u : {"http://a.test/", "http://a.test/1", "http://a.test/private/x", "http://b.test/"})
    seeds.add_urls(u);
  seeds.add_urls("not a url");
  crawl::v1::InjectSeedsResponse injected;
  REQUIRE(shard.InjectSeeds(seeds, &injected).ok());
  REQUIRE(injected.accepted() == 4);

  auto robots = Lease(shard, "f");
  REQUIRE(Urls(robots) == std::vector<std::string>{"http://a.test/robots.txt", "http://b.test/robots.txt"});
  auto r = Results(robots.schedule_id(), 0, true);
  AddRecord(&r, "http://a.test/robots.txt", 200, "User-agent: *\nDisallow: /private/\n");
  // b.test's robots.txt is not reported: it comes back at the queue front.
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(r, &resp).ok());

  auto pages = Lease(shard, "f");
  REQUIRE(Urls(pages) ==
          std::vector<std::string>{"http://b.test/robots.txt", "http://a.test/", "http://a.test/1"});
  auto p = Results(pages.schedule_id(), 0, false);
  AddRecord(&p, "http://a.test/", 200);
  for (const char* u :
       {"http://a.test/2", "http://a.test/3", "http://a.test/4", "http://a.test/private/y", "http://c.test/"})
    AddLink(&p, u);
  REQUIRE(shard.SubmitResults(p, &resp).ok());
  REQUIRE_FALSE(resp.duplicate());
  return pages.schedule_id();
}

}  // namespace crawl::queueserver::store_test
