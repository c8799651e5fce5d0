// crawlctl's connection to the name server: the flags that find it and
// authenticate, the token, and gRPC failures as the one line crawlctl prints.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "common/base/status.h"
#include "common/net/grpc_util.h"
#include "common/security/transport.h"
#include "proto/crawl.grpc.pb.h"

namespace crawl::crawlctl {

// Where the name server is and how to prove who we are.
struct ConnectionFlags {
  std::string nameserver;
  crawl::security::TlsFlags tls;
  std::string token_file;
};

// A stub to the name server and the bearer token every call carries (empty:
// none; the certificate, or nothing on an insecure loopback cluster,
// identifies the caller).
struct NameServerClient {
  std::string address;
  std::string token;
  std::unique_ptr<v1::NameServer::Stub> stub;

  void Authenticate(grpc::ClientContext& ctx) const {
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
  }
  // Authenticates `ctx` and gives the call `timeout`.
  void Prepare(grpc::ClientContext& ctx, std::chrono::seconds timeout) const {
    Authenticate(ctx);
    crawl::SetTimeout(ctx, timeout);
  }
  // A failed call as the one line crawlctl prints.
  [[nodiscard]] Status Check(const grpc::Status& s) const;
};

// The environment variable `name`, or `fallback` when it is unset or empty.
[[nodiscard]] std::string EnvOr(const char* name, std::string fallback = "");

// The token from CRAWL_TOKEN, else from the token file (trailing white
// space dropped). Fails on an unreadable or empty file.
[[nodiscard]] Result<std::string> LoadToken(const std::string& token_file);

// Checks the flags, sets up TLS and loads the token; no call is made yet.
[[nodiscard]] Result<NameServerClient> ConnectToNameServer(ConnectionFlags flags);

}  // namespace crawl::crawlctl
