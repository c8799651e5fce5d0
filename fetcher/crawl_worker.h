// The fetcher's control loop (DESIGN.md section 3 steps 2-6): poll the name
// server for the crawl, lease schedules from queue servers round-robin,
// download each schedule's URLs (one connection per origin, many origins at
// once), process pages, and ship results in batches that apply once.
//
// Threading: Run() is the control thread (all gRPC calls happen there);
// HTTP runs on an io_context thread owned by the worker, which hands results
// back through a queue. The fetcher keeps nothing durable: if it dies, the
// queue servers re-queue its leased URLs when the lease ends.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/hosts_file.h"
#include "fetcher/http_fetcher.h"
#include "fetcher/result_batch.h"
#include "proto/crawl.grpc.pb.h"

namespace crawl::fetcher {

struct WorkerOptions {
  std::string fetcher_id;
  std::string nameserver;  // host:port
  // Optional name -> address[:port] overrides (the synthetic web). Not owned.
  const HostsFile* hosts_file = nullptr;
  // Allow private addresses even if the crawl does not (operator override).
  bool allow_private = false;
  // Origins downloaded at the same time.
  size_t max_origins_in_flight = 64;
  // How often the crawl state is polled.
  std::chrono::milliseconds poll_interval{2000};
  // Pause after every queue server had nothing to hand out.
  std::chrono::milliseconds idle_backoff{300};
  // How long a batch is retried before it is dropped (its URLs come back
  // when the lease ends).
  std::chrono::milliseconds ship_retry_limit{120'000};
};

struct WorkerCounters {
  std::atomic<uint64_t> schedules{0};
  std::atomic<uint64_t> fetches{0};
  std::atomic<uint64_t> batches_shipped{0};
  std::atomic<uint64_t> batches_dropped{0};
};

class CrawlWorker {
 public:
  explicit CrawlWorker(WorkerOptions options);
  ~CrawlWorker();

  // Runs until RequestStop(). A schedule in progress is cut short: what was
  // fetched is reported, the rest goes back to its queue server.
  void Run();
  // Thread-safe; may be called from any thread.
  void RequestStop();

  [[nodiscard]] const WorkerCounters& counters() const { return counters_; }

 private:
  struct Event {
    bool done = false;  // a sequence finished (no result)
    FetchResult result;
  };
  struct ActiveCrawl {
    v1::CrawlInfo info;
    std::vector<std::unique_ptr<v1::QueueServer::Stub>> stubs;
    std::shared_ptr<HttpFetcher> http;
  };

  // Polls the name server; returns false if it could not be reached.
  bool RefreshCrawlState();
  void RunSchedule(size_t server_index, const v1::GetScheduleResponse& schedule);
  // Ships one batch: AddUrls to other owners first, then SubmitResults.
  void Ship(const ActiveCrawl& crawl, size_t server_index, uint64_t schedule_id, uint64_t sequence, bool final,
            ResultBatch batch);
  template <typename Call>
  bool Retry(const std::string& what, Call&& call);
  void PushEvent(Event e);
  bool Sleep(std::chrono::milliseconds d);

  WorkerOptions options_;
  WorkerCounters counters_;
  std::unique_ptr<v1::NameServer::Stub> nameserver_;
  // Replaced (not mutated) when the crawl or its parameters change; a
  // schedule in progress keeps the one it started with.
  std::shared_ptr<const ActiveCrawl> crawl_;
  std::chrono::steady_clock::time_point last_poll_{};
  size_t next_server_ = 0;
  uint64_t add_urls_sequence_ = 0;

  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::thread io_thread_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Event> events_;  // GUARDED_BY(mu_)
  std::atomic<bool> stop_{false};
};

}  // namespace crawl::fetcher
