// The document workers' spawner thread (worker_spawner.h).
#include "fetcher/document/worker_spawner.h"

namespace crawl::fetcher {

WorkerSpawner::WorkerSpawner() : thread_([this] { Loop(); }) {}

WorkerSpawner::~WorkerSpawner() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void WorkerSpawner::Run(const std::function<void()>& job) {
  std::lock_guard run(run_mu_);
  std::unique_lock lock(mu_);
  job_ = &job;
  done_ = false;
  cv_.notify_all();
  cv_.wait(lock, [this] { return done_; });
  job_ = nullptr;
}

void WorkerSpawner::Loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || (job_ != nullptr && !done_); });
    if (stop_) return;
    (*job_)();
    done_ = true;
    cv_.notify_all();
  }
}

}  // namespace crawl::fetcher
