// Name server NearDuplicateClusters: asks every queue server of the crawl
// and adds their clusters up (service.h, near_duplicate_merge.h).
#include <algorithm>
#include <chrono>
#include <future>
#include <optional>

#include "common/net/grpc_util.h"
#include "common/net/rpc_policy.h"
#include "nameserver/near_duplicate_merge.h"
#include "nameserver/service.h"

namespace crawl::nameserver {

grpc::Status NameServerServiceImpl::NearDuplicateClusters(grpc::ServerContext* ctx,
                                                          const v1::NearDuplicateClustersRequest* req,
                                                          v1::NearDuplicateClustersResponse* resp) {
  if (auto denied = CheckCaller(ctx, "crawl.v1.NameServer/NearDuplicateClusters"); !denied.ok())
    return denied;
  const std::optional<v1::CrawlInfo> found = registry_.Find(req->crawl_id());
  if (!found) return {grpc::StatusCode::NOT_FOUND, "no such crawl"};
  const v1::CrawlInfo& crawl = *found;
  const uint32_t limit = req->limit() == 0 ? 20 : std::min<uint32_t>(req->limit(), 10'000);
  v1::NearDuplicateClustersRequest ask;
  ask.set_crawl_id(crawl.crawl_id());
  // More than `limit` from each: a cluster spread over servers may be
  // large in the sum while small on each.
  ask.set_limit(std::min<uint32_t>(limit * 4, 10'000));
  struct Answer {
    grpc::Status status;
    v1::NearDuplicateClustersResponse response;
  };
  std::vector<std::future<Answer>> pending;
  for (const auto& qs : crawl.queue_servers()) {
    pending.push_back(std::async(std::launch::async, [address = qs.address(), &ask] {
      Answer a;
      auto stub = QueueServerFleet::StubFor(address);
      grpc::ClientContext call;
      SetTimeout(call, rpc::kScanningReads.deadline);
      a.status = stub->NearDuplicateClusters(&call, ask, &a.response);
      return a;
    }));
  }
  std::vector<v1::NearDuplicateClustersResponse> answers;
  for (size_t i = 0; i < pending.size(); ++i) {
    Answer a = pending[i].get();
    if (!a.status.ok()) {
      resp->add_errors(crawl.queue_servers(static_cast<int>(i)).id() + ": " + a.status.error_message());
      continue;
    }
    answers.push_back(std::move(a.response));
  }
  for (v1::NearDuplicateCluster& c : MergeClusters(answers, limit)) *resp->add_clusters() = std::move(c);
  return grpc::Status::OK;
}

}  // namespace crawl::nameserver
