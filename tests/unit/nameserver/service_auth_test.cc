// The name server's access rules: every RPC of the proto has a
// policy, and admin tokens decide what people may do.
#include <google/protobuf/descriptor.h>
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>

#include "common/base/clock.h"
#include "common/net/grpc_util.h"
#include "common/security/admin_tokens.h"
#include "common/security/authorizer.h"
#include "nameserver/registry_store.h"
#include "nameserver/service.h"
#include "proto/crawl.grpc.pb.h"

namespace {

using crawl::security::AdminTokens;
using crawl::security::Authorizer;
using crawl::security::Role;
using crawl::security::Sha256Hex;
using crawl::security::TokenEntry;

struct NameServer {
  std::unique_ptr<crawl::nameserver::RegistryStore> store;
  crawl::ManualClock clock;
  std::unique_ptr<crawl::nameserver::NameServerServiceImpl> service;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<crawl::v1::NameServer::Stub> stub;

  explicit NameServer(const Authorizer* auth) {
    auto opened = crawl::nameserver::RegistryStore::Open("");
    REQUIRE(opened.ok());
    store = std::move(*opened);
    crawl::nameserver::NameServerServiceImpl::Options options;
    service = std::make_unique<crawl::nameserver::NameServerServiceImpl>(options, &clock, store.get());
    service->SetAuthorizer(auth);
    REQUIRE(service->Load().ok());
    auto started = crawl::StartGrpcServer("127.0.0.1:0", {service.get()});
    REQUIRE(started.ok());
    server = std::move(started->server);
    stub = crawl::v1::NameServer::NewStub(
        crawl::MakeChannel("127.0.0.1:" + std::to_string(started->port), {Role::kNameServer}));
  }
  ~NameServer() { server->Shutdown(); }

  grpc::Status Stop(const std::string& token) {
    grpc::ClientContext ctx;
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    crawl::v1::StopCrawlRequest req;
    crawl::v1::StopCrawlResponse resp;
    return stub->StopCrawl(&ctx, req, &resp);
  }
  grpc::Status List(const std::string& header) {
    grpc::ClientContext ctx;
    if (!header.empty()) ctx.AddMetadata("authorization", header);
    crawl::v1::ListCrawlsRequest req;
    crawl::v1::ListCrawlsResponse resp;
    return stub->ListCrawls(&ctx, req, &resp);
  }
};

std::vector<TokenEntry> Tokens() {
  auto parsed = crawl::security::ParseTokenFile("admin " + Sha256Hex("admin-secret") + " ops\nreader " +
                                                Sha256Hex("reader-secret") + " viewer\n");
  REQUIRE(parsed.ok());
  return *parsed;
}

}  // namespace

TEST_CASE("every RPC in the proto states which roles may call it", "[unit]") {
  const auto* pool = google::protobuf::DescriptorPool::generated_pool();
  size_t methods = 0;
  for (const char* service : {"crawl.v1.NameServer", "crawl.v1.QueueServer"}) {
    const auto* descriptor = pool->FindServiceByName(service);
    REQUIRE(descriptor != nullptr);
    for (int i = 0; i < descriptor->method_count(); ++i) {
      const std::string method = std::string(service) + "/" + descriptor->method(i)->name();
      INFO(method);
      const auto* policy = crawl::security::FindRpcPolicy(method);
      REQUIRE(policy != nullptr);
      CHECK_FALSE(policy->allowed.empty());
      ++methods;
    }
  }
  CHECK(methods == crawl::security::RpcPolicies().size());
  // Who may start a crawl, submit results, heartbeat, search.
  CHECK(crawl::security::FindRpcPolicy("crawl.v1.NameServer/StartCrawl")->allowed ==
        crawl::security::RoleSet{Role::kAdmin});
  CHECK(crawl::security::FindRpcPolicy("crawl.v1.QueueServer/SubmitResults")->allowed ==
        crawl::security::RoleSet{Role::kFetcher});
  CHECK(crawl::security::FindRpcPolicy("crawl.v1.NameServer/Heartbeat")->allowed ==
        crawl::security::RoleSet{Role::kQueueServer});
  CHECK(crawl::security::FindRpcPolicy("crawl.v1.NameServer/Search")->allowed.Has(Role::kReader));
}

TEST_CASE("admin tokens: none, wrong, reader on stop, admin", "[unit]") {
  AdminTokens tokens;
  tokens.Set(Tokens());
  const Authorizer auth(false, &tokens);
  NameServer ns(&auth);

  const auto missing = ns.Stop("");
  CHECK(missing.error_code() == grpc::StatusCode::PERMISSION_DENIED);
  CHECK_THAT(missing.error_message(), Catch::Contains("needs role admin"));
  CHECK(ns.Stop("wrong").error_code() == grpc::StatusCode::UNAUTHENTICATED);
  const auto reader = ns.Stop("reader-secret");
  CHECK(reader.error_code() == grpc::StatusCode::PERMISSION_DENIED);
  CHECK_THAT(reader.error_message(), Catch::Contains("token viewer"));
  // Admin gets through to the handler: there is no crawl to stop.
  const auto admin = ns.Stop("admin-secret");
  CHECK(admin.error_code() != grpc::StatusCode::PERMISSION_DENIED);
  CHECK(admin.error_code() != grpc::StatusCode::UNAUTHENTICATED);

  CHECK(ns.List("Bearer reader-secret").ok());
  CHECK(ns.List("Basic cmVhZGVy").error_code() == grpc::StatusCode::UNAUTHENTICATED);
  CHECK(ns.List("").error_code() == grpc::StatusCode::PERMISSION_DENIED);
}

TEST_CASE("without TLS and without tokens every caller is trusted, as before", "[unit]") {
  const Authorizer auth(false, nullptr);
  NameServer ns(&auth);
  CHECK(ns.List("").ok());
  CHECK(ns.Stop("").error_code() != grpc::StatusCode::PERMISSION_DENIED);
}
