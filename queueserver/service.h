// gRPC adapter for the queue server (proto service crawl.v1.QueueServer).
// Holds every crawl's shard behind one mutex; every rpc locks it, applies the
// request, commits it to the store (when there is one) and answers. Also
// keeps the queue server registered with the name server (register, then
// heartbeat with stats).
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "common/base/clock.h"
#include "common/base/mutex.h"
#include "common/base/status.h"
#include "common/security/authorizer.h"
#include "proto/crawl.grpc.pb.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/neardup/near_duplicates.h"
#include "queueserver/politeness/address_slots.h"
#include "queueserver/store/queue_store.h"
#include "queueserver/store/warc_writer.h"

namespace crawl::queueserver {

class QueueServerServiceImpl final : public v1::QueueServer::Service {
 public:
  // `store` (null: state in memory only) and `clock` must outlive the service.
  QueueServerServiceImpl(std::string id, const Clock* clock, QueueStore* store = nullptr);

  // Loads every crawl the store holds (call once, before serving).
  [[nodiscard]] Status LoadStoredCrawls();

  // Who may call which RPC (common/security/authorizer.h); allows everything
  // until set. `auth` must outlive the service. REQUIRES: before serving.
  void SetAuthorizer(const security::Authorizer* auth) { auth_ = auth; }
  // The bound of each crawl's active index partition in memory
  // (IndexOptions::partition_bytes), from the memory budget. REQUIRES:
  // before LoadStoredCrawls and serving.
  void SetIndexPartitionBytes(uint64_t bytes) { index_partition_bytes_ = bytes; }

  grpc::Status InjectSeeds(grpc::ServerContext*, const v1::InjectSeedsRequest*,
                           v1::InjectSeedsResponse*) override;
  grpc::Status GetSchedule(grpc::ServerContext*, const v1::GetScheduleRequest*,
                           v1::GetScheduleResponse*) override;
  grpc::Status SubmitResults(grpc::ServerContext*, const v1::SubmitResultsRequest*,
                             v1::SubmitResultsResponse*) override;
  grpc::Status AddUrls(grpc::ServerContext*, const v1::AddUrlsRequest*, v1::AddUrlsResponse*) override;
  grpc::Status Stats(grpc::ServerContext*, const v1::StatsRequest*, v1::StatsResponse*) override;
  grpc::Status EndCrawl(grpc::ServerContext*, const v1::EndCrawlRequest*, v1::EndCrawlResponse*) override;
  grpc::Status GetCrawlLog(grpc::ServerContext*, const v1::GetCrawlLogRequest*, v1::CrawlLogChunk*) override;
  // Searches the crawl's index (queueserver/index/search_index.h). Holds mu_ for
  // the query: crawling waits while a query runs (bounded by its timeout).
  grpc::Status Search(grpc::ServerContext*, const v1::SearchRequest*, v1::SearchResponse*) override;
  // A page from the WARC files of a crawl that keeps page caches.
  grpc::Status GetCachedPage(grpc::ServerContext*, const v1::CachedPageRequest*,
                             v1::CachedPageResponse*) override;

  // One host's queue (CrawlShard::HostQueue), for the console's host page.
  // Holds mu_ for the scan, like every handler: up to max_scan queued
  // entries read from the store (the default 1,000,000, a cap of
  // 10,000,000) during which the crawl's other requests wait: a million
  // took 0.3-0.5 s with the data in RocksDB's caches (2-core machine,
  // November 2026), longer when it comes from disk. Kept simple
  // on purpose: the wait lists, leases and the structure order's queue are
  // in memory and need the lock anyway.
  grpc::Status HostQueue(grpc::ServerContext*, const v1::HostQueueRequest*, v1::HostQueueResponse*) override;

  // Drops a crawl: its shard, its keys in the store (then compacted, outside
  // the lock), its WARC files and site reports. The name server decides
  // whether a crawl may go (it refuses running ones; a start it rolls back
  // may be running here). Idempotent.
  grpc::Status DeleteCrawl(grpc::ServerContext*, const v1::DeleteCrawlRequest*,
                           v1::DeleteCrawlResponse*) override;

  // Near-duplicate fingerprint tables and cluster counts
  // (queueserver/neardup/near_duplicates.h; service_neardup.cc): without
  // their own lock, not mu_, except to resolve crawl id 0.
  grpc::Status MatchFingerprints(grpc::ServerContext*, const v1::MatchFingerprintsRequest*,
                                 v1::MatchFingerprintsResponse*) override;
  grpc::Status NearDuplicateClusters(grpc::ServerContext*, const v1::NearDuplicateClustersRequest*,
                                     v1::NearDuplicateClustersResponse*) override;
  // Keeps the near-duplicate tables in a RocksDB database in `dir` (else in
  // memory). Call before serving.
  [[nodiscard]] Status EnableNearDuplicateStore(const std::string& dir);

