// The name server (docs/DESIGN.md §1): the gRPC facade of
// crawl.v1.NameServer. Each handler checks who may call it, then delegates to
// the rooms behind it: the crawl registry (crawl_registry.h), the queue-server
// fleet (queue_server_fleet.h), the monitor of the active crawl
// (crawl_monitor.h) and the fetchers seen (fetcher_tracker.h).
//
// Threading: rpc handlers run on gRPC's thread pool; the monitor runs on its
// own thread. Each room guards its own state; start_mu_ serialises the calls
// that start, stop, resume or change a crawl end to end.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "common/base/status.h"
#include "common/security/authorizer.h"
#include "nameserver/crawl_monitor.h"
#include "nameserver/crawl_registry.h"
#include "nameserver/fetcher_tracker.h"
#include "nameserver/log_stream.h"
#include "nameserver/queue_server_fleet.h"
#include "nameserver/registry_store.h"
#include "nameserver/start_fault.h"
#include "proto/crawl.grpc.pb.h"

namespace crawl::nameserver {

// The longest GetCrawlState holds an idle fetcher's long poll
// (GetCrawlStateRequest.wait_ms), and CrawlStatus a waiting `crawlctl
// wait` (CrawlStatusRequest.wait_ms).
inline constexpr uint32_t kMaxCrawlStateWaitMs = 1000;

// Fills the defaults of unset crawl parameters and checks the rest.
[[nodiscard]] Status NormalizeParams(v1::CrawlParams* params);

class NameServerServiceImpl final : public v1::NameServer::Service {
 public:
  struct Options {
    // A queue server unheard of for this long is not offered to new crawls.
    std::chrono::milliseconds member_timeout{10'000};
    // How often the monitor polls the active crawl's queue servers.
    std::chrono::milliseconds poll_interval{250};
    // Fault injection into StartCrawl (nameserver/start_fault.h): tests only.
    StartFaultHook start_fault = ExitAtStartFault;
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

  // StartCrawl, StopCrawl, ResumeCrawl, SetCrawlParams, ListCrawls,
  // CrawlStatus, Search and GetCachedPage also take a null `ctx`: an
  // in-process caller that has checked the role itself (the console,
  // nameserver/console/console.h), so both paths run the same code.
  grpc::Status RegisterQueueServer(grpc::ServerContext*, const v1::RegisterQueueServerRequest*,
                                   v1::RegisterQueueServerResponse*) override;
  grpc::Status Heartbeat(grpc::ServerContext*, const v1::HeartbeatRequest*, v1::HeartbeatResponse*) override;
  grpc::Status GetCrawlState(grpc::ServerContext*, const v1::GetCrawlStateRequest*,
                             v1::GetCrawlStateResponse*) override;
  grpc::Status StartCrawl(grpc::ServerContext*, const v1::StartCrawlRequest*,
                          v1::StartCrawlResponse*) override;
  grpc::Status StopCrawl(grpc::ServerContext*, const v1::StopCrawlRequest*, v1::StopCrawlResponse*) override;
  grpc::Status CrawlStatus(grpc::ServerContext*, const v1::CrawlStatusRequest*,
                           v1::CrawlStatusResponse*) override;
  grpc::Status ListCrawls(grpc::ServerContext*, const v1::ListCrawlsRequest*,
                          v1::ListCrawlsResponse*) override;
  grpc::Status ListQueueServers(grpc::ServerContext*, const v1::ListQueueServersRequest*,
                                v1::ListQueueServersResponse*) override;
  grpc::Status GetCrawlLog(grpc::ServerContext*, const v1::GetCrawlLogRequest*,
                           grpc::ServerWriter<v1::CrawlLogChunk>*) override;
  grpc::Status ResumeCrawl(grpc::ServerContext*, const v1::ResumeCrawlRequest*,
                           v1::ResumeCrawlResponse*) override;
  grpc::Status SetCrawlParams(grpc::ServerContext*, const v1::SetCrawlParamsRequest*,
                              v1::SetCrawlParamsResponse*) override;
  // Fans a query out to the crawl's queue servers and merges their results
  // (nameserver/search_fanout.h, where it is implemented).
  grpc::Status Search(grpc::ServerContext*, const v1::SearchRequest*, v1::SearchResponse*) override;
  // The crawl's largest near-duplicate clusters: every queue server's,
  // added up (near_duplicate_merge.h; near_duplicate_fanout.cc).
  grpc::Status NearDuplicateClusters(grpc::ServerContext*, const v1::NearDuplicateClustersRequest*,
                                     v1::NearDuplicateClustersResponse*) override;
  // Asks the crawl's queue servers for a cached page (search_fanout.cc).
  grpc::Status GetCachedPage(grpc::ServerContext*, const v1::CachedPageRequest*,
                             v1::CachedPageResponse*) override;
  // Deletes a crawl that is not running: from the registry, then from each
  // of its queue servers (data and WARC files); those not reached keep a
  // pending delete that the monitor retries once they are live again.
  grpc::Status DeleteCrawl(grpc::ServerContext*, const v1::DeleteCrawlRequest*,
                           v1::DeleteCrawlResponse*) override;
  // Tells live queue servers of pending deletes to drop their crawls (the
  // monitor calls it every few seconds; tests call it directly).
  void RetryPendingDeletes() { monitor_.RetryPendingDeletes(); }

  // The log of crawl `crawl_id` (0: the active, else the latest) with
  // `req`'s filters, streamed to `sink` as GetCrawlLog streams it
  // (nameserver/log_stream.h). The console calls it having checked the role.
  [[nodiscard]] grpc::Status StreamLog(uint64_t crawl_id, const v1::GetCrawlLogRequest& req,
                                       const LogSink& sink);

  // One host's queue in crawl `crawl_id` (0: the active, else the latest),
  // from the queue server that owns the host (QueueServerFleet::HostQueue).
  // The console calls it having checked the role; NOT_FOUND for no such
  // crawl.
  [[nodiscard]] grpc::Status HostQueue(uint64_t crawl_id, const v1::HostQueueRequest& req,
                                       v1::HostQueueResponse* resp);

  // The cluster-wide connection slots of IP address `address` in crawl
  // `crawl_id`, from the queue server that owns the address
  // (QueueServerFleet::AddressStatus). The console calls it having checked
  // the role; NOT_FOUND for no such crawl.
  [[nodiscard]] grpc::Status AddressStatusOf(uint64_t crawl_id, const std::string& address,
                                             v1::AddressStatusResponse* resp);

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
    using FetcherView = FetcherTracker::View;
    std::vector<FetcherView> fetchers;
    // Progress of the shown crawl over time (oldest first), and each
    // fetcher's totals for it (FetcherTracker::ViewsOf; every fetcher's
    // process numbers when there is no crawl).
    using Sample = ProgressSample;
    std::vector<Sample> history;
    uint64_t history_crawl = 0;
  };
  [[nodiscard]] Snapshot TakeSnapshot();
  // A crawl's progress samples (CrawlMonitor::HistoryOf) and its fetchers
  // with their totals for it (FetcherTracker::ViewsOf): kept after it
  // ended, in memory, for the last few crawls.
  [[nodiscard]] std::vector<ProgressSample> ProgressOf(uint64_t crawl_id) const;
  [[nodiscard]] std::vector<FetcherTracker::View> FetchersOf(uint64_t crawl_id) const;

 private:
  const security::Authorizer* auth_ = &security::Authorizer::AllowAll();
  // auth_->Check for a gRPC caller; OK for an in-process one (ctx null).
  [[nodiscard]] grpc::Status CheckCaller(const grpc::ServerContext* ctx, std::string_view method) const {
    return ctx ? auth_->Check(*ctx, method) : grpc::Status::OK;
  }
  const Clock* clock_;
  StartFaultHook start_fault_;
  CrawlRegistry registry_;
  QueueServerFleet fleet_;
  FetcherTracker fetchers_;
  // A start that failed at a queue server: its queue servers drop it.
  void RollBackStart(const v1::CrawlInfo& crawl);
  std::mutex start_mu_;   // serialises StartCrawl/StopCrawl/ResumeCrawl/SetCrawlParams/DeleteCrawl end to end
  CrawlMonitor monitor_;  // last: its thread stops before the rest goes
};

}  // namespace crawl::nameserver
