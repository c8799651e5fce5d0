#include "fetcher/process_pool.h"

#include <utility>

namespace crawl::fetcher {

ProcessPool::ProcessPool(size_t threads) {
  threads_.reserve(threads);
  for (size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { Loop(); });
}

ProcessPool::~ProcessPool() {
  {
    MutexLock lock(mu_);
    exit_ = true;
  }
  cv_.NotifyAll();
  for (std::thread& t : threads_) t.join();
}

void ProcessPool::Submit(std::function<void()> job) {
  {
    MutexLock lock(mu_);
    jobs_.push_back(std::move(job));
  }
  cv_.NotifyOne();
}

void ProcessPool::Loop() {
  for (;;) {
    std::function<void()> job;
    {
      MutexLock lock(mu_);
      while (!exit_ && jobs_.empty()) cv_.Wait(mu_);
      if (jobs_.empty()) return;  // exit_ and nothing left
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

}  // namespace crawl::fetcher
