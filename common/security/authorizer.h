// Who may call which RPC. Every RPC handler starts with
//   if (auto s = auth.Check(ctx, "crawl.v1.QueueServer/SubmitResults"); !s.ok()) return s;
// and kRpcPolicies below states the roles each RPC allows. The caller's role
// comes from, in order:
//   1. a bearer token in the call's "authorization" metadata, checked
//      against the admin tokens (wrong token: UNAUTHENTICATED);
//   2. with TLS, the crawl identity in the client certificate (none:
//      UNAUTHENTICATED);
//   3. without TLS (one trusted host, or --insecure), every cluster role,
//      and admin and reader too unless admin tokens are configured.
// A role the RPC does not allow gets PERMISSION_DENIED naming the roles it
// needs. Checks happen before the handler does any work.
#pragma once

#include <grpcpp/grpcpp.h>

#include <map>
#include <span>
#include <string>
#include <string_view>

#include "common/base/mutex.h"
#include "common/security/admin_tokens.h"
#include "common/security/peer_identity.h"
#include "common/security/roles.h"

namespace crawl::security {

struct RpcPolicy {
  std::string_view method;  // "crawl.v1.NameServer/StartCrawl"
  RoleSet allowed;
};

// Every RPC of crawl.v1 and the roles that may call it (docs/OPERATIONS.md
// lists the same; tests/unit/common/authorizer_test.cc checks that every
// method in the proto has an entry).
[[nodiscard]] std::span<const RpcPolicy> RpcPolicies();
// The entry for `method`, or nullptr.
[[nodiscard]] const RpcPolicy* FindRpcPolicy(std::string_view method);

// The caller of one RPC, as far as the authorizer could tell.
struct Caller {
  RoleSet roles;
  std::string name;  // "fetcher fetcher0", "token ops-alice", "insecure peer"
};

class Authorizer {
 public:
  // `tls`: the server runs TLS (certificates identify peers). `tokens`: the
  // admin tokens to accept (may be null: none). Both must outlive this.
  Authorizer(bool tls, const AdminTokens* tokens) : tls_(tls), tokens_(tokens) {}
  // Allows everything: in-process tests and tools.
  static const Authorizer& AllowAll();

  // OK, UNAUTHENTICATED or PERMISSION_DENIED for a call of `method`.
  // Thread-safe.
  [[nodiscard]] grpc::Status Check(const grpc::ServerContext& ctx, std::string_view method) const;
  // The same decision from the call's parts, before its message is read
  // (common/security/call_gate.h): `authorization` is the call's
  // "authorization" metadata ("" when absent), `auth` the connection's
  // auth context (may be null).
  [[nodiscard]] grpc::Status CheckCall(std::string_view method, std::string_view authorization,
                                       const grpc::AuthContext* auth) const;

  // Who the caller is (exposed for tests). Fails with UNAUTHENTICATED.
  [[nodiscard]] Result<Caller> Identify(const grpc::ServerContext& ctx) const;
  [[nodiscard]] Result<Caller> IdentifyCall(std::string_view authorization,
                                            const grpc::AuthContext* auth) const;

  // Role from a bearer token alone (the status page's cookie or header).
  [[nodiscard]] std::optional<TokenMatch> MatchToken(std::string_view token) const;

 private:
  Authorizer() : allow_all_(true) {}
  [[nodiscard]] Result<PeerIdentity> CertificateIdentity(const std::string& pem) const;

  bool allow_all_ = false;
  bool tls_ = false;
  const AdminTokens* tokens_ = nullptr;
  // Parsed identities by certificate (peers reuse one connection for many
  // calls); bounded, cleared when full.
  mutable Mutex cache_mu_;
  mutable std::map<std::string, PeerIdentity, std::less<>> cache_ GUARDED_BY(cache_mu_);
};

}  // namespace crawl::security
