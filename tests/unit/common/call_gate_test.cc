// The call gate refuses a call from its metadata before its message is read,
// and a server that requires client certificates refuses the handshake.
// The proof that nothing is read first: a server whose receive limit is
// 1 KiB answers a 64 KiB request from an unauthenticated caller with the
// gate's UNAUTHENTICATED, where without the gate it reads the message and
// refuses its size (RESOURCE_EXHAUSTED).
#include "common/security/call_gate.h"

#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>

#include "common/net/grpc_util.h"
#include "common/security/admin_tokens.h"
#include "common/security/authorizer.h"
#include "common/security/transport.h"
#include "proto/crawl.grpc.pb.h"
#include "tests/unit/support/test_pki.h"

namespace {

using crawl::security::Authorizer;
using crawl::security::CallGate;
using crawl::security::Role;
using crawl::security::TlsFlags;
using crawl::security::Transport;
using crawl::testing::TempDir;
using crawl::testing::TestCa;

struct NoProperties : grpc::AuthPropertyIterator {
  NoProperties() = default;
};

// An auth context holding a certificate, as gRPC's TLS connection has.
class FakeAuthContext final : public grpc::AuthContext {
 public:
  explicit FakeAuthContext(std::string pem = {}) : pem_(std::move(pem)) {}
  bool IsPeerAuthenticated() const override { return !pem_.empty(); }
  std::vector<grpc::string_ref> GetPeerIdentity() const override { return {}; }
  std::string GetPeerIdentityPropertyName() const override { return ""; }
  std::vector<grpc::string_ref> FindPropertyValues(const std::string& name) const override {
    if (name == "x509_pem_cert" && !pem_.empty()) return {grpc::string_ref(pem_)};
    return {};
  }
  grpc::AuthPropertyIterator begin() const override { return NoProperties(); }
  grpc::AuthPropertyIterator end() const override { return NoProperties(); }
  void AddProperty(const std::string&, const grpc::string_ref&) override {}
  bool SetPeerIdentityPropertyName(const std::string&) override { return false; }

 private:
  std::string pem_;
};

// A SubmitResults of about `bytes` bytes; the status it gets. (A sync stub:
// a callback from gRPC's threads into this stack is a race to TSan, which
// does not see inside Debian's uninstrumented gRPC.)
grpc::Status Submit(const std::shared_ptr<grpc::Channel>& channel, size_t bytes) {
  auto stub = crawl::v1::QueueServer::NewStub(channel);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  crawl::v1::SubmitResultsRequest request;
  request.set_fetcher_id(std::string(bytes, 'x'));
  crawl::v1::SubmitResultsResponse response;
  return stub->SubmitResults(&ctx, request, &response);
}

struct Pki {
  TempDir dir;
  TestCa ca{"cluster CA"};
  std::string ca_path = dir.Write("ca.crt", ca.cert_pem());
  TlsFlags Flags(const std::string& name, const std::string& uri) {
    auto issued = ca.Issue(uri, -3600, 86400);
    TlsFlags f;
    f.ca = ca_path;
    f.cert = dir.Write(name + ".crt", issued.cert_pem);
    f.key = dir.Write(name + ".key", issued.key_pem);
    return f;
  }
};

}  // namespace

TEST_CASE("the gate decides a call from its path, token and certificate", "[unit]") {
  TestCa ca{"cluster CA"};
  const std::string fetcher_pem = ca.Issue("crawl://role/fetcher/f0", -3600, 86400).cert_pem;
  crawl::security::AdminTokens tokens;
  TempDir dir;
  const std::string hash = "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8";  // "password"
  REQUIRE(tokens.Load(dir.Write("tokens", "reader " + hash + " ops\n")).ok());
  const Authorizer authorizer(true, &tokens);
  const CallGate gate(&authorizer);
  const FakeAuthContext anonymous;
  const FakeAuthContext fetcher(fetcher_pem);

  CHECK(gate.Decide("/crawl.v1.QueueServer/SubmitResults", "", &anonymous).error_code() ==
        grpc::StatusCode::UNAUTHENTICATED);
  CHECK(gate.Decide("/crawl.v1.QueueServer/SubmitResults", "", &fetcher).ok());
  CHECK(gate.Decide("/crawl.v1.QueueServer/SubmitResults", "Bearer password", &anonymous).error_code() ==
        grpc::StatusCode::PERMISSION_DENIED);
  CHECK(gate.Decide("/crawl.v1.NameServer/CrawlStatus", "Bearer password", &anonymous).ok());
  CHECK(gate.Decide("/crawl.v1.NameServer/CrawlStatus", "Bearer wrong", &anonymous).error_code() ==
        grpc::StatusCode::UNAUTHENTICATED);
  // Calls outside crawl.v1 (health, reflection) need an identified caller.
  CHECK(gate.Decide("/grpc.health.v1.Health/Check", "", &anonymous).error_code() ==
        grpc::StatusCode::UNAUTHENTICATED);
  CHECK(gate.Decide("/grpc.health.v1.Health/Check", "", &fetcher).ok());
  CHECK(gate.Decide("", "", &anonymous).error_code() == grpc::StatusCode::UNAUTHENTICATED);
}