  // Cluster-wide connection slots of the addresses this server owns
  // (queueserver/politeness/address_slots.h; service_politeness.cc): their
  // own lock; mu_ only to read the crawl's limits.
  grpc::Status AddressSlots(grpc::ServerContext*, const v1::AddressSlotsRequest*,
                            v1::AddressSlotsResponse*) override;
  grpc::Status AddressStatus(grpc::ServerContext*, const v1::AddressStatusRequest*,
                             v1::AddressStatusResponse*) override;

  // Crawls with keep_page_cache write WARC files under `dir`, rolled at
  // `max_file_bytes` (queueserver/store/warc_writer.h). Call before serving.
  void EnableWarc(std::string dir, uint64_t max_file_bytes);
  // The structure order's finished-site reports of crawl ID are appended to
  // DIR/crawl-ID-sites.jsonl (queueserver/site_report_log.h). Call before
  // LoadStoredCrawls and serving.
  void EnableSiteReports(std::string dir);

  // Joins `crawl` if this server does not have it yet (a new crawl ends the
  // older ones); a crawl it has (loaded from the store after a restart, for
  // example) is kept and only takes the state change.
  void JoinCrawl(const v1::CrawlInfo& crawl);
  // Current numbers for heartbeats.
  void FillStats(v1::QueueServerStats* stats);
  // Periodic work: lease expiry, robots retries.
  void Tick();
  // Called (under the service's lock) when a schedule's final batch leaves
  // the current crawl idle here (CrawlShard::Idle): NameServerLink::Nudge,
  // so the name server hears at once. Null: nobody is told.
  void SetIdleHook(std::function<void()> hook);

 private:
  const security::Authorizer* auth_ = &security::Authorizer::AllowAll();
  const std::string id_;
  const Clock* clock_;
  Mutex mu_;
  std::function<void()> idle_hook_ GUARDED_BY(mu_);
  // Returns the shard of crawl `id` (0: the current one), or null.
  CrawlShard* ShardFor(uint64_t id) REQUIRES(mu_);
  // Maps a shard call's outcome to gRPC. A failed commit leaves the shard
  // ahead of the store, so it is replaced by the stored one.
  grpc::Status Finish(uint64_t crawl_id, const Status& s) REQUIRES(mu_);
  void JoinCrawlLocked(const v1::CrawlInfo& crawl) REQUIRES(mu_);
  // The politeness metrics (QueueServerMetrics::Politeness) from the
  // current crawl's frontier, at most once per kPolitenessRefreshMs (each
  // heartbeat's FillStats and Stats call asks).
  void RefreshPolitenessMetrics() REQUIRES(mu_);
  static constexpr int64_t kPolitenessRefreshMs = 1000;
  int64_t politeness_refreshed_ms_ GUARDED_BY(mu_) = 0;
  // DeleteCrawl's work under the lock.
  Status DropCrawlLocked(uint64_t crawl_id, v1::DeleteCrawlResponse* resp) REQUIRES(mu_);

  QueueStore* const store_;
  uint64_t index_partition_bytes_ = 0;
  // The address slots of one crawl (address_slots_crawl_): a new crawl id
  // starts them afresh.
  [[nodiscard]] bool SlotLimitsFor(uint64_t crawl_id, AddressSlotTable::Limits* limits) EXCLUDES(mu_);
  AddressSlotTable address_slots_;
  static void ExportAddressSlotMetrics();  // at zero, from the start
  uint64_t address_slots_crawl_ GUARDED_BY(mu_) = 0;
  // Set in the constructor (memory) or by EnableNearDuplicateStore.
  std::unique_ptr<neardup::NearDuplicates> neardup_;

  // Page caches: WARC writer per crawl, opened on first use, with its
  // location index in the store (none without a store: the writer's own in RAM).
  WarcWriter* WarcFor(const CrawlShard& shard) REQUIRES(mu_);
  struct PageCache {
    std::unique_ptr<WarcLocationIndex> index;  // declared first: outlives the writer
    std::unique_ptr<WarcWriter> writer;
  };
  std::string warc_dir_;  // "" = no page caches
  uint64_t warc_max_file_bytes_ = 1'000'000'000;
  std::map<uint64_t, PageCache> warc_ GUARDED_BY(mu_);
  // Site reports: DIR/crawl-<id>-sites.jsonl ("" = memory only).
  void AttachSiteReports(CrawlShard& shard) REQUIRES(mu_);
  std::string report_dir_;

  // Every crawl this process has joined, by id; the highest id is current.
  // Older crawls stay for their logs and late results.
  std::map<uint64_t, std::unique_ptr<CrawlShard>> shards_ GUARDED_BY(mu_);
};

}  // namespace crawl::queueserver
