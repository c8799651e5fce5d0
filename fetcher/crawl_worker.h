// The fetcher's control loop (docs/DESIGN.md §3 steps 2-6): poll the name
// server for the crawl, lease schedules from queue servers round-robin,
// download each schedule's URLs (one connection per origin, many origins at
// once), process pages, and ship results in batches that apply once.
//
// Threading: Run() is the control thread (name server polls, GetSchedule,
// page processing, or handing pages to the fetcher's ProcessPool when it has
// one, and batching what comes back); HTTP runs on an io_context thread owned by the worker,
// which hands results back through a queue; result batches are shipped
// (AddUrls, SubmitResults) by a shipping thread of the worker, one batch at a
// time in the order the control thread queued them, so pages are processed
// while a queue server ingests the previous batch. A schedule's final batch
// (which ends its lease) is queued after all its other batches, so it still
// arrives last. The fetcher keeps nothing durable: if it dies, the
// queue servers re-queue its leased URLs when the lease ends.
//
// Politeness: a schedule's URLs are grouped by host (not origin: http and
// https of one host share the group), and each group is one FetchSequence,
// so a host has at most one connection from this fetcher at a time. Up to
// max_in_flight groups run at once (each has one request in flight).
// Per event (a result or a group's end) the control thread does O(1) work
// apart from processing the page, whatever the number in flight.
//
// Acquisition bookkeeping per batch: host error counts per origin
// (SubmitResults.host_errors) and the Retry-After of 429/503 answers
// (FetchRecord.retry_after_seconds); links lose the crawl's tracking
// parameters (CrawlParams.tracking_params) before they are shipped.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/base/mutex.h"
#include "common/net/hosts_file.h"
#include "common/net/rpc_policy.h"
#include "fetcher/document/worker_client.h"
#include "fetcher/http/dns_resolver.h"
#include "fetcher/http/http_fetcher.h"
#include "fetcher/page/page_processor.h"
#include "fetcher/process_pool.h"
#include "fetcher/result_batch.h"
#include "fetcher/sitemap_gate.h"
#include "proto/crawl.grpc.pb.h"

namespace crawl::fetcher {

struct WorkerOptions {
  std::string fetcher_id;
  std::string nameserver;  // host:port
  // Optional name -> address[:port] overrides (the synthetic web). Not owned.
  const HostsFile* hosts_file = nullptr;
  // Allow private addresses even if the crawl does not (operator override).
  bool allow_private = false;
  // Hosts downloaded at the same time (= requests in flight).
  size_t max_in_flight = 500;
  // Most connections to one IP address at a time (0: no limit beyond one
  // per host).
  size_t max_connections_per_ip = 0;
  // HTTP/2: most requests in flight on one host's connection (the server's
  // SETTINGS_MAX_CONCURRENT_STREAMS may lower it); see FetcherOptions.
  size_t h2_streams = FetcherOptions{}.h2_streams;
  // DNS resolver and cache settings.
  DnsOptions dns;
  // Forward proxies (fetcher/http/proxy_config.h); none by default.
  ProxySettings proxy;
  // How often a "fetcher status" line (requests in flight, fetches, DNS
  // cache) is logged at info level while a schedule runs; 0: never.
  std::chrono::milliseconds status_interval{5000};
  // Downloaded bodies waiting to be processed and shipped, per worker (lane):
  // past this, no new request starts until processing catches up.
  size_t max_buffered_result_bytes = size_t{32} << 20;
  // How often the crawl state is polled.
  std::chrono::milliseconds poll_interval{2000};
  // While there is no crawl, the state is polled every IdlePollPeriod, at
  // this offset into the period: LaneOptions spreads a process's lanes over
  // it, so one of them sees a new crawl within period / lanes.
  std::chrono::milliseconds idle_poll_offset{0};
  // Pause after every queue server had nothing to hand out.
  std::chrono::milliseconds idle_backoff{300};
  // How long a batch is retried before it is dropped (its URLs come back
  // when the lease ends).
  std::chrono::milliseconds ship_retry_limit{rpc::kShipBatch.retry_for};
  // A batch also ships once it holds this many links, whatever its pages
  // (the crawl's results_batch_pages): 400 link-heavy pages (documentation
  // indexes have thousands of links each) would make batches of millions of
  // links, held in both processes at once and near the 256 MiB message cap.
  size_t max_batch_links = 20'000;
  // And once its records (pages, their text and mini index) hold this many
  // bytes: a lane holds up to kMaxQueuedShips + 2 batches at once
  // (fetcher_flags.h sizes it from the memory budget).
  size_t max_batch_bytes = size_t{8} << 20;
  // Threads that process pages, shared by the fetcher's lanes; null: each
  // lane processes its pages on its control thread. With a pool, a lane
  // still processes a page itself unless the page is large
  // (pool_body_bytes) or results wait behind it (pool_backlog events): a
  // small page handed to the pool and back cost more in thread hand-offs
  // than its processing (docs/BENCHMARKS.md "Cost per page"), while a page
  // of thousands of links must not hold up the rest.
  std::shared_ptr<ProcessPool> process_pool;
  size_t pool_body_bytes = 256 * 1024;
  size_t pool_backlog = 4;
  // One thread, shared by the lanes, for the pages that may be sitemaps
  // (MayBeSitemap), each processed under `sitemap_gate` and its batch
  // shipped at once (fetcher/sitemap_gate.h). Both null: such pages are
  // processed like any other, without the gate.
  std::shared_ptr<ProcessPool> sitemap_pool;
  std::shared_ptr<SitemapGate> sitemap_gate;
  // The document worker processes, shared by the lanes (workers start on
  // the first document); null: documents get the record only.
  std::shared_ptr<const DocumentParser> document_parser;
};

struct WorkerCounters {
  std::atomic<uint64_t> schedules{0};
  std::atomic<uint64_t> fetches{0};
  std::atomic<uint64_t> batches_shipped{0};
  std::atomic<uint64_t> batches_dropped{0};
  // Requests started and not yet reported (sampled at each event).
  std::atomic<uint64_t> in_flight{0};
  // Most requests in flight at once, since start.
  std::atomic<uint64_t> max_in_flight{0};
  // Body bytes received and failed fetches (HTTP >= 400 or network error).
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> fetch_errors{0};
};

// How often a worker with no crawl polls the name server: also how long it
// asks the name server to hold the poll (GetCrawlStateRequest.wait_ms).
[[nodiscard]] std::chrono::milliseconds IdlePollPeriod(std::chrono::milliseconds poll_interval);

// Time from `now` (on any steady clock, as time since its epoch) to the next
// instant that is `offset` into a `period` (never 0: a poll that took no time
// waits a whole period, not none).
[[nodiscard]] std::chrono::milliseconds UntilPollSlot(std::chrono::milliseconds now,
                                                      std::chrono::milliseconds period,
                                                      std::chrono::milliseconds offset);

class CrawlWorker {
 public:
  explicit CrawlWorker(WorkerOptions options);
  ~CrawlWorker();

