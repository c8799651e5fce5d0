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

CrawlShard* QueueServerServiceImpl::ShardFor(uint64_t id) {
  if (shards_.empty()) return nullptr;
  if (id == 0) return shards_.rbegin()->second.get();
  auto it = shards_.find(id);
  return it == shards_.end() ? nullptr : it->second.get();
}

void QueueServerServiceImpl::JoinCrawl(const v1::CrawlInfo& crawl) {
  std::lock_guard lock(mu_);
  if (CrawlShard* existing = ShardFor(crawl.crawl_id())) {
    if (crawl.state() != v1::CRAWL_STATE_RUNNING) existing->End(crawl.state());
    return;
  }
  spdlog::info("joining crawl {}", crawl.crawl_id());
  // One crawl runs at a time: a newer crawl ends whatever was still open.
  for (auto& [id, shard] : shards_) shard->End(v1::CRAWL_STATE_STOPPED);
  auto& shard = shards_[crawl.crawl_id()];
  shard = std::make_unique<CrawlShard>(crawl, clock_);
  if (crawl.state() != v1::CRAWL_STATE_RUNNING) shard->End(crawl.state());
}

grpc::Status QueueServerServiceImpl::InjectSeeds(grpc::ServerContext*, const v1::InjectSeedsRequest* req,
                                                 v1::InjectSeedsResponse* resp) {
  if (req->crawl().crawl_id() == 0)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "crawl id missing");
  JoinCrawl(req->crawl());
  std::lock_guard lock(mu_);
  CrawlShard* shard = ShardFor(req->crawl().crawl_id());
  if (!shard) return UnknownCrawl(req->crawl().crawl_id());
  shard->InjectSeeds(*req, resp);
  spdlog::info("crawl {}: {} of {} seeds new", req->crawl().crawl_id(), resp->accepted(), req->urls_size());
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::GetSchedule(grpc::ServerContext*, const v1::GetScheduleRequest* req,
                                                 v1::GetScheduleResponse* resp) {
  std::lock_guard lock(mu_);
  CrawlShard* shard = req->crawl_id() == 0 ? nullptr : ShardFor(req->crawl_id());
  if (!shard) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  shard->GetSchedule(*req, resp);
  if (resp->schedule_id() != 0)
    spdlog::debug("schedule {} ({} urls) to {}", resp->schedule_id(), resp->urls_size(), req->fetcher_id());
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::SubmitResults(grpc::ServerContext*, const v1::SubmitResultsRequest* req,
                                                   v1::SubmitResultsResponse* resp) {
  std::lock_guard lock(mu_);
  CrawlShard* shard = req->crawl_id() == 0 ? nullptr : ShardFor(req->crawl_id());
  if (!shard) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  shard->SubmitResults(*req, resp);
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::AddUrls(grpc::ServerContext*, const v1::AddUrlsRequest* req,
                                             v1::AddUrlsResponse* resp) {
  std::lock_guard lock(mu_);
  CrawlShard* shard = req->crawl_id() == 0 ? nullptr : ShardFor(req->crawl_id());
  if (!shard) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  shard->AddUrls(*req, resp);
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::Stats(grpc::ServerContext*, const v1::StatsRequest* req,
                                           v1::StatsResponse* resp) {
  std::lock_guard lock(mu_);
  resp->mutable_stats()->set_queue_server_id(id_);
  if (CrawlShard* shard = ShardFor(req->crawl_id())) {
    if (req->crawl_id() != 0 && req->limit_pages()) shard->SetPageCap(req->page_cap());
    shard->FillStats(resp->mutable_stats());
  }
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::EndCrawl(grpc::ServerContext*, const v1::EndCrawlRequest* req,
                                              v1::EndCrawlResponse*) {
  std::lock_guard lock(mu_);
  CrawlShard* shard = req->crawl_id() == 0 ? nullptr : ShardFor(req->crawl_id());
  if (!shard) return UnknownCrawl(req->crawl_id());
  shard->End(req->state());
  spdlog::info("crawl {} ended", req->crawl_id());
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::GetCrawlLog(grpc::ServerContext*, const v1::GetCrawlLogRequest* req,
                                                 v1::CrawlLogChunk* chunk) {
  std::lock_guard lock(mu_);
  CrawlShard* shard = ShardFor(req->crawl_id());
  if (!shard) {
    chunk->set_end(true);
    return grpc::Status::OK;
  }
  shard->ReadLog(req->offset(), req->limit(), chunk);
  return grpc::Status::OK;
}

void QueueServerServiceImpl::FillStats(v1::QueueServerStats* stats) {
  std::lock_guard lock(mu_);
  stats->set_queue_server_id(id_);
  if (CrawlShard* shard = ShardFor(0)) shard->FillStats(stats);
}

void QueueServerServiceImpl::Tick() {
  std::lock_guard lock(mu_);
  if (CrawlShard* shard = ShardFor(0)) shard->Tick();
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
