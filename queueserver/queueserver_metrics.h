// The queue server's Prometheus metrics (names as deploy/grafana's dashboard
// expects), all registered at start with their known series at zero (the
// rule is in common/base/metrics.h). Per-tier frontier series appear as tiers are
// seen; tier 0 is there from the start.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/base/metrics.h"
#include "proto/crawl.pb.h"
#include "queueserver/frontier/origin_pace.h"
#include "queueserver/store/queue_store.h"

namespace crawl::queueserver {

// Thread-safe for the metrics themselves (atomic); FromStats and CrawlEnded
// keep the set of tiers shown. REQUIRES: FromStats and CrawlEnded are called
// under one lock (the service's).
struct QueueServerMetrics {
  // Registers every family in `registry`. The registry must outlive this.
  explicit QueueServerMetrics(prometheus::Registry& registry);

  // A SubmitResults or AddUrls batch: rpc "submit_results" or "add_urls".
  void Batch(const char* rpc, const grpc::Status& s, bool duplicate);
  // The active crawl's stats, and the leases expired so far (a total).
  void FromStats(const v1::QueueServerStats& st, uint64_t leases_expired);
  // The crawl ended: nothing is queued any more.
  void CrawlEnded() {
    ZeroTiersBut({});
    Politeness({}, 0, 0);
  }
  // The index's stats (set with every stats fill).
  void IndexStats(const v1::QueueServerStats& st);
  // Politeness of the active crawl (docs/ARCHITECTURE.md "Politeness per address and pacing"): `top` (at most
  // kPaceHostsShown hosts, largest pace first) replaces the host series
  // shown before (a host that left the top loses its series), and the
  // hosts backed off and parked now. Bounded cardinality: at most
  // kPaceHostsShown hosts per family.
  void Politeness(const std::vector<HostPace>& top, uint64_t backing_off, uint64_t parked);
  static constexpr size_t kPaceHostsShown = 20;
  // The store's memory now (QueueStore::FitMemoryToData).
  void StoreMemory(const QueueStore::MemoryUse& use);

  prometheus::Family<prometheus::Counter>& schedules;
  prometheus::Counter& leased;
  prometheus::Counter& expired;
  prometheus::Counter& leased_urls;
  prometheus::Family<prometheus::Counter>& batches;
  prometheus::Family<prometheus::Gauge>& frontier;
  prometheus::Gauge& urls_seen;
  prometheus::Family<prometheus::Gauge>& refused;
  prometheus::Gauge& over_budget;
  prometheus::Gauge& trap_refused;
  prometheus::Gauge& due_pages;  // recrawl
  prometheus::Family<prometheus::Gauge>& revisits;
  prometheus::Gauge& revisits_entered;
  prometheus::Gauge& revisits_unchanged;
  prometheus::Gauge& revisits_changed;
  prometheus::Gauge& index_documents;
  prometheus::Family<prometheus::Gauge>& index_pages;
  prometheus::Gauge& index_replaced;
  prometheus::Gauge& index_removed;
  prometheus::Gauge& index_compacted;
  prometheus::Family<prometheus::Gauge>& host_pace;
  prometheus::Family<prometheus::Gauge>& host_response;
  prometheus::Gauge& hosts_backing_off;
  prometheus::Gauge& hosts_parked;
  prometheus::Family<prometheus::Gauge>& store_memory;

 private:
  void ZeroTiersBut(const std::set<int32_t>& now);

  uint64_t expired_seen_ = 0;
  std::set<int32_t> tiers_shown_{0};
  // The host series exported now: pace and response gauges by host.
  std::map<std::string, std::pair<prometheus::Gauge*, prometheus::Gauge*>> hosts_shown_;
};

// The process's metrics, on metrics::Registry(); built on first use.
[[nodiscard]] QueueServerMetrics& Metrics();

}  // namespace crawl::queueserver