TEST_CASE("a refused call is refused before its message is read", "[unit][tls]") {
  Pki pki;
  const TlsFlags server_flags = pki.Flags("qs", "crawl://role/queueserver/qs0");
  const TlsFlags reader = pki.Flags("reader", "crawl://role/reader/r");
  TlsFlags no_certificate;
  no_certificate.ca = pki.ca_path;
  auto server_transport = Transport::Create(server_flags);
  REQUIRE(server_transport.ok());
  crawl::security::InstallTransport(*server_transport);
  // No handler checks anything: whatever is refused, the gate refused.
  crawl::v1::QueueServer::Service unimplemented;
  const Authorizer authorizer(true, nullptr);
  const bool gated = GENERATE(false, true);
  crawl::GrpcServerOptions options;
  options.max_request_bytes = 1024;
  if (gated) options.authorizer = &authorizer;
  auto server = crawl::StartGrpcServer("127.0.0.1:0", {&unimplemented}, options);
  crawl::security::InstallTransport(Transport::Insecure());
  REQUIRE(server.ok());
  const std::string address = "127.0.0.1:" + std::to_string(server->port);
  auto channel_for = [&](const TlsFlags& flags) {
    auto t = Transport::Create(flags);
    REQUIRE(t.ok());
    return grpc::CreateChannel(address, (*t)->ChannelCredentials({Role::kQueueServer}));
  };
  const grpc::Status anonymous = Submit(channel_for(no_certificate), 64 * 1024);
  const grpc::Status wrong_role = Submit(channel_for(reader), 64 * 1024);
  if (gated) {
    CHECK(anonymous.error_code() == grpc::StatusCode::UNAUTHENTICATED);
    CHECK(wrong_role.error_code() == grpc::StatusCode::PERMISSION_DENIED);
    CHECK(server->gate->refused() == 2);
  } else {
    CHECK(anonymous.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED);
    CHECK(wrong_role.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  server->server->Shutdown();
}

TEST_CASE("a server that requires client certificates refuses the handshake without one", "[unit][tls]") {
  Pki pki;
  auto server_transport = Transport::Create(pki.Flags("qs", "crawl://role/queueserver/qs0"));
  REQUIRE(server_transport.ok());
  crawl::security::InstallTransport(*server_transport);
  crawl::v1::QueueServer::Service unimplemented;
  const Authorizer authorizer(true, nullptr);
  auto server = crawl::StartGrpcServer("127.0.0.1:0", {&unimplemented},
                                       {.authorizer = &authorizer, .require_client_certificate = true});
  crawl::security::InstallTransport(Transport::Insecure());
  REQUIRE(server.ok());
  const std::string address = "127.0.0.1:" + std::to_string(server->port);
  TlsFlags no_certificate;
  no_certificate.ca = pki.ca_path;
  auto anonymous = Transport::Create(no_certificate);
  REQUIRE(anonymous.ok());
  const auto refused =
      Submit(grpc::CreateChannel(address, (*anonymous)->ChannelCredentials({Role::kQueueServer})), 0);
  CHECK(refused.error_code() == grpc::StatusCode::UNAVAILABLE);
  auto fetcher = Transport::Create(pki.Flags("f", "crawl://role/fetcher/f0"));
  REQUIRE(fetcher.ok());
  const auto admitted =
      Submit(grpc::CreateChannel(address, (*fetcher)->ChannelCredentials({Role::kQueueServer})), 0);
  CHECK(admitted.error_code() == grpc::StatusCode::UNIMPLEMENTED);
  server->server->Shutdown();
}
