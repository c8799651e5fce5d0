// The queue server behind mutual TLS and roles: a client without
// a certificate, with one from another CA, an expired one, a revoked one or
// the wrong role is refused with the right code, and a forged fetcher (valid
// TLS, reader role) changes nothing in the frontier.
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>

#include "common/base/clock.h"
#include "common/security/authorizer.h"
#include "common/security/transport.h"
#include "proto/crawl.grpc.pb.h"
#include "queueserver/service.h"
#include "tests/unit/support/test_pki.h"

namespace {

using crawl::security::Authorizer;
using crawl::security::Role;
using crawl::security::TlsFlags;
using crawl::security::Transport;
using crawl::testing::TempDir;
using crawl::testing::TestCa;

struct Pki {
  TempDir dir;
  TestCa ca{"cluster CA"};
  TestCa other_ca{"someone else's CA"};
  std::string ca_path = dir.Write("ca.crt", ca.cert_pem());
  std::string other_ca_path = dir.Write("other-ca.crt", other_ca.cert_pem());

  // Flags for a process holding a certificate for `uri` from `issuer`.
  TlsFlags Flags(const std::string& name, TestCa& issuer, const std::string& uri, long from_s = -3600,
                 long to_s = 86400, long* serial = nullptr) {
    auto issued = issuer.Issue(uri, from_s, to_s);
    if (serial != nullptr) *serial = issued.serial;
    TlsFlags f;
    f.ca = &issuer == &ca ? ca_path : other_ca_path;
    f.cert = dir.Write(name + ".crt", issued.cert_pem);
    f.key = dir.Write(name + ".key", issued.key_pem);
    return f;
  }
};

crawl::v1::CrawlInfo Crawl() {
  crawl::v1::CrawlInfo c;
  c.set_crawl_id(7);
  c.set_state(crawl::v1::CRAWL_STATE_RUNNING);
  return c;
}

class Client {
 public:
  Client(const TlsFlags& flags, const std::string& address) {
    auto transport = Transport::Create(flags);
    REQUIRE(transport.ok());
    stub_ = crawl::v1::QueueServer::NewStub(
        grpc::CreateChannel(address, (*transport)->ChannelCredentials({Role::kQueueServer})));
  }
  grpc::Status Submit() {
    grpc::ClientContext ctx;
    Deadline(ctx);
    crawl::v1::SubmitResultsRequest req;
    req.set_crawl_id(7);
    req.set_fetcher_id("forged");
    req.set_schedule_id(1);
    req.set_final(true);
    auto* r = req.add_records();
    r->set_url("http://a.test/forged");
    r->set_status(200);
    crawl::v1::SubmitResultsResponse resp;
    return stub_->SubmitResults(&ctx, req, &resp);
  }
  grpc::Status AddUrls() {
    grpc::ClientContext ctx;
    Deadline(ctx);
    crawl::v1::AddUrlsRequest req;
    req.set_crawl_id(7);
    req.set_fetcher_id("forged");
    req.set_batch_id("b1");
    req.add_links()->set_url("http://a.test/planted");
    crawl::v1::AddUrlsResponse resp;
    return stub_->AddUrls(&ctx, req, &resp);
  }
  grpc::Status Seed(const std::string& url) {
    grpc::ClientContext ctx;
    Deadline(ctx);
    crawl::v1::InjectSeedsRequest req;
    *req.mutable_crawl() = Crawl();
    req.add_urls(url);
    crawl::v1::InjectSeedsResponse resp;
    return stub_->InjectSeeds(&ctx, req, &resp);
  }
  crawl::v1::QueueServerStats Stats() {
    grpc::ClientContext ctx;
    Deadline(ctx);
    crawl::v1::StatsRequest req;
    req.set_crawl_id(7);
    crawl::v1::StatsResponse resp;
    REQUIRE(stub_->Stats(&ctx, req, &resp).ok());
    return resp.stats();
  }

 private:
  static void Deadline(grpc::ClientContext& ctx) {
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  }
  std::unique_ptr<crawl::v1::QueueServer::Stub> stub_;
};

}  // namespace

