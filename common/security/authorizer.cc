#include "common/security/authorizer.h"

#include <array>

namespace crawl::security {
namespace {

constexpr RoleSet kPeople{Role::kAdmin, Role::kReader};
constexpr RoleSet kAdminOnly{Role::kAdmin};
// The name server reads queue servers on behalf of people (fan-out of
// status, log, search and cache); people may also ask a queue server directly.
constexpr RoleSet kNameServerOrPeople{Role::kNameServer, Role::kAdmin, Role::kReader};

constexpr std::array kPolicies = {
    // Name server: queue-server membership.
    RpcPolicy{"crawl.v1.NameServer/RegisterQueueServer", {Role::kQueueServer}},
    RpcPolicy{"crawl.v1.NameServer/Heartbeat", {Role::kQueueServer}},
    // Fetchers poll the crawl state; people may read it too.
    RpcPolicy{"crawl.v1.NameServer/GetCrawlState",
              {Role::kFetcher, Role::kQueueServer, Role::kAdmin, Role::kReader}},
    // Name server: the admin API.
    RpcPolicy{"crawl.v1.NameServer/StartCrawl", kAdminOnly},
    RpcPolicy{"crawl.v1.NameServer/StopCrawl", kAdminOnly},
    RpcPolicy{"crawl.v1.NameServer/ResumeCrawl", kAdminOnly},
    RpcPolicy{"crawl.v1.NameServer/SetCrawlParams", kAdminOnly},
    RpcPolicy{"crawl.v1.NameServer/CrawlStatus", kPeople},
    RpcPolicy{"crawl.v1.NameServer/ListCrawls", kPeople},
    RpcPolicy{"crawl.v1.NameServer/ListQueueServers", kPeople},
    RpcPolicy{"crawl.v1.NameServer/GetCrawlLog", kPeople},
    RpcPolicy{"crawl.v1.NameServer/Search", kPeople},
    RpcPolicy{"crawl.v1.NameServer/GetCachedPage", kPeople},
    RpcPolicy{"crawl.v1.NameServer/NearDuplicateClusters", kPeople},
    // Queue server: what the name server drives.
    RpcPolicy{"crawl.v1.QueueServer/InjectSeeds", {Role::kNameServer}},
    RpcPolicy{"crawl.v1.QueueServer/EndCrawl", {Role::kNameServer}},
    RpcPolicy{"crawl.v1.QueueServer/Stats", kNameServerOrPeople},
    RpcPolicy{"crawl.v1.QueueServer/GetCrawlLog", kNameServerOrPeople},
    RpcPolicy{"crawl.v1.QueueServer/Search", kNameServerOrPeople},
    RpcPolicy{"crawl.v1.QueueServer/GetCachedPage", kNameServerOrPeople},
    RpcPolicy{"crawl.v1.QueueServer/HostQueue", kNameServerOrPeople},
    RpcPolicy{"crawl.v1.QueueServer/NearDuplicateClusters", kNameServerOrPeople},
    // Queue server: fetchers lease schedules and ship what they fetched.
    RpcPolicy{"crawl.v1.QueueServer/GetSchedule", {Role::kFetcher}},
    RpcPolicy{"crawl.v1.QueueServer/SubmitResults", {Role::kFetcher}},
    RpcPolicy{"crawl.v1.QueueServer/AddUrls", {Role::kFetcher}},
    // Near-duplicate fingerprint tables: fetchers, before shipping a batch.
    RpcPolicy{"crawl.v1.QueueServer/MatchFingerprints", {Role::kFetcher}},
    // Cluster-wide connection slots per address: fetchers take and give back;
    // the console and people read them.
    RpcPolicy{"crawl.v1.QueueServer/AddressSlots", {Role::kFetcher}},
    RpcPolicy{"crawl.v1.QueueServer/AddressStatus", kNameServerOrPeople},
    // Deleting a crawl: people who administer, then the name server's fan-out.
    RpcPolicy{"crawl.v1.NameServer/DeleteCrawl", kAdminOnly},
    RpcPolicy{"crawl.v1.QueueServer/DeleteCrawl", {Role::kNameServer}},
};

constexpr size_t kMaxCachedIdentities = 4096;

std::string_view Metadata(const grpc::ServerContext& ctx, std::string_view key) {
  const auto& md = ctx.client_metadata();
  auto it = md.find(grpc::string_ref(key.data(), key.size()));
  if (it == md.end()) return {};
  return {it->second.data(), it->second.size()};
}

}  // namespace

std::span<const RpcPolicy> RpcPolicies() { return kPolicies; }

const RpcPolicy* FindRpcPolicy(std::string_view method) {
  for (const RpcPolicy& p : kPolicies) {
    if (p.method == method) return &p;
  }
  return nullptr;
}

const Authorizer& Authorizer::AllowAll() {
  static const Authorizer allow_all;
  return allow_all;
}

std::optional<TokenMatch> Authorizer::MatchToken(std::string_view token) const {
  if (tokens_ == nullptr || token.empty()) return std::nullopt;
  return tokens_->Match(token);
}

Result<PeerIdentity> Authorizer::CertificateIdentity(const std::string& pem) const {
  {
    MutexLock lock(cache_mu_);
    auto it = cache_.find(pem);
    if (it != cache_.end()) return it->second;
  }
  auto identity = IdentityFromCertificatePem(pem);
  if (!identity.ok()) return identity;
  MutexLock lock(cache_mu_);
  if (cache_.size() >= kMaxCachedIdentities) cache_.clear();
  cache_.emplace(pem, *identity);
  return identity;
}

Result<Caller> Authorizer::Identify(const grpc::ServerContext& ctx) const {
  return IdentifyCall(Metadata(ctx, "authorization"), ctx.auth_context().get());
}

Result<Caller> Authorizer::IdentifyCall(std::string_view authorization, const grpc::AuthContext* auth) const {
  if (!authorization.empty()) {
    auto token = BearerToken(authorization);
    if (!token) return Status::InvalidArgument("the authorization metadata is not 'Bearer TOKEN'");
    auto match = MatchToken(*token);
    if (!match) return Status::InvalidArgument("unknown token");
    return Caller{RoleSet{match->role}, "token " + match->name};
  }
  if (!tls_) {
    RoleSet roles{Role::kNameServer, Role::kQueueServer, Role::kFetcher};
    if (tokens_ == nullptr || tokens_->size() == 0) roles.Add(Role::kAdmin).Add(Role::kReader);
    return Caller{roles, "peer without TLS"};
  }
  std::vector<grpc::string_ref> pems;
  if (auth != nullptr) pems = auth->FindPropertyValues("x509_pem_cert");
  if (pems.empty()) return Status::InvalidArgument("no client certificate and no token");
  auto identity = CertificateIdentity(std::string(pems.front().data(), pems.front().size()));
  if (!identity.ok()) return Status::InvalidArgument("client certificate: " + identity.status().message());
  return Caller{RoleSet{identity->role}, std::string(RoleName(identity->role)) + " " + identity->id};
}

grpc::Status Authorizer::Check(const grpc::ServerContext& ctx, std::string_view method) const {
  if (allow_all_) return grpc::Status::OK;
  return CheckCall(method, Metadata(ctx, "authorization"), ctx.auth_context().get());
}

grpc::Status Authorizer::CheckCall(std::string_view method, std::string_view authorization,
                                   const grpc::AuthContext* auth) const {
  if (allow_all_) return grpc::Status::OK;
  const RpcPolicy* policy = FindRpcPolicy(method);
  if (policy == nullptr)
    return {grpc::StatusCode::PERMISSION_DENIED, "no access policy for " + std::string(method)};
  auto caller = IdentifyCall(authorization, auth);
  if (!caller.ok()) return {grpc::StatusCode::UNAUTHENTICATED, caller.status().message()};
  const RoleSet& have = caller->roles;
  for (int i = 0; i < kRoleCount; ++i) {
    if (have.Has(static_cast<Role>(i)) && policy->allowed.Has(static_cast<Role>(i))) return grpc::Status::OK;
  }
  return {grpc::StatusCode::PERMISSION_DENIED, std::string(method) + " needs role " +
                                                   policy->allowed.ToString() + "; the caller (" +
                                                   caller->name + ") is " + have.ToString()};
}

}  // namespace crawl::security
