// Registration and heartbeats (nameserver_link.h).
#include "queueserver/nameserver_link.h"

#include <spdlog/spdlog.h>

#include "common/net/grpc_util.h"
#include "common/net/rpc_policy.h"

namespace crawl::queueserver {

NameServerLink::NameServerLink(std::string nameserver, v1::QueueServerInfo self,
                               QueueServerServiceImpl* service, std::chrono::milliseconds interval)
    : nameserver_(std::move(nameserver)), self_(std::move(self)), service_(service), interval_(interval) {}

NameServerLink::~NameServerLink() { Stop(); }

void NameServerLink::Start() {
  thread_ = std::thread([this] { Run(); });
}

void NameServerLink::Stop() {
  {
    MutexLock lock(mu_);
    stop_ = true;
  }
  cv_.NotifyAll();
  if (thread_.joinable()) thread_.join();
}

void NameServerLink::Nudge() {
  {
    MutexLock lock(mu_);
    nudged_ = true;
  }
  cv_.NotifyAll();
}

void NameServerLink::Run() {
  auto stub = v1::NameServer::NewStub(MakeChannel(nameserver_, {security::Role::kNameServer}));
  bool registered = false;
  bool warned = false;
  bool became_idle = false;
  for (;;) {
    service_->Tick();
    if (!registered) {
      grpc::ClientContext ctx;
      SetTimeout(ctx, rpc::kQueueServerHeartbeat.deadline);
      v1::RegisterQueueServerRequest req;
      *req.mutable_server() = self_;
      v1::RegisterQueueServerResponse resp;
      grpc::Status s = stub->RegisterQueueServer(&ctx, req, &resp);
      if (s.ok()) {
        registered = true;
        warned = false;
        spdlog::info("registered with name server {} as {}", nameserver_, self_.id());
        if (resp.has_active_crawl()) service_->JoinCrawl(resp.active_crawl());
      } else if (!warned) {
        spdlog::warn("cannot register with name server {}: {} (retrying)", nameserver_, s.error_message());
        warned = true;
      }
    } else {
      grpc::ClientContext ctx;
      SetTimeout(ctx, rpc::kQueueServerHeartbeat.deadline);
      v1::HeartbeatRequest req;
      *req.mutable_server() = self_;
      service_->FillStats(req.mutable_stats());
      req.set_became_idle(became_idle);
      v1::HeartbeatResponse resp;
      grpc::Status s = stub->Heartbeat(&ctx, req, &resp);
      if (s.ok() && !resp.known()) registered = false;
      if (!s.ok() && !warned) {
        spdlog::warn("heartbeat to {} failed: {}", nameserver_, s.error_message());
        warned = true;
      } else if (s.ok()) {
        warned = false;
      }
    }
    MutexLock lock(mu_);
    const auto deadline =
        std::chrono::steady_clock::now() + (registered ? interval_ : std::chrono::milliseconds(300));
    while (!stop_ && !nudged_ && cv_.WaitUntil(mu_, deadline)) {
    }
    if (stop_) return;
    became_idle = nudged_;
    nudged_ = false;
  }
}

}  // namespace crawl::queueserver
