// Runs the document workers' posix_spawn calls on one thread that lives as
// long as the DocumentParser (fetcher/document/worker_client.h): a worker
// asks for PR_SET_PDEATHSIG, which fires when the *thread* that started it
// ends, not the process, so workers started from short-lived threads would
// be killed with them.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace crawl::fetcher {

class WorkerSpawner {
 public:
  WorkerSpawner();
  // Joins the thread (workers it started then get SIGKILL: their owner is
  // going away too).
  ~WorkerSpawner();
  WorkerSpawner(const WorkerSpawner&) = delete;
  WorkerSpawner& operator=(const WorkerSpawner&) = delete;

  // Runs `job` on the spawner thread and returns when it is done.
  // Thread-safe; jobs run one at a time.
  void Run(const std::function<void()>& job);

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable cv_;
  const std::function<void()>* job_ = nullptr;
  bool done_ = false;
  bool stop_ = false;
  std::mutex run_mu_;  // one Run at a time
  std::thread thread_;
};

}  // namespace crawl::fetcher
