// gRPC helpers shared by every binary: channels, deadlines, status
// conversion at the module edge, and starting a server on a chosen or
// ephemeral port.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace crawl {

// An insecure channel to host:port (TLS is a later setting).
[[nodiscard]] std::shared_ptr<grpc::Channel> MakeChannel(const std::string& address);

// Sets a deadline `timeout` from now on `ctx`.
void SetTimeout(grpc::ClientContext& ctx, std::chrono::milliseconds timeout);

// Converts a gRPC status into ours, naming the peer in the message.
[[nodiscard]] Status FromGrpc(const grpc::Status& s, const std::string& what);

// A running gRPC server and the port it listens on.
struct GrpcServer {
  std::unique_ptr<grpc::Server> server;
  int port = 0;
};

// Builds and starts a server on `listen` ("host:port"; port 0 picks a free
// one) with `services`. Fails with a clear message if the address cannot be
// bound. The services must outlive the server. Health checking
// (grpc.health.v1) and server reflection are on for every server.
[[nodiscard]] Result<GrpcServer> StartGrpcServer(const std::string& listen,
                                                 const std::vector<grpc::Service*>& services);

}  // namespace crawl
