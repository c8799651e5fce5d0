#include "common/grpc_util.h"

namespace crawl {

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& address) {
  grpc::ChannelArguments args;
  // Results batches and crawl logs can be large; the default is 4 MiB.
  args.SetMaxReceiveMessageSize(256 * 1024 * 1024);
  args.SetMaxSendMessageSize(256 * 1024 * 1024);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
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

Result<GrpcServer> StartGrpcServer(const std::string& listen,
                                   const std::vector<grpc::Service*>& services) {
  GrpcServer out;
  grpc::ServerBuilder builder;
  builder.SetMaxReceiveMessageSize(256 * 1024 * 1024);
  builder.SetMaxSendMessageSize(256 * 1024 * 1024);
  builder.AddListeningPort(listen, grpc::InsecureServerCredentials(), &out.port);
  for (grpc::Service* s : services) builder.RegisterService(s);
  out.server = builder.BuildAndStart();
  if (!out.server || out.port == 0) {
    return Status::Unavailable("cannot listen on " + listen);
  }
  return out;
}

}  // namespace crawl
