// The name server (DESIGN.md section 1): crawl registry, queue-server
// membership, admin calls, and the monitor that polls queue servers and ends
// a crawl when it is done. gRPC adapter for crawl.v1.NameServer.
//
// Threading: rpc handlers run on gRPC's thread pool; the monitor runs on its
// own thread. Registry and membership are guarded by mu_; calls to queue
// servers are made without holding it.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "common/security/authorizer.h"
#include "common/status.h"
#include "nameserver/completion.h"
#include "nameserver/registry_store.h"
#include "proto/crawl.grpc.pb.h"

namespace crawl::nameserver {

// Registers the search metrics (search_fanout.cc) so they are exported
// before the first query.
void RegisterSearchMetrics();

// Fills the defaults of unset crawl parameters and checks the rest.
[[nodiscard]] Status NormalizeParams(v1::CrawlParams* params);

class NameServerServiceImpl final : public v1::NameServer::Service {
 public:
  struct Options {
    // A queue server unheard of for this long is not offered to new crawls.
    std::chrono::milliseconds member_timeout{10'000};
    // How often the monitor polls the active crawl's queue servers.
    std::chrono::milliseconds poll_interval{250};
  };
  // Starts from what `store` kept (crawls, active crawl, members, numbers)
  // and writes every change through to it. `store` must outlive the service.
  NameServerServiceImpl(Options options, const Clock* clock, RegistryStore* store);
  // Loads the store. Call once before serving.
  [[nodiscard]] Status Load();

  // Who may call which RPC (common/security/authorizer.h); allows everything
  // until set. `auth` must outlive the service. REQUIRES: before serving.
  void SetAuthorizer(const security::Authorizer* auth) { auth_ = auth; }
  ~NameServerServiceImpl() override;

  // Starts and stops the monitor thread. Stop before destroying the server.
  void StartMonitor();
  void StopMonitor();

  grpc::Status RegisterQueueServer(grpc::ServerContext*, const v1::RegisterQueueServerRequest*,
                                   v1::RegisterQueueServerResponse*) override;
  grpc::Status Heartbeat(grpc::ServerContext*, const v1::HeartbeatRequest*, v1::HeartbeatResponse*) override;
  grpc::Status GetCrawlState(grpc::ServerContext*, const v1::GetCrawlStateRequest*,
                             v1::GetCrawlStateResponse*) override;
  grpc::Status StartCrawl(grpc::ServerContext*, const v1::StartCrawlRequest*, v1::StartCrawlResponse*) override;
  grpc::Status StopCrawl(grpc::ServerContext*, const v1::StopCrawlRequest*, v1::StopCrawlResponse*) override;
  grpc::Status CrawlStatus(grpc::ServerContext*, const v1::CrawlStatusRequest*, v1::CrawlStatusResponse*) override;
  grpc::Status ListCrawls(grpc::ServerContext*, const v1::ListCrawlsRequest*, v1::ListCrawlsResponse*) override;
  grpc::Status ListQueueServers(grpc::ServerContext*, const v1::ListQueueServersRequest*,
                                v1::ListQueueServersResponse*) override;
  grpc::Status GetCrawlLog(grpc::ServerContext*, const v1::GetCrawlLogRequest*,
                           grpc::ServerWriter<v1::CrawlLogChunk>*) override;
  grpc::Status ResumeCrawl(grpc::ServerContext*, const v1::ResumeCrawlRequest*, v1::ResumeCrawlResponse*) override;
  grpc::Status SetCrawlParams(grpc::ServerContext*, const v1::SetCrawlParamsRequest*,
                              v1::SetCrawlParamsResponse*) override;
  // Fans a query out to the crawl's queue servers and merges their results
  // (nameserver/search_fanout.h, where it is implemented).
  grpc::Status Search(grpc::ServerContext*, const v1::SearchRequest*, v1::SearchResponse*) override;
  // Asks the crawl's queue servers for a cached page (search_fanout.cc).
  grpc::Status GetCachedPage(grpc::ServerContext*, const v1::CachedPageRequest*, v1::CachedPageResponse*) override;

