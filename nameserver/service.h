// The name server (DESIGN.md section 1): crawl registry, queue-server
// membership, admin calls, and the monitor that polls queue servers and ends
// a crawl when it is done. gRPC adapter for crawl.v1.NameServer.
//
// Threading: rpc handlers run on gRPC's thread pool; the monitor runs on its
// own thread. Registry and membership are guarded by mu_; calls to queue
// servers are made without holding it.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "nameserver/completion.h"
#include "proto/crawl.grpc.pb.h"

namespace crawl::nameserver {

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
  NameServerServiceImpl(Options options, const Clock* clock);
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

 private:
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

  const Options options_;
  const Clock* clock_;

  std::mutex mu_;
  std::map<std::string, Member> members_;        // GUARDED_BY(mu_), by id
  std::map<uint64_t, v1::CrawlInfo> crawls_;     // GUARDED_BY(mu_), by id
  uint64_t active_crawl_ = 0;                    // GUARDED_BY(mu_), 0 = none
  // Latest Stats per queue server, per crawl: polled while the crawl runs,
  // and once more when it ends (so a finished crawl reports exact totals).
  std::map<uint64_t, std::map<std::string, v1::QueueServerStats>> crawl_stats_;  // GUARDED_BY(mu_)
  std::unique_ptr<CompletionDetector> detector_;  // GUARDED_BY(mu_)
  std::mutex start_mu_;  // serialises StartCrawl/StopCrawl end to end

  std::mutex monitor_mu_;
  std::condition_variable monitor_cv_;
  bool monitor_stop_ = false;  // GUARDED_BY(monitor_mu_)
  std::thread monitor_;
};

}  // namespace crawl::nameserver
