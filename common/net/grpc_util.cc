#include "common/net/grpc_util.h"

#include <grpc/support/log.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

#include "common/security/transport.h"

namespace crawl {
namespace {

// gRPC's own log lines (multi-line, internal detail) go to our log at debug
// level; every failure that matters is reported by our code in one line.
void GrpcLogToSpdlog(gpr_log_func_args* args) {
  spdlog::debug("grpc {}:{}: {}", args->file, args->line, args->message);
}

// gRPC's client channels make progress on a connection attempt (TCP
// connect, TLS handshake) only while some thread polls for it. A call that
// fails fast on a channel in TRANSIENT_FAILURE polls nothing, so between
// retries only gRPC's backup poller moved the attempt on, every 5 s by
// default: a queue server or name server restarted within a second stayed
// "refused" for 15-20 s (each handshake step waited for the next 5 s tick),
// fetchers' leases ran out meanwhile and pages were fetched twice. Polled
// every 100 ms, a restarted peer is reached within a few hundred ms. gRPC
// reads this at its first grpc_init, after static initialisation; an
// operator's own value wins.
[[maybe_unused]] const bool kBackupPollingConfigured = [] {
  setenv("GRPC_CLIENT_CHANNEL_BACKUP_POLL_INTERVAL_MS", "100", /*overwrite=*/0);
  return true;
}();

void RouteGrpcLogs() {
  static std::once_flag once;
  std::call_once(once, [] { gpr_set_log_function(GrpcLogToSpdlog); });
}

}  // namespace

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& address, security::RoleSet peer_roles) {
  RouteGrpcLogs();
  grpc::ChannelArguments args;
  // Results batches and crawl logs can be large; the default is 4 MiB.
  args.SetMaxReceiveMessageSize(256 * 1024 * 1024);
  args.SetMaxSendMessageSize(256 * 1024 * 1024);
  // A restarted peer is back within about a second; gRPC's default
  // reconnect backoff (1 s growing to 120 s) kept callers refused for far
  // longer, and fetchers lost their leases meanwhile.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  // Not GRPC_ARG_MIN_RECONNECT_BACKOFF_MS: gRPC also takes it as the least
  // time a connection attempt may take (default 20 s), so at 100 ms every
  // attempt was cut after at most the backoff, about a second; on a loaded
  // machine a TLS handshake takes longer, and a fetcher never reached its
  // restarted name server again ("tcp handshaker shutdown" for minutes).
  return grpc::CreateCustomChannel(address, security::CurrentTransport()->ChannelCredentials(peer_roles),
                                   args);
}

std::shared_ptr<grpc::Channel> SharedChannel(const std::string& address, security::RoleSet peer_roles) {
  static std::mutex mu;
  static std::map<std::pair<std::string, std::string>, std::shared_ptr<grpc::Channel>> channels;
  std::lock_guard lock(mu);
  auto& channel = channels[{address, peer_roles.ToString()}];
  if (!channel) channel = MakeChannel(address, peer_roles);
  return channel;
}

void SetTimeout(grpc::ClientContext& ctx, std::chrono::milliseconds timeout) {
  ctx.set_deadline(std::chrono::system_clock::now() + timeout);
}

Status FromGrpc(const grpc::Status& s, const std::string& what) {
  if (s.ok()) return Status::Ok();
  std::string message = what + ": " + s.error_message();
  switch (s.error_code()) {
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return Status::Unavailable(message);
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::OUT_OF_RANGE:
      return Status::InvalidArgument(message);
    case grpc::StatusCode::NOT_FOUND:
      return Status::NotFound(message);
    case grpc::StatusCode::FAILED_PRECONDITION:
      return Status::FailedPrecondition(message);
    default:
      return Status::Internal(message);
  }
}

Result<GrpcServer> StartGrpcServer(const std::string& listen, const std::vector<grpc::Service*>& services,
                                   const GrpcServerOptions& options) {
  RouteGrpcLogs();
  // Every service answers grpc.health.v1.Health (SERVING while up) and
  // server reflection, so grpc_health_probe and grpcurl work against it.
  static std::once_flag plugins;
  std::call_once(plugins, [] {
    grpc::EnableDefaultHealthCheckService(true);
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  });
  GrpcServer out;
  grpc::ServerBuilder builder;
  builder.SetMaxReceiveMessageSize(options.max_request_bytes);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, kMaxConcurrentCallsPerConnection);
  builder.SetMaxSendMessageSize(256 * 1024 * 1024);
  // gRPC sets SO_REUSEPORT by default, which lets a second server silently
  // share a port that is in use; we want a clear "cannot listen" instead.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // Plain-TCP credentials cannot take a metadata processor.
  if (options.authorizer != nullptr && security::CurrentTransport()->tls())
    out.gate = std::make_shared<security::CallGate>(options.authorizer);
  builder.AddListeningPort(
      listen, security::CurrentTransport()->ServerCredentials(options.require_client_certificate, out.gate),
      &out.port);
  for (grpc::Service* s : services) builder.RegisterService(s);
  out.server = builder.BuildAndStart();
  if (!out.server || out.port == 0) {
    return Status::Unavailable("cannot listen on " + listen);
  }
  return out;
}

}  // namespace crawl
