// The fetchers the name server has heard from: each one's last poll time and
// numbers, and its totals per crawl (memory only: fetchers poll
// GetCrawlState often, so they reappear within a poll after a restart; the
// per-crawl totals of crawls before a restart are lost). Bounded, so a
// client inventing ids cannot grow it forever. Time from the injected
// Clock. Thread-safe.
//
// Per-crawl totals: a fetcher's numbers (FetcherStats) count since its
// process started, whatever the crawl. What they grew by between two polls
// was done on the crawl the name server told the fetcher at the first of
// them (Told: a fetcher works only on the crawl its last poll gave it), so
// that growth is added to that crawl's totals; a fetcher whose numbers went
// down restarted, and its new numbers are the growth. So a finished crawl
// keeps each fetcher's work on it, the last batches after the end included,
// and a later crawl or a fetcher restart changes nothing of it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "common/base/mutex.h"
#include "proto/crawl.pb.h"

namespace crawl::nameserver {

class FetcherTracker {
 public:
  struct View {
    std::string id;
    int64_t last_seen_ms_ago = 0;
    v1::FetcherStats stats;
  };
  // Per-crawl totals are kept for this many crawls per fetcher (the latest).
  static constexpr size_t kCrawlsKept = 8;

  // `clock` must outlive the tracker.
  explicit FetcherTracker(const Clock* clock) : clock_(clock) {}

  // Fetcher `id` polled now with `stats`: their growth since its last poll
  // goes to the crawl it was told then. Empty or overlong ids are ignored.
  void Saw(const std::string& id, const v1::FetcherStats& stats);
  // Fetcher `id` was answered crawl `crawl_id` (0: none is running): it
  // works on that one until its next poll, and shows among its fetchers.
  void Told(const std::string& id, uint64_t crawl_id);
  // How many polled within `timeout`.
  [[nodiscard]] size_t LiveCount(std::chrono::milliseconds timeout) const;
  // Every fetcher seen, by id, with its process's numbers.
  [[nodiscard]] std::vector<View> Views() const;
  // The fetchers told crawl `crawl_id`, by id, with their totals for it
  // (in_flight: as last reported while on it).
  [[nodiscard]] std::vector<View> ViewsOf(uint64_t crawl_id) const;

 private:
  struct Seen {
    int64_t last_seen_ms = 0;
    v1::FetcherStats stats;
    uint64_t told_crawl = 0;
    std::map<uint64_t, v1::FetcherStats> per_crawl;
  };
  const Clock* clock_;
  mutable Mutex mu_;
  std::map<std::string, Seen> fetchers_ GUARDED_BY(mu_);
};

}  // namespace crawl::nameserver
