// ResultBudget: how many fetched bytes wait for the consumer, and the
// sequences parked until it catches up (see HttpFetcher::FetchSequence).
#pragma once

#include <cstddef>
#include <deque>
#include <functional>

#include "common/base/mutex.h"

namespace crawl::fetcher {

// Flow control between the download side and a slower consumer: bodies
// delivered but not yet consumed are counted here, and while they pass
// `max_bytes` no sequence sharing the budget starts another request (the
// ones in flight finish). So the consumer's backlog stays under max_bytes
// plus one response per sequence in flight, however fast the network and
// however slow the processing (or the queue server it ships to). Without
// it a fetcher held whole schedules of downloaded pages: 1-2 GB
// (docs/BENCHMARKS.md, memory curve). Thread-safe.
class ResultBudget {
 public:
  explicit ResultBudget(size_t max_bytes) : max_bytes_(max_bytes) {}
  // A sequence about to start a request: true if it may; otherwise `resume`
  // is kept and run once Release() brings the backlog under the limit.
  bool TryStart(std::function<void()> resume);
  // Bytes handed to the consumer / consumed by it.
  void Add(size_t bytes);
  void Release(size_t bytes);
  [[nodiscard]] size_t held_bytes() const;
  [[nodiscard]] size_t waiting() const;
  // Drops the waiting sequences without resuming them (their owner is going
  // away): a parked sequence and the budget hold each other.
  void Abandon();

 private:
  const size_t max_bytes_;
  mutable Mutex mu_;
  size_t held_ GUARDED_BY(mu_) = 0;
  std::deque<std::function<void()>> waiters_ GUARDED_BY(mu_);
};

}  // namespace crawl::fetcher
