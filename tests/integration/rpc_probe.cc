// rpc_probe: calls one RPC of a running name server or queue server with the
// credentials it is given and prints the status code, for the security
// tests (tests/integration/security_*_test.sh). SubmitResults and AddUrls
// carry a planted URL, as a forged fetcher would send; every other RPC gets
// an empty request.
//
//   rpc_probe ADDRESS SERVICE/METHOD [--tls-ca F --tls-cert F --tls-key F]
//             [--token T] [--peer-role ROLE] [--crawl-id N] [--raw FILE]
// --raw sends FILE's bytes as the request as they are (malformed or
// oversized requests).
// Prints "CODE message" (CODE as grpc::StatusCode's name, OK on success)
// and exits 0; exits 2 on bad arguments.
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <condition_variable>
#include <iostream>
#include <mutex>

#include "common/base/process.h"
#include "common/net/grpc_util.h"
#include "common/security/process_security.h"
#include "proto/crawl.pb.h"

namespace {

const char* CodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    default:
      return "UNKNOWN";
  }
}

// The request body: a forged result or link for the fetcher RPCs.
std::string RequestFor(const std::string& method, uint64_t crawl_id) {
  if (method.ends_with("/SubmitResults")) {
    crawl::v1::SubmitResultsRequest req;
    req.set_crawl_id(crawl_id);
    req.set_fetcher_id("forged");
    req.set_schedule_id(1);
    auto* r = req.add_records();
    r->set_url("http://planted.test/forged");
    r->set_status(200);
    req.add_links()->set_url("http://planted.test/link");
    return req.SerializeAsString();
  }
  if (method.ends_with("/AddUrls")) {
    crawl::v1::AddUrlsRequest req;
    req.set_crawl_id(crawl_id);
    req.set_fetcher_id("forged");
    req.set_batch_id("forged-2");
    req.add_links()->set_url("http://planted.test/added");
    return req.SerializeAsString();
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_default_logger(spdlog::stderr_logger_mt("rpc_probe"));
  spdlog::set_level(spdlog::level::warn);
  CLI::App app{"rpc_probe: call one RPC and print its status code"};
  std::string address, method, token, peer_role = "nameserver";
  uint64_t crawl_id = 0;
  crawl::security::TlsFlags tls;
  app.add_option("address", address, "host:port")->required();
  app.add_option("method", method, "SERVICE/METHOD, e.g. crawl.v1.QueueServer/SubmitResults")->required();
  app.add_option("--token", token, "Bearer token to send");
  app.add_option("--peer-role", peer_role, "Role the server must hold")->capture_default_str();
  app.add_option("--crawl-id", crawl_id, "Crawl id for forged results");
  std::string raw_file;
  app.add_option("--raw", raw_file, "Send this file's bytes as the request");
  crawl::security::AddTlsFlags(app, tls);
  CLI11_PARSE(app, argc, argv);
  auto role = crawl::security::ParseRole(peer_role);
  if (!role) {
    std::cerr << "rpc_probe: unknown role " << peer_role << "\n";
    return 2;
  }
  if (auto s = crawl::security::SetUpTransport("rpc_probe", tls, false, {}); !s.ok()) {
    std::cerr << "rpc_probe: " << s.message() << "\n";
    return 2;
  }
  // Sends up to 1 GiB, so the server's own limit is what refuses a request.
  grpc::ChannelArguments args;
  args.SetMaxSendMessageSize(1 << 30);
  args.SetMaxReceiveMessageSize(1 << 30);
  grpc::GenericStub stub(grpc::CreateCustomChannel(
      address, crawl::security::CurrentTransport()->ChannelCredentials({*role}), args));
  grpc::ClientContext ctx;
  crawl::SetTimeout(ctx, std::chrono::seconds(10));
  if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
  std::string body = RequestFor(method, crawl_id);
  if (!raw_file.empty()) {
    auto bytes = crawl::ReadFile(raw_file);
    if (!bytes.ok()) {
      std::cerr << "rpc_probe: " << bytes.status().message() << "\n";
      return 2;
    }
    body = std::move(*bytes);
  }
  grpc::Slice slice(body);
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  grpc::Status status;
  stub.UnaryCall(&ctx, "/" + method, grpc::StubOptions(), &request, &response, [&](grpc::Status s) {
    std::lock_guard lock(mu);
    status = std::move(s);
    done = true;
    cv.notify_one();
  });
  std::unique_lock lock(mu);
  cv.wait(lock, [&] { return done; });
  std::cout << CodeName(status.error_code()) << " " << status.error_message() << "\n";
  return 0;
}
