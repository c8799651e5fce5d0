// Calls from the name server to a crawl's queue servers (queue_server_fleet.h).
#include "nameserver/queue_server_fleet.h"

#include <grpcpp/impl/client_unary_call.h>
#include <grpcpp/impl/rpc_method.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/crawl/rendezvous.h"
#include "common/net/grpc_util.h"
#include "common/net/rpc_policy.h"
#include "common/security/authorizer.h"
#include "common/url/url.h"

namespace crawl::nameserver {
namespace {

grpc::Status TellEnded(uint64_t crawl_id, v1::CrawlState state, const v1::QueueServerInfo& qs) {
  auto stub = QueueServerFleet::StubFor(qs.address());
  grpc::ClientContext ctx;
  SetTimeout(ctx, rpc::kFleetControl.deadline);
  v1::EndCrawlRequest req;
  req.set_crawl_id(crawl_id);
  req.set_state(state);
  v1::EndCrawlResponse resp;
  return stub->EndCrawl(&ctx, req, &resp);
}

}  // namespace

std::unique_ptr<v1::QueueServer::Stub> QueueServerFleet::StubFor(const std::string& address) {
  return v1::QueueServer::NewStub(SharedChannel(address, {security::Role::kQueueServer}));
}

grpc::Status QueueServerFleet::StartCrawl(const v1::CrawlInfo& crawl, const std::vector<std::string>& seeds,
                                          const std::function<bool(size_t)>& after_each) const {
  // Partition the seeds by owning queue server (rendezvous hash of the host).
  std::vector<std::string> ids;
  for (const auto& qs : crawl.queue_servers()) ids.push_back(qs.id());
  std::vector<v1::InjectSeedsRequest> requests(ids.size());
  for (auto& r : requests) *r.mutable_crawl() = crawl;
  for (const std::string& seed : seeds) requests[OwnerIndex(ids, url::HostOf(seed))].add_urls(seed);
  for (size_t i = 0; i < requests.size(); ++i) {
    auto stub = StubFor(crawl.queue_servers(static_cast<int>(i)).address());
    grpc::ClientContext ctx;
    SetTimeout(ctx, rpc::kFleetControl.deadline);
    // Wait for the connection within the deadline instead of failing at once
    // on a channel still in its first connect attempt (a queue server that
    // registered a moment ago on a loaded machine).
    ctx.set_wait_for_ready(true);
    v1::InjectSeedsResponse r;
    grpc::Status s = stub->InjectSeeds(&ctx, requests[i], &r);
    if (!s.ok()) {
      // Nothing was registered as running; queue servers that did join are
      // told the crawl ended, so no fetcher works on a half-started crawl.
      for (size_t j = 0; j < i; ++j)
        (void)TellEnded(crawl.crawl_id(), v1::CRAWL_STATE_STOPPED, crawl.queue_servers(static_cast<int>(j)));
      // A refusal of the crawl's parameters (an unknown scoring filter) is
      // the caller's error, not an unreachable server.
      const auto code = s.error_code() == grpc::StatusCode::INVALID_ARGUMENT
                            ? grpc::StatusCode::INVALID_ARGUMENT
                            : grpc::StatusCode::UNAVAILABLE;
      return {code, "queue server " + ids[i] + " did not take its seeds: " + s.error_message()};
    }
    if (after_each && after_each(i))
      return {grpc::StatusCode::ABORTED, "fault injected after queue server " + ids[i]};
  }
  return grpc::Status::OK;
}

std::vector<std::string> QueueServerFleet::Delete(const v1::CrawlInfo& pending) const {
  std::vector<std::string> reached;
  for (const auto& qs : pending.queue_servers()) {
    auto stub = StubFor(qs.address());
    grpc::ClientContext ctx;
    SetTimeout(ctx, rpc::kFleetControl.deadline);
    v1::DeleteCrawlRequest req;
    req.set_crawl_id(pending.crawl_id());
    v1::DeleteCrawlResponse resp;
    grpc::Status s = stub->DeleteCrawl(&ctx, req, &resp);
    if (!s.ok()) {
      spdlog::warn("could not tell queue server {} to delete crawl {}: {} (kept pending)", qs.id(),
                   pending.crawl_id(), s.error_message());
      continue;
    }
    reached.push_back(qs.id());
  }
  return reached;
}

std::vector<std::string> QueueServerFleet::Update(const v1::CrawlInfo& crawl) const {
  std::vector<std::string> failed;
  for (const auto& qs : crawl.queue_servers()) {
    auto stub = StubFor(qs.address());
    grpc::ClientContext ctx;
    SetTimeout(ctx, rpc::kFleetControl.deadline);
    v1::InjectSeedsRequest req;
    *req.mutable_crawl() = crawl;
    v1::InjectSeedsResponse resp;
    grpc::Status s = stub->InjectSeeds(&ctx, req, &resp);
    if (!s.ok()) {
      spdlog::warn("could not tell queue server {} about crawl {}: {}", qs.id(), crawl.crawl_id(),
                   s.error_message());
      failed.push_back(qs.id());
    }
  }
  return failed;
}

void QueueServerFleet::End(uint64_t crawl_id, v1::CrawlState state,
                           const std::vector<v1::QueueServerInfo>& servers) const {
  for (const auto& qs : servers) {
    grpc::Status s = TellEnded(crawl_id, state, qs);
    if (!s.ok())
      spdlog::warn("could not tell {} that crawl {} ended: {}", qs.id(), crawl_id, s.error_message());
  }
}

grpc::Status QueueServerFleet::HostQueue(const v1::CrawlInfo& crawl, const v1::HostQueueRequest& req,
                                         v1::HostQueueResponse* resp) const {
  if (crawl.queue_servers_size() == 0)
    return {grpc::StatusCode::FAILED_PRECONDITION,
            "crawl " + std::to_string(crawl.crawl_id()) + " has no queue servers"};
  std::vector<std::string> ids;
  for (const auto& qs : crawl.queue_servers()) ids.push_back(qs.id());
  // The host as StartCrawl hashes a seed's (url::HostOf: lower case,
  // punycode); a host that is none goes as given, for its owner to refuse.
  std::string host = url::HostOf("http://" + req.host() + "/");
  if (host.empty()) host = req.host();
  const v1::QueueServerInfo& owner = crawl.queue_servers(static_cast<int>(OwnerIndex(ids, host)));
  auto stub = StubFor(owner.address());
  grpc::ClientContext ctx;
  // The server reads up to max_scan queue entries before it answers.
  SetTimeout(ctx, rpc::kScanningReads.deadline);
  v1::HostQueueRequest ask = req;
  ask.set_crawl_id(crawl.crawl_id());
  grpc::Status s = stub->HostQueue(&ctx, ask, resp);
  if (!s.ok()) return {s.error_code(), "queue server " + owner.id() + ": " + s.error_message()};
  resp->set_queue_server_id(owner.id());
  return grpc::Status::OK;
}

grpc::Status QueueServerFleet::AddressStatus(const v1::CrawlInfo& crawl, const std::string& address,
                                             v1::AddressStatusResponse* resp) const {
  if (crawl.queue_servers_size() == 0)
    return {grpc::StatusCode::FAILED_PRECONDITION,
            "crawl " + std::to_string(crawl.crawl_id()) + " has no queue servers"};
  std::vector<std::string> ids;
  for (const auto& qs : crawl.queue_servers()) ids.push_back(qs.id());
  const v1::QueueServerInfo& owner = crawl.queue_servers(static_cast<int>(OwnerIndex(ids, address)));
  auto stub = StubFor(owner.address());
  grpc::ClientContext ctx;
  SetTimeout(ctx, rpc::kFleetControl.deadline);
  v1::AddressStatusRequest ask;
  ask.set_crawl_id(crawl.crawl_id());
  ask.add_addresses(address);
  grpc::Status s = stub->AddressStatus(&ctx, ask, resp);
  if (!s.ok()) return {s.error_code(), "queue server " + owner.id() + ": " + s.error_message()};
  resp->set_queue_server_id(owner.id());
  return grpc::Status::OK;
}

std::vector<v1::QueueServerStats> QueueServerFleet::PollStats(
    const v1::CrawlInfo& crawl, bool* complete, const std::map<std::string, uint64_t>* page_caps) const {
  std::vector<v1::QueueServerStats> round;
  *complete = true;
  for (const auto& qs : crawl.queue_servers()) {
    auto stub = StubFor(qs.address());
    grpc::ClientContext ctx;
    SetTimeout(ctx, rpc::kPollStats.deadline);
    v1::StatsRequest req;
    req.set_crawl_id(crawl.crawl_id());
    if (page_caps) {
      auto cap = page_caps->find(qs.id());
      req.set_limit_pages(true);
      req.set_page_cap(cap == page_caps->end() ? 0 : cap->second);
    }
    v1::StatsResponse resp;
    grpc::Status s = stub->Stats(&ctx, req, &resp);
    if (!s.ok() || resp.stats().crawl_id() != crawl.crawl_id()) {
      *complete = false;
      continue;
    }
    round.push_back(resp.stats());
  }
  return round;
}

}  // namespace crawl::nameserver