  // Runs until RequestStop(). A schedule in progress is cut short: what was
  // fetched is reported, the rest goes back to its queue server.
  void Run();
  // Thread-safe; may be called from any thread. An idle lane's held
  // crawl-state poll is cancelled, so Run() returns without waiting for it.
  void RequestStop();

  [[nodiscard]] const WorkerCounters& counters() const { return counters_; }

 private:
  struct Event {
    bool done = false;  // a sequence finished (no result)
    FetchResult result;
    // A page the process pool has processed (result is then empty), for
    // the scheduled URL `scheduled_url`.
    std::optional<ProcessedPage> processed;
    std::string scheduled_url;

    static Event Fetched(FetchResult r) {
      Event e;
      e.result = std::move(r);
      return e;
    }
    static Event SequenceDone() {
      Event e;
      e.done = true;
      return e;
    }
  };
  struct ActiveCrawl {
    v1::CrawlInfo info;
    std::vector<std::unique_ptr<v1::QueueServer::Stub>> stubs;
    std::shared_ptr<HttpFetcher> http;
    url::TrackingParams tracking;  // removed from discovered links
  };

  // Polls the name server; returns false if it could not be reached.
  bool RefreshCrawlState();
  // The HTTP engine's options for a crawl: its parameters, this lane's
  // flags, and its address slot client (fetcher/address_slot_client.h).
  [[nodiscard]] FetcherOptions HttpOptionsFor(const v1::CrawlInfo& info) const;
  // The GetCrawlState call of RefreshCrawlState; a held one (wait_ms set)
  // is cancelled by RequestStop.
  grpc::Status AskCrawlState(grpc::ClientContext& ctx, const v1::GetCrawlStateRequest& req,
                             v1::GetCrawlStateResponse* resp);
  // Deadlines and retries of its calls: common/net/rpc_policy.h.
  // Downloads one schedule, processes its pages and queues its batches (the
  // final one last). Control thread only.
  void RunSchedule(size_t server_index, const v1::GetScheduleResponse& schedule);
  // One schedule's state while RunSchedule works on it (crawl_worker.cc).
  struct ScheduleRun;
  // The event handlers of RunSchedule's loop, on the control thread.
  // Starts host groups' sequences up to max_in_flight.
  void StartMoreSequences(ScheduleRun& run);
  // Starts one sequence of requests (one connection) for `urls`.
  void StartSequence(ScheduleRun& run, const std::vector<std::string>& urls, std::chrono::milliseconds delay,
                     std::chrono::milliseconds start_pace = std::chrono::milliseconds(0));
  // The next event, or nullopt after a wait with none (having polled the
  // crawl state when due, and cancelled the schedule if the crawl is over
  // or the worker stops).
  std::optional<Event> NextEvent(ScheduleRun& run);
  void HandleEvent(ScheduleRun& run, Event e);
  // A download's result; `unreleased` is its body's share of budget_, which
  // the caller releases unless this sets it to 0 (the process pool then
  // releases it).
  void OnFetched(ScheduleRun& run, FetchResult result, size_t& unreleased);
  // Processes a result here or hands it to the process pool (see
  // WorkerOptions::process_pool).
  void ProcessResult(ScheduleRun& run, const v1::ScheduledUrl& scheduled, FetchResult result,
                     size_t& unreleased);
  // Adds a processed page to the batch, and queues the batch once full.
  void AddPage(ScheduleRun& run, ProcessedPage processed, const v1::ScheduledUrl* scheduled);
  // One batch waiting for the shipping thread.
  struct ShipJob {
    std::shared_ptr<const ActiveCrawl> crawl;
    size_t server_index = 0;
    uint64_t schedule_id = 0;
    uint64_t sequence = 0;
    bool final = false;
    ResultBatch batch;
  };
  // Hands a batch to the shipping thread; blocks while kMaxQueuedShips
  // batches already wait (memory bound; the control thread then waits for
  // the queue server as it did when it shipped itself).
  void QueueShip(ShipJob job);
  // Blocks until every queued batch has been shipped (or dropped).
  void WaitShipped();
  // The shipping thread: ships queued batches in order until ship_exit_ and
  // the queue is empty.
  void ShipLoop();
  // Ships one batch: AddUrls to other owners first, then SubmitResults.
  // Runs on the shipping thread only.
  void Ship(const ActiveCrawl& crawl, size_t server_index, uint64_t schedule_id, uint64_t sequence,
            bool final, ResultBatch batch);
  // Ship's AddUrls of `batch`'s links for every other queue server, each
  // retried as rpc::kShipBatch says; false if any was given up.
  bool ShipLinksToOtherOwners(const ActiveCrawl& crawl, size_t server_index, uint64_t schedule_id,
                              ResultBatch& batch);
  template <typename Call>
  bool Retry(const std::string& what, Call&& call);
  void PushEvent(Event e);
  bool Sleep(std::chrono::milliseconds d);

