// The queue server's near-duplicate rpcs (service.h; the logic is in
// queueserver/neardup/, docs/ARCHITECTURE.md "Near-duplicates").
#include <spdlog/spdlog.h>

#include "queueserver/service.h"

namespace crawl::queueserver {

Status QueueServerServiceImpl::EnableNearDuplicateStore(const std::string& dir) {
  auto opened = neardup::NearDuplicates::Open(dir);
  if (!opened.ok()) return opened.status();
  neardup_ = std::move(*opened);
  return Status::Ok();
}

grpc::Status QueueServerServiceImpl::MatchFingerprints(grpc::ServerContext* ctx,
                                                       const v1::MatchFingerprintsRequest* req,
                                                       v1::MatchFingerprintsResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/MatchFingerprints"); !denied.ok()) return denied;
  Status s = neardup_->Match(*req, resp);
  if (s.code() == StatusCode::kInvalidArgument)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, s.message());
  if (!s.ok()) {
    spdlog::error("crawl {}: fingerprint tables: {}", req->crawl_id(), s.ToString());
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, s.message());
  }
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::NearDuplicateClusters(grpc::ServerContext* ctx,
                                                           const v1::NearDuplicateClustersRequest* req,
                                                           v1::NearDuplicateClustersResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/NearDuplicateClusters"); !denied.ok())
    return denied;
  v1::NearDuplicateClustersRequest resolved = *req;
  if (resolved.crawl_id() == 0) {
    MutexLock lock(mu_);
    CrawlShard* shard = ShardFor(0);
    if (!shard) return grpc::Status::OK;  // no crawl here: no clusters
    resolved.set_crawl_id(shard->crawl_id());
  }
  if (Status s = neardup_->Clusters(resolved, resp); !s.ok())
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "near-duplicate clusters: " + s.message());
  return grpc::Status::OK;
}

}  // namespace crawl::queueserver
