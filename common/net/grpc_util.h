// gRPC helpers shared by every binary: channels, deadlines, status
// conversion at the module edge, and starting a server on a chosen or
// ephemeral port.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "common/base/status.h"
#include "common/security/authorizer.h"
#include "common/security/call_gate.h"
#include "common/security/roles.h"

namespace crawl {

// A channel to host:port whose server must hold one of `peer_roles`, secured
// as the installed transport says (common/security/transport.h: mutual TLS,
// or plain TCP).
[[nodiscard]] std::shared_ptr<grpc::Channel> MakeChannel(const std::string& address,
                                                         security::RoleSet peer_roles);

// The channel to `address` for `peer_roles`, made once per process and kept:
// callers that open a stub per call (the name server polls each queue server
// four times a second) reuse one connection instead of a TCP and TLS
// handshake per call. Thread-safe.
[[nodiscard]] std::shared_ptr<grpc::Channel> SharedChannel(const std::string& address,
                                                           security::RoleSet peer_roles);

// The largest request a server accepts (gRPC refuses bigger ones with
// RESOURCE_EXHAUSTED before any handler runs). A result batch of 400 pages
// with their links, mini indexes and cached bodies stays below it.
inline constexpr int kMaxRequestBytes = 256 * 1024 * 1024;
// The name server's requests are admin calls and heartbeats; a seed list of
// a million URLs is about 60 MB.
inline constexpr int kMaxNameServerRequestBytes = 64 * 1024 * 1024;

// Sets a deadline `timeout` from now on `ctx`.
void SetTimeout(grpc::ClientContext& ctx, std::chrono::milliseconds timeout);

// Converts a gRPC status into ours, naming the peer in the message.
[[nodiscard]] Status FromGrpc(const grpc::Status& s, const std::string& what);

// A running gRPC server and the port it listens on.
struct GrpcServer {
  std::unique_ptr<grpc::Server> server;
  int port = 0;
  // The gate refusing calls before they are read; null without one.
  std::shared_ptr<security::CallGate> gate;
};

// At most this many calls at once on one client connection: a cluster
// process has a handful in flight, and a peer cannot open thousands of
// streams whose headers the server must hold.
inline constexpr int kMaxConcurrentCallsPerConnection = 100;

struct GrpcServerOptions {
  // Requests over this are refused (RESOURCE_EXHAUSTED).
  int max_request_bytes = kMaxRequestBytes;
  // With TLS: a call its caller may not make is refused from its metadata,
  // before its message is read (common/security/call_gate.h). Must outlive
  // the server; null: only the handlers check.
  const security::Authorizer* authorizer = nullptr;
  // With TLS: a client without a certificate fails the handshake (servers
  // whose every caller is a cluster process or a person with a
  // certificate).
  bool require_client_certificate = false;
};

// Builds and starts a server on `listen` ("host:port"; port 0 picks a free
// one) with `services`. Fails with a clear message if the address cannot be
// bound. The services must outlive the server. Health checking
// (grpc.health.v1) and server reflection are on for every server. The
// installed transport's credentials secure it, as `options` say.
[[nodiscard]] Result<GrpcServer> StartGrpcServer(const std::string& listen,
                                                 const std::vector<grpc::Service*>& services,
                                                 const GrpcServerOptions& options = {});

}  // namespace crawl
