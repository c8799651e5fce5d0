// crawlctl wait (crawl_commands.h) against an in-process name server that
// answers CrawlStatus from a script.
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <string>
#include <vector>

#include "crawlctl/crawl_commands.h"
#include "crawlctl/nameserver_client.h"

namespace {

using crawl::crawlctl::NameServerClient;
using crawl::crawlctl::RunWait;
using crawl::crawlctl::WaitOptions;
namespace v1 = crawl::v1;

// Answers the i-th CrawlStatus call with states[i] (the last one after
// that); an UNSPECIFIED entry answers UNAVAILABLE (a restarting server).
class ScriptedNameServer final : public v1::NameServer::Service {
 public:
  explicit ScriptedNameServer(std::vector<v1::CrawlState> states) : states_(std::move(states)) {}

  grpc::Status CrawlStatus(grpc::ServerContext*, const v1::CrawlStatusRequest* req,
                           v1::CrawlStatusResponse* resp) override {
    std::lock_guard lock(mu_);
    asked_for_.push_back(req->crawl_id());
    wait_ms_.push_back(req->wait_ms());
    const v1::CrawlState state = states_[std::min(calls_++, states_.size() - 1)];
    if (state == v1::CRAWL_STATE_UNSPECIFIED) return {grpc::StatusCode::UNAVAILABLE, "restarting"};
    resp->mutable_crawl()->set_crawl_id(77);
    resp->mutable_crawl()->set_state(state);
    return grpc::Status::OK;
  }

  std::vector<uint64_t> AskedFor() {
    std::lock_guard lock(mu_);
    return asked_for_;
  }
  std::vector<uint32_t> WaitMs() {
    std::lock_guard lock(mu_);
    return wait_ms_;
  }

 private:
  std::mutex mu_;
  std::vector<v1::CrawlState> states_;
  size_t calls_ = 0;
  std::vector<uint64_t> asked_for_;
  std::vector<uint32_t> wait_ms_;
};

struct Served {
  explicit Served(std::vector<v1::CrawlState> states) : service(std::move(states)) {
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&service);
    server = builder.BuildAndStart();
    REQUIRE(server);
    client.address = "127.0.0.1:" + std::to_string(port);
    client.stub =
        v1::NameServer::NewStub(grpc::CreateChannel(client.address, grpc::InsecureChannelCredentials()));
  }
  ~Served() { server->Shutdown(); }

  ScriptedNameServer service;
  std::unique_ptr<grpc::Server> server;
  NameServerClient client;
};

WaitOptions Quick(double timeout_s = 0) {
  WaitOptions o;
  o.interval_ms = 10;
  o.timeout_s = timeout_s;
  return o;
}

}  // namespace

TEST_CASE("wait returns once the crawl is done, asking for the crawl it first saw", "[unit]") {
  Served ns(
      {v1::CRAWL_STATE_RUNNING, v1::CRAWL_STATE_RUNNING, v1::CRAWL_STATE_UNSPECIFIED, v1::CRAWL_STATE_DONE});
  bool timed_out = true;
  CHECK(RunWait(ns.client, Quick(), &timed_out).ok());
  CHECK_FALSE(timed_out);
  // The first call asks for the active or latest crawl, the rest for 77, and
  // the unreachable answer in between was asked again, not fatal.
  CHECK(ns.service.AskedFor() == std::vector<uint64_t>{0, 77, 77, 77});
}

TEST_CASE("wait fails, not times out, when the crawl ends stopped", "[unit]") {
  Served ns({v1::CRAWL_STATE_RUNNING, v1::CRAWL_STATE_STOPPED});
  bool timed_out = true;
  const crawl::Status s = RunWait(ns.client, Quick(), &timed_out);
  CHECK_FALSE(s.ok());
  CHECK_FALSE(timed_out);
  CHECK(s.message().find("crawl 77 ended stopped") != std::string::npos);
}

TEST_CASE("wait gives up at its timeout while the crawl runs on", "[unit]") {
  Served ns({v1::CRAWL_STATE_RUNNING});
  bool timed_out = false;
  const crawl::Status s = RunWait(ns.client, Quick(0.1), &timed_out);
  CHECK(timed_out);
  CHECK(s.message().find("crawl 77 still running after") != std::string::npos);
}

TEST_CASE("wait asks the name server to hold each answer, never past its timeout", "[unit]") {
  {
    Served ns({v1::CRAWL_STATE_RUNNING, v1::CRAWL_STATE_DONE});
    bool timed_out = true;
    CHECK(RunWait(ns.client, Quick(), &timed_out).ok());
    // No timeout: a second's hold each time (the name server's most).
    CHECK(ns.service.WaitMs() == std::vector<uint32_t>{1000, 1000});
  }
  Served ns({v1::CRAWL_STATE_RUNNING});
  bool timed_out = false;
  (void)RunWait(ns.client, Quick(0.3), &timed_out);
  CHECK(timed_out);
  const std::vector<uint32_t> waits = ns.service.WaitMs();
  REQUIRE(waits.size() >= 2);
  CHECK(waits.front() > 0);
  for (const uint32_t w : waits) CHECK(w <= 300);
}
