#include "fetcher/process_pool.h"

#include <utility>

namespace crawl::fetcher {

ProcessPool::ProcessPool(size_t threads) {
  threads_.reserve(threads);
  for (size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { Loop(); });
}

ProcessPool::~ProcessPool() {
  {
    std::lock_guard lock(mu_);
    exit_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ProcessPool::Submit(std::function<void()> job) {
  {
    std::lock_guard lock(mu_);
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
}

void ProcessPool::Loop() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return exit_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // exit_ and nothing left
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

}  // namespace crawl::fetcher