  WorkerOptions options_;
  WorkerCounters counters_;
  // Counts one fetch in the Prometheus metrics and the worker counters.
  void RecordFetchMetrics(const FetchResult& result);
  void LogStatus(const HttpFetcher& http);

  std::unique_ptr<v1::NameServer::Stub> nameserver_;
  // Shared by every crawl's HttpFetcher, so the cache outlives parameter
  // changes. Null if c-ares could not be set up (each HttpFetcher then
  // reports why on every DNS lookup).
  std::shared_ptr<DnsResolver> dns_;
  std::chrono::steady_clock::time_point last_status_{};
  // Replaced (not mutated) when the crawl or its parameters change; a
  // schedule in progress keeps the one it started with.
  std::shared_ptr<const ActiveCrawl> crawl_;
  std::chrono::steady_clock::time_point last_poll_{};
  size_t next_server_ = 0;
  // (crawl id, queue server id) this lane has leased from since it started:
  // its first GetSchedule to each says lane_started (crawl.proto), which
  // ends what an earlier process of this lane left leased there.
  std::set<std::pair<uint64_t, std::string>> leased_from_;

  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::thread io_thread_;

  Mutex mu_;
  CondVar cv_;
  std::deque<Event> events_ GUARDED_BY(mu_);
  std::atomic<int> notifying_{0};  // PushEvent calls between their push and their notify
  // The bodies in events_ (and the one being processed) against
  // options_.max_buffered_result_bytes.
  std::shared_ptr<ResultBudget> budget_;
  std::atomic<bool> stop_{false};
  // The idle long poll in flight (RefreshCrawlState), cancelled by
  // RequestStop so a stop does not wait for the name server to answer.
  Mutex poll_mu_;
  grpc::ClientContext* held_poll_ GUARDED_BY(poll_mu_) = nullptr;

  // Batches waiting for the shipping thread, oldest first.
  static constexpr size_t kMaxQueuedShips = 2;
  Mutex ship_mu_;
  CondVar ship_cv_;
  std::deque<ShipJob> ships_ GUARDED_BY(ship_mu_);
  bool shipping_ GUARDED_BY(ship_mu_) = false;  // a batch is being shipped
  bool ship_exit_ GUARDED_BY(ship_mu_) = false;
  uint64_t add_urls_sequence_ = 0;  // shipping thread only
  std::thread ship_thread_;
};

}  // namespace crawl::fetcher
