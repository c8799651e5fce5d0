// ResultBudget: the byte count and the queue of parked sequences.
#include "fetcher/http/result_budget.h"

#include <algorithm>
#include <utility>

namespace crawl::fetcher {

bool ResultBudget::TryStart(std::function<void()> resume) {
  MutexLock lock(mu_);
  if (held_ < max_bytes_) return true;
  waiters_.push_back(std::move(resume));
  return false;
}

void ResultBudget::Add(size_t bytes) {
  MutexLock lock(mu_);
  held_ += bytes;
}

void ResultBudget::Release(size_t bytes) {
  std::deque<std::function<void()>> ready;
  {
    MutexLock lock(mu_);
    held_ -= std::min(bytes, held_);
    if (held_ < max_bytes_) ready.swap(waiters_);
  }
  // Outside the lock: a resume posts to its session's strand.
  for (auto& resume : ready) resume();
}

size_t ResultBudget::held_bytes() const {
  MutexLock lock(mu_);
  return held_;
}

void ResultBudget::Abandon() {
  std::deque<std::function<void()>> dropped;
  {
    MutexLock lock(mu_);
    dropped.swap(waiters_);
  }
}

size_t ResultBudget::waiting() const {
  MutexLock lock(mu_);
  return waiters_.size();
}

}  // namespace crawl::fetcher