  // What the status page shows (nameserver/status_page.h): a consistent copy.
  struct Snapshot {
    std::map<uint64_t, v1::CrawlInfo> crawls;
    uint64_t active_crawl = 0;
    struct MemberView {
      v1::QueueServerInfo info;
      int64_t last_seen_ms_ago = -1;  // -1: not heard from since start
      v1::QueueServerStats stats;
    };
    std::vector<MemberView> members;
    // Last numbers per queue server of the shown crawl (active, else latest).
    std::map<std::string, v1::QueueServerStats> crawl_stats;
    struct FetcherView {
      std::string id;
      int64_t last_seen_ms_ago = 0;
      v1::FetcherStats stats;
    };
    std::vector<FetcherView> fetchers;
    // Progress of the shown crawl over time (oldest first).
    struct Sample {
      int64_t unix_ms = 0;
      uint64_t pages = 0, bytes = 0, frontier = 0, errors = 0, urls_seen = 0;
    };
    std::vector<Sample> history;
    uint64_t history_crawl = 0;
  };
  [[nodiscard]] Snapshot TakeSnapshot();

 private:
  const security::Authorizer* auth_ = &security::Authorizer::AllowAll();
  struct Member {
    v1::QueueServerInfo info;
    int64_t last_seen_ms = 0;
    v1::QueueServerStats stats;
  };

  void MonitorLoop();
  // Polls every queue server of the active crawl once; ends the crawl when done.
  void PollActiveCrawl();
  // Asks every queue server of `crawl` for its Stats; complete is false when
  // one did not answer for this crawl. Makes RPCs: REQUIRES mu_ not held.
  // `page_caps` (by server id), when given, are sent along: each server's
  // share of the crawl's page budget.
  std::vector<v1::QueueServerStats> PollStats(const v1::CrawlInfo& crawl, bool* complete,
                                              const std::map<std::string, uint64_t>* page_caps = nullptr);
  // Ends crawl `id` with `state` and tells its queue servers.
  void EndCrawl(uint64_t id, v1::CrawlState state, const std::string& reason);
  std::unique_ptr<v1::QueueServer::Stub> StubFor(const std::string& address);
  // Crawl by id, 0 = active or else latest. REQUIRES: mu_ held.
  v1::CrawlInfo* FindCrawl(uint64_t id);
  // Sends `crawl` (no seeds) to each of its queue servers, so they take up
  // its state and parameters. Makes RPCs: REQUIRES mu_ not held. Returns
  // the ids of the servers that could not be told.
  std::vector<std::string> TellQueueServers(const v1::CrawlInfo& crawl);
  // Logs a failed registry write: the change holds in memory, and the next
  // write of the same record carries it.
  static void NoteStoreError(const Status& s);
  // Appends a progress sample of `crawl_id` from crawl_stats_ (at most one
  // per 2 s). REQUIRES: mu_ held.
  void RecordSample(uint64_t crawl_id);
  // Sets the name server's Prometheus gauges. REQUIRES: mu_ not held.
  void UpdateMembershipGauges();

  const Options options_;
  const Clock* clock_;
  RegistryStore* store_;

  std::mutex mu_;
  std::map<std::string, Member> members_;        // GUARDED_BY(mu_), by id
  std::map<uint64_t, v1::CrawlInfo> crawls_;     // GUARDED_BY(mu_), by id
  uint64_t active_crawl_ = 0;                    // GUARDED_BY(mu_), 0 = none
  // Latest Stats per queue server, per crawl: polled while the crawl runs,
  // and once more when it ends (so a finished crawl reports exact totals).
  std::map<uint64_t, std::map<std::string, v1::QueueServerStats>> crawl_stats_;  // GUARDED_BY(mu_)
  std::unique_ptr<CompletionDetector> detector_;  // GUARDED_BY(mu_)
  // Fetchers as they last polled (memory only: they re-appear within a poll).
  struct FetcherSeen {
    int64_t last_seen_ms = 0;
    v1::FetcherStats stats;
  };
  std::map<std::string, FetcherSeen> fetchers_;  // GUARDED_BY(mu_)
  // Progress samples of the active crawl, one per kSampleMs at most.
  std::deque<Snapshot::Sample> history_;  // GUARDED_BY(mu_)
  uint64_t history_crawl_ = 0;            // GUARDED_BY(mu_)
  std::mutex start_mu_;  // serialises StartCrawl/StopCrawl end to end

  std::mutex monitor_mu_;
  std::condition_variable monitor_cv_;
  bool monitor_stop_ = false;  // GUARDED_BY(monitor_mu_)
  std::thread monitor_;
};

}  // namespace crawl::nameserver
