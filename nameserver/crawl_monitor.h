// The monitor of the active crawl (docs/DESIGN.md §1 and §3): a thread
// that polls the crawl's queue servers every poll interval, shares the page
// budget out among them, keeps progress samples for the status page, sets
// the name server's gauges, and ends the crawl when the CompletionDetector
// says it is done. Ending a crawl (done or stopped) is also here: the
// registry marks it, its queue servers are told, and their final numbers kept.
//
// Threading: the polling thread and rpc handlers (Watch, EndCrawl) share it;
// its own state is guarded by mu_, never held while calling the registry or
// the fleet.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/base/clock.h"
#include "common/base/mutex.h"
#include "nameserver/completion.h"
#include "nameserver/crawl_registry.h"
#include "nameserver/fetcher_tracker.h"
#include "nameserver/queue_server_fleet.h"
#include "proto/crawl.pb.h"

namespace crawl::nameserver {

// One point of a crawl's progress over time.
struct ProgressSample {
  int64_t unix_ms = 0;
  uint64_t pages = 0, bytes = 0, frontier = 0, errors = 0, urls_seen = 0;
};

// Page budget: each queue server of `crawl` may hold what it has committed
// (fetched + leased, as `last` reported) plus an even share of what is left.
// Its own later leases count against that cap, so stale numbers cannot
// overshoot. Empty when the crawl has no page budget.
[[nodiscard]] std::map<std::string, uint64_t> SharePageBudget(
    const v1::CrawlInfo& crawl, const std::map<std::string, v1::QueueServerStats>& last);

class CrawlMonitor {
 public:
  // Everything passed must outlive the monitor. Queue servers and fetchers
  // count as up in the gauges when heard from within `member_timeout`.
  CrawlMonitor(std::chrono::milliseconds poll_interval, std::chrono::milliseconds member_timeout,
               const Clock* clock, CrawlRegistry* registry, const QueueServerFleet* fleet,
               const FetcherTracker* fetchers);
  ~CrawlMonitor();

  // Starts and stops the polling thread.
  void Start();
  void Stop();

  // Judges crawl `crawl_id` afresh against page budget `max_pages`: a new,
  // resumed or changed crawl. Call before the crawl becomes active.
  void Watch(uint64_t crawl_id, uint64_t max_pages, bool continuous = false);

  // Ends running crawl `id` with `state`, tells its queue servers and keeps
  // their final numbers. Makes RPCs. Nothing happens when it is not running.
  void EndCrawl(uint64_t id, v1::CrawlState state, const std::string& reason);

  // Tells the live queue servers of every pending delete to drop the crawl
  // (CrawlRegistry::PendingDeletesToLive); the polling thread calls it
  // every kDeleteRetryMs. Makes RPCs.
  void RetryPendingDeletes();

  // Runs the next round now rather than a poll interval later: a queue
  // server of the active crawl reported itself idle (its heartbeat), so the
  // crawl may be done.
  void PollSoon();

  // Progress samples (oldest first) of crawl `*crawl_id`, the crawl
  // sampled last.
  [[nodiscard]] std::vector<ProgressSample> History(uint64_t* crawl_id) const;
  // Progress samples (oldest first) of crawl `crawl_id`: kept for the last
  // kHistoriesKept crawls sampled (memory only), finished ones included
  // (their last sample is the final numbers EndCrawl polled).
  [[nodiscard]] std::vector<ProgressSample> HistoryOf(uint64_t crawl_id) const;
  static constexpr size_t kHistoriesKept = 4;

 private:
  void Loop();
  // Polls every queue server of the active crawl once; ends the crawl when done.
  void PollActiveCrawl();
  // Feeds a polled round to the detector; the reason the crawl is done, or "".
  std::string Judge(uint64_t crawl_id, const std::vector<v1::QueueServerStats>& round, bool complete);
  // Appends a progress sample of `crawl_id` (at most one per 2 s, except
  // the `final` one of a crawl that ended, which a crawl without samples
  // gets after one of zeros at `started_ms`, so its chart has two points).
  void RecordSample(uint64_t crawl_id, const std::map<std::string, v1::QueueServerStats>& stats,
                    bool final = false, int64_t started_ms = 0);
  // Sets the name server's Prometheus gauges.
  void UpdateGauges();
  // How long until the next round: the poll interval, or kConfirmDelay when
  // the detector waits for a round to confirm an idle one.
  [[nodiscard]] std::chrono::milliseconds NextRoundIn() const;

  const std::chrono::milliseconds poll_interval_;
  const std::chrono::milliseconds member_timeout_;
  const Clock* clock_;
  CrawlRegistry* registry_;
  const QueueServerFleet* fleet_;
  const FetcherTracker* fetchers_;

  mutable Mutex mu_;
  std::unique_ptr<CompletionDetector> detector_ GUARDED_BY(mu_);
  uint64_t detector_crawl_ GUARDED_BY(mu_) = 0;
  // Progress samples of the last crawls sampled, one per kSampleMs at
  // most, by crawl; the one sampled last.
  std::map<uint64_t, std::deque<ProgressSample>> histories_ GUARDED_BY(mu_);
  uint64_t history_crawl_ GUARDED_BY(mu_) = 0;

  static constexpr int64_t kDeleteRetryMs = 2000;
  static constexpr std::chrono::milliseconds kConfirmDelay{10};
  int64_t last_delete_retry_ms_ = 0;  // polling thread only

  Mutex thread_mu_;
  CondVar thread_cv_;
  bool stop_ GUARDED_BY(thread_mu_) = false;
  bool poll_soon_ GUARDED_BY(thread_mu_) = false;
  std::thread thread_;
};

}  // namespace crawl::nameserver
