// One queue server's share of one crawl: the frontier of the hosts it owns,
// its crawl log, counters, and the record of applied batches that makes
// retried SubmitResults/AddUrls calls apply once (DESIGN.md section 3 step 6).
//
// Takes and fills wire messages so the gRPC service stays a thin adapter;
// holds no sockets and reads time from an injected clock. Not thread-safe:
// the service serialises calls.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "proto/crawl.pb.h"
#include "queueserver/frontier.h"

namespace crawl::queueserver {

class CrawlShard {
 public:
  // `clock` must outlive the shard.
  CrawlShard(const v1::CrawlInfo& crawl, const Clock* clock);

  [[nodiscard]] uint64_t crawl_id() const { return crawl_.crawl_id(); }
  [[nodiscard]] const v1::CrawlInfo& crawl() const { return crawl_; }

  void InjectSeeds(const v1::InjectSeedsRequest& req, v1::InjectSeedsResponse* resp);
  void GetSchedule(const v1::GetScheduleRequest& req, v1::GetScheduleResponse* resp);
  void SubmitResults(const v1::SubmitResultsRequest& req, v1::SubmitResultsResponse* resp);
  void AddUrls(const v1::AddUrlsRequest& req, v1::AddUrlsResponse* resp);
  // Marks the crawl ended: no more schedules are handed out.
  void End(v1::CrawlState state);
  // Re-queues expired leases and due robots.txt retries.
  void Tick();
  void FillStats(v1::QueueServerStats* stats) const;
  // New URLs are leased only while pages fetched + URLs leased stay below
  // `cap` (this server's share of the page budget).
  void SetPageCap(uint64_t cap) { page_cap_ = cap; }
  // Records [offset, offset+limit) of the crawl log, in arrival order.
  void ReadLog(uint64_t offset, uint32_t limit, v1::CrawlLogChunk* chunk) const;

 private:
  void AddLink(const v1::DiscoveredLink& link);

  v1::CrawlInfo crawl_;
  const Clock* clock_;
  Frontier frontier_;
  bool ended_ = false;
  std::optional<uint64_t> page_cap_;
  std::vector<v1::FetchRecord> log_;
  std::set<std::string> applied_batches_;
  uint64_t pages_fetched_ = 0;
  uint64_t fetch_attempts_ = 0;
  uint64_t bytes_fetched_ = 0;
  uint64_t fetch_errors_ = 0;
};

}  // namespace crawl::queueserver
