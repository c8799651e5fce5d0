// A fixed pool of threads that process downloaded pages for every lane of a
// fetcher (fetcher/main.cc --process-threads). A lane's control thread hands
// it each page (ProcessFetch is thread-safe: its caches are per thread) and
// gets the result back as an event, so a schedule of one big site is
// processed on every core instead of on its lane's control thread alone.
// Jobs run in the order they were submitted, each on the first free thread.
#pragma once

#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "common/base/mutex.h"

namespace crawl::fetcher {

class ProcessPool {
 public:
  // REQUIRES: threads >= 1.
  explicit ProcessPool(size_t threads);
  // Runs the jobs still queued, then joins the threads.
  ~ProcessPool();
  ProcessPool(const ProcessPool&) = delete;
  ProcessPool& operator=(const ProcessPool&) = delete;

  // Thread-safe. The job must not throw.
  void Submit(std::function<void()> job);
  [[nodiscard]] size_t threads() const { return threads_.size(); }

 private:
  void Loop();

  Mutex mu_;
  CondVar cv_;
  std::deque<std::function<void()>> jobs_ GUARDED_BY(mu_);
  bool exit_ GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace crawl::fetcher