TEST_CASE("queue server over mutual TLS refuses every caller but its roles", "[unit][tls]") {
  Pki pki;
  long revoked_serial = 0;
  TlsFlags server_flags = pki.Flags("qs", pki.ca, "crawl://role/queueserver/qs0");
  TlsFlags nameserver = pki.Flags("ns", pki.ca, "crawl://role/nameserver/ns");
  TlsFlags fetcher = pki.Flags("fetcher", pki.ca, "crawl://role/fetcher/f0");
  TlsFlags reader = pki.Flags("reader", pki.ca, "crawl://role/reader/r");
  TlsFlags foreign = pki.Flags("foreign", pki.other_ca, "crawl://role/fetcher/f9");
  TlsFlags expired = pki.Flags("expired", pki.ca, "crawl://role/fetcher/f8", -7200, -3600);
  TlsFlags revoked = pki.Flags("revoked", pki.ca, "crawl://role/fetcher/f7", -3600, 86400, &revoked_serial);
  TlsFlags no_certificate;
  no_certificate.ca = pki.ca_path;
  server_flags.crl = pki.dir.Write("crl.pem", pki.ca.Crl({revoked_serial}));

  auto server_transport = Transport::Create(server_flags);
  REQUIRE(server_transport.ok());
  crawl::ManualClock clock;
  crawl::queueserver::QueueServerServiceImpl service("qs0", &clock);
  const Authorizer authorizer(true, nullptr);
  service.SetAuthorizer(&authorizer);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", (*server_transport)->ServerCredentials(), &port);
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  REQUIRE(server);
  const std::string address = "127.0.0.1:" + std::to_string(port);

  Client ns(nameserver, address);
  REQUIRE(ns.Seed("http://a.test/").ok());
  const auto before = ns.Stats();
  CHECK(before.urls_seen() == 1);
  bool may_change = false;  // only an allowed caller may change the frontier

  SECTION("a fetcher certificate is let through") {
    may_change = true;
    Client f(fetcher, address);
    const auto s = f.AddUrls();
    CHECK(s.error_code() != grpc::StatusCode::UNAUTHENTICATED);
    CHECK(s.error_code() != grpc::StatusCode::PERMISSION_DENIED);
    CHECK(s.error_code() != grpc::StatusCode::UNAVAILABLE);
  }
  SECTION("a reader posing as a fetcher is denied and plants nothing") {
    Client forged(reader, address);
    const auto submit = forged.Submit();
    CHECK(submit.error_code() == grpc::StatusCode::PERMISSION_DENIED);
    CHECK_THAT(submit.error_message(), Catch::Contains("fetcher") && Catch::Contains("reader"));
    CHECK(forged.AddUrls().error_code() == grpc::StatusCode::PERMISSION_DENIED);
    CHECK(forged.Seed("http://b.test/").error_code() == grpc::StatusCode::PERMISSION_DENIED);
  }
  SECTION("a fetcher may not do the name server's work") {
    Client f(fetcher, address);
    CHECK(f.Seed("http://b.test/").error_code() == grpc::StatusCode::PERMISSION_DENIED);
  }
  SECTION("no certificate: UNAUTHENTICATED") {
    Client anonymous(no_certificate, address);
    const auto s = anonymous.Submit();
    CHECK(s.error_code() == grpc::StatusCode::UNAUTHENTICATED);
    CHECK(anonymous.AddUrls().error_code() == grpc::StatusCode::UNAUTHENTICATED);
  }
  SECTION("another CA, an expired or a revoked certificate fail the handshake") {
    for (const TlsFlags* flags : {&foreign, &expired, &revoked}) {
      Client refused(*flags, address);
      CHECK(refused.Submit().error_code() == grpc::StatusCode::UNAVAILABLE);
      CHECK(refused.AddUrls().error_code() == grpc::StatusCode::UNAVAILABLE);
    }
  }
  SECTION("a plain-text client cannot talk to a TLS server") {
    Client plain(TlsFlags{}, address);
    CHECK(plain.Submit().error_code() == grpc::StatusCode::UNAVAILABLE);
  }
  SECTION("a client refuses a server of the wrong role") {
    // The fetcher expects a queue server; a reader's certificate on the
    // server side must not pass.
    auto fake_transport = Transport::Create(reader);
    REQUIRE(fake_transport.ok());
    crawl::queueserver::QueueServerServiceImpl fake("fake", &clock);
    grpc::ServerBuilder fake_builder;
    int fake_port = 0;
    fake_builder.AddListeningPort("127.0.0.1:0", (*fake_transport)->ServerCredentials(), &fake_port);
    fake_builder.RegisterService(&fake);
    auto fake_server = fake_builder.BuildAndStart();
    REQUIRE(fake_server);
    Client f(fetcher, "127.0.0.1:" + std::to_string(fake_port));
    CHECK(f.Submit().error_code() == grpc::StatusCode::UNAVAILABLE);
    fake_server->Shutdown();
  }

  const auto after = ns.Stats();
  if (!may_change) {
    CHECK(after.urls_seen() == before.urls_seen());
    CHECK(after.frontier_size() == before.frontier_size());
    CHECK(after.fetch_attempts() == before.fetch_attempts());
    CHECK(after.activity_counter() == before.activity_counter());
  } else {
    CHECK(after.urls_seen() == before.urls_seen() + 1);  // the fetcher's link went in
  }
  server->Shutdown();
}
