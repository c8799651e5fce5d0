#include "queueserver/service.h"

#include <spdlog/spdlog.h>

#include "common/grpc_util.h"

namespace crawl::queueserver {
namespace {
grpc::Status UnknownCrawl(uint64_t id) {
  return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                      "this queue server has no crawl " + std::to_string(id));
}
}  // namespace

QueueServerServiceImpl::QueueServerServiceImpl(std::string id, const Clock* clock)
    : id_(std::move(id)), clock_(clock) {}

void QueueServerServiceImpl::JoinCrawl(const v1::CrawlInfo& crawl) {
  std::lock_guard lock(mu_);
  if (shard_ && shard_->crawl_id() >= crawl.crawl_id()) {
    if (shard_->crawl_id() == crawl.crawl_id() && crawl.state() != v1::CRAWL_STATE_RUNNING)
      shard_->End(crawl.state());
    return;
  }
  spdlog::info("joining crawl {}", crawl.crawl_id());
  shard_ = std::make_unique<CrawlShard>(crawl, clock_);
  if (crawl.state() != v1::CRAWL_STATE_RUNNING) shard_->End(crawl.state());
}

grpc::Status QueueServerServiceImpl::InjectSeeds(grpc::ServerContext*, const v1::InjectSeedsRequest* req,
                                                 v1::InjectSeedsResponse* resp) {
  if (req->crawl().crawl_id() == 0)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "crawl id missing");
  JoinCrawl(req->crawl());
  std::lock_guard lock(mu_);
  if (shard_->crawl_id() != req->crawl().crawl_id()) return UnknownCrawl(req->crawl().crawl_id());
  shard_->InjectSeeds(*req, resp);
  spdlog::info("crawl {}: {} of {} seeds new", req->crawl().crawl_id(), resp->accepted(), req->urls_size());
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::GetSchedule(grpc::ServerContext*, const v1::GetScheduleRequest* req,
                                                 v1::GetScheduleResponse* resp) {
  std::lock_guard lock(mu_);
  if (!shard_ || shard_->crawl_id() != req->crawl_id()) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  shard_->GetSchedule(*req, resp);
  if (resp->schedule_id() != 0)
    spdlog::debug("schedule {} ({} urls) to {}", resp->schedule_id(), resp->urls_size(), req->fetcher_id());
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::SubmitResults(grpc::ServerContext*, const v1::SubmitResultsRequest* req,
                                                   v1::SubmitResultsResponse* resp) {
  std::lock_guard lock(mu_);
  if (!shard_ || shard_->crawl_id() != req->crawl_id()) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  shard_->SubmitResults(*req, resp);
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::AddUrls(grpc::ServerContext*, const v1::AddUrlsRequest* req,
                                             v1::AddUrlsResponse* resp) {
  std::lock_guard lock(mu_);
  if (!shard_ || shard_->crawl_id() != req->crawl_id()) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  shard_->AddUrls(*req, resp);
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::Stats(grpc::ServerContext*, const v1::StatsRequest* req,
                                           v1::StatsResponse* resp) {
  std::lock_guard lock(mu_);
  resp->mutable_stats()->set_queue_server_id(id_);
  if (shard_ && (req->crawl_id() == 0 || req->crawl_id() == shard_->crawl_id()))
    shard_->FillStats(resp->mutable_stats());
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::EndCrawl(grpc::ServerContext*, const v1::EndCrawlRequest* req,
                                              v1::EndCrawlResponse*) {
  std::lock_guard lock(mu_);
  if (!shard_ || shard_->crawl_id() != req->crawl_id()) return UnknownCrawl(req->crawl_id());
  shard_->End(req->state());
  spdlog::info("crawl {} ended", req->crawl_id());
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::GetCrawlLog(grpc::ServerContext*, const v1::GetCrawlLogRequest* req,
                                                 v1::CrawlLogChunk* chunk) {
  std::lock_guard lock(mu_);
  if (!shard_ || (req->crawl_id() != 0 && shard_->crawl_id() != req->crawl_id())) {
    chunk->set_end(true);
    return grpc::Status::OK;
  }
  shard_->ReadLog(req->offset(), req->limit(), chunk);
  return grpc::Status::OK;
}

void QueueServerServiceImpl::FillStats(v1::QueueServerStats* stats) {
  std::lock_guard lock(mu_);
  stats->set_queue_server_id(id_);
  if (shard_) shard_->FillStats(stats);
}

void QueueServerServiceImpl::Tick() {
  std::lock_guard lock(mu_);
  if (shard_) shard_->Tick();
}

NameServerLink::NameServerLink(std::string nameserver, v1::QueueServerInfo self,
                               QueueServerServiceImpl* service, std::chrono::milliseconds interval)
    : nameserver_(std::move(nameserver)), self_(std::move(self)), service_(service), interval_(interval) {}

NameServerLink::~NameServerLink() { Stop(); }

void NameServerLink::Start() { thread_ = std::thread([this] { Run(); }); }

void NameServerLink::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void NameServerLink::Run() {
  auto stub = v1::NameServer::NewStub(MakeChannel(nameserver_));
  bool registered = false;
  bool warned = false;
  for (;;) {
    service_->Tick();
    if (!registered) {
      grpc::ClientContext ctx;
      SetTimeout(ctx, std::chrono::seconds(5));
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
      SetTimeout(ctx, std::chrono::seconds(5));
      v1::HeartbeatRequest req;
      *req.mutable_server() = self_;
      service_->FillStats(req.mutable_stats());
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
    std::unique_lock lock(mu_);
    if (cv_.wait_for(lock, registered ? interval_ : std::chrono::milliseconds(300),
                     [this] { return stop_; }))
      return;
  }
}

}  // namespace crawl::queueserver
