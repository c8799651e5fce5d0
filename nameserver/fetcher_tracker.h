// The fetchers the name server has heard from: each one's last poll time and
// numbers (memory only: fetchers poll GetCrawlState often, so they reappear
// within a poll after a restart). Bounded, so a client inventing ids cannot
// grow it forever. Time from the injected Clock. Thread-safe.
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

  // `clock` must outlive the tracker.
  explicit FetcherTracker(const Clock* clock) : clock_(clock) {}

  // Fetcher `id` polled now with `stats`. Empty or overlong ids are ignored.
  void Saw(const std::string& id, const v1::FetcherStats& stats);
  // How many polled within `timeout`.
  [[nodiscard]] size_t LiveCount(std::chrono::milliseconds timeout) const;
  // Every fetcher seen, by id.
  [[nodiscard]] std::vector<View> Views() const;

 private:
  struct Seen {
    int64_t last_seen_ms = 0;
    v1::FetcherStats stats;
  };
  const Clock* clock_;
  mutable Mutex mu_;
  std::map<std::string, Seen> fetchers_ GUARDED_BY(mu_);
};

}  // namespace crawl::nameserver
