// No forgotten crawls and `crawlctl delete` on
// the name server, against fake queue servers on loopback that keep the set
// of crawls they hold:
//  - StartCrawl "killed" at each step (nameserver/start_fault.h: the hook
//    stops the call on the spot, as a kill would; the store is then closed
//    and reopened as by a restart): afterwards the name server and every
//    queue server agree, both have the crawl or none has it;
//  - DeleteCrawl refuses a running crawl, removes a stopped one everywhere,
//    and keeps a delete pending for a queue server that is down until it is
//    back (across a name server restart too).
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "common/base/clock.h"
#include "common/net/grpc_util.h"
#include "nameserver/registry_store.h"
#include "nameserver/service.h"
#include "proto/crawl.grpc.pb.h"
#include "tests/unit/support/temp_dir.h"

namespace v1 = crawl::v1;
using crawl::nameserver::NameServerServiceImpl;
using crawl::nameserver::RegistryStore;

using crawl::test_support::TempDir;

namespace {

// A queue server that only keeps which crawls it holds.
class FakeQueueServer final : public v1::QueueServer::Service {
 public:
  grpc::Status InjectSeeds(grpc::ServerContext*, const v1::InjectSeedsRequest* req,
                           v1::InjectSeedsResponse*) override {
    std::lock_guard lock(mu_);
    crawls_[req->crawl().crawl_id()] = req->crawl().state();
    return grpc::Status::OK;
  }
  grpc::Status EndCrawl(grpc::ServerContext*, const v1::EndCrawlRequest* req,
                        v1::EndCrawlResponse*) override {
    std::lock_guard lock(mu_);
    auto it = crawls_.find(req->crawl_id());
    if (it == crawls_.end()) return {grpc::StatusCode::FAILED_PRECONDITION, "no such crawl"};
    it->second = req->state();
    return grpc::Status::OK;
  }
  grpc::Status DeleteCrawl(grpc::ServerContext*, const v1::DeleteCrawlRequest* req,
                           v1::DeleteCrawlResponse* resp) override {
    std::lock_guard lock(mu_);
    resp->set_existed(crawls_.erase(req->crawl_id()) > 0);
    return grpc::Status::OK;
  }
  std::set<uint64_t> Crawls() {
    std::lock_guard lock(mu_);
    std::set<uint64_t> ids;
    for (const auto& [id, state] : crawls_) ids.insert(id);
    return ids;
  }

 private:
  std::mutex mu_;
  std::map<uint64_t, v1::CrawlState> crawls_;
};

// A fake queue server listening on a loopback port of its own.
struct QueueServerProcess {
  std::string id;
  FakeQueueServer service;
  std::unique_ptr<grpc::Server> server;
  std::string address;

  explicit QueueServerProcess(std::string name) : id(std::move(name)) { Start(); }
  ~QueueServerProcess() { Stop(); }
  void Start() {
    auto started = crawl::StartGrpcServer("127.0.0.1:0", {&service});
    REQUIRE(started.ok());
    server = std::move(started->server);
    address = "127.0.0.1:" + std::to_string(started->port);
  }
  void Stop() {
    if (server) server->Shutdown();
    server.reset();
  }
  v1::QueueServerInfo Info() const {
    v1::QueueServerInfo info;
    info.set_id(id);
    info.set_address(address);
    return info;
  }
};

// A name server process over the registry in `dir`: destroying it is a
// kill (every registry write is synced; nothing is written on the way out).
struct NameServer {
  crawl::ManualClock* clock;
  std::unique_ptr<RegistryStore> store;
  std::unique_ptr<NameServerServiceImpl> service;

  NameServer(const std::filesystem::path& dir, crawl::ManualClock* c, const std::string& fault_step = "")
      : clock(c) {
    auto opened = RegistryStore::Open(dir.string());
    REQUIRE(opened.ok());
    store = std::move(*opened);
    NameServerServiceImpl::Options options;
    options.start_fault = [fault_step](std::string_view step) { return step == fault_step; };
    service = std::make_unique<NameServerServiceImpl>(options, clock, store.get());
    REQUIRE(service->Load().ok());
  }
  // Queue servers come back as after a restart: a heartbeat each (or a
  // registration when the name server does not know them at that address).
  void Heartbeats(const std::vector<QueueServerProcess*>& servers) {
    for (auto* qs : servers) {
      grpc::ServerContext ctx;
      v1::HeartbeatRequest req;
      *req.mutable_server() = qs->Info();
      v1::HeartbeatResponse resp;
      REQUIRE(service->Heartbeat(&ctx, &req, &resp).ok());
      if (resp.known()) continue;
      grpc::ServerContext rctx;
      v1::RegisterQueueServerRequest reg;
      *reg.mutable_server() = qs->Info();
      v1::RegisterQueueServerResponse rresp;
      REQUIRE(service->RegisterQueueServer(&rctx, &reg, &rresp).ok());
    }
  }
  grpc::Status Start(v1::StartCrawlResponse* resp) {
    grpc::ServerContext ctx;
    v1::StartCrawlRequest req;
    for (const char* u : {"http://a.test/", "http://b.test/", "http://c.test/", "http://d.test/"})
      req.add_seeds(u);
    return service->StartCrawl(&ctx, &req, resp);
  }
  grpc::Status Stop(uint64_t id) {
    grpc::ServerContext ctx;
    v1::StopCrawlRequest req;
    req.set_crawl_id(id);
    v1::StopCrawlResponse resp;
    return service->StopCrawl(&ctx, &req, &resp);
  }
  grpc::Status Delete(uint64_t id, v1::DeleteCrawlResponse* resp) {
    grpc::ServerContext ctx;
    v1::DeleteCrawlRequest req;
    req.set_crawl_id(id);
    return service->DeleteCrawl(&ctx, &req, resp);
  }
  std::set<uint64_t> Crawls() {
    grpc::ServerContext ctx;
    v1::ListCrawlsRequest req;
    v1::ListCrawlsResponse resp;
    REQUIRE(service->ListCrawls(&ctx, &req, &resp).ok());
    std::set<uint64_t> ids;
    for (const auto& c : resp.crawls()) ids.insert(c.crawl_id());
    return ids;
  }
};

}  // namespace

TEST_CASE("start crawl killed at any step: after a restart the name server and its queue servers agree",
          "[unit][integration]") {
  const std::string step = GENERATE(std::string("after_persist"), std::string("after_first_queue_server"),
                                    std::string("after_fanout"), std::string("after_activate"));
  INFO("killed " << step);
  TempDir dir;
  crawl::ManualClock clock;
  QueueServerProcess qs0("qs0"), qs1("qs1");
  {
    NameServer ns(dir.path, &clock, step);
    ns.Heartbeats({&qs0, &qs1});
    v1::StartCrawlResponse resp;
    const grpc::Status s = ns.Start(&resp);
    CHECK(s.error_code() == grpc::StatusCode::ABORTED);  // "killed"
  }
  // What each queue server held when the name server died.
  const size_t held = qs0.service.Crawls().size() + qs1.service.Crawls().size();
  CHECK(held == (step == "after_persist" ? 0u : step == "after_first_queue_server" ? 1u : 2u));

  clock.Advance(std::chrono::seconds(5));
  NameServer ns(dir.path, &clock);
  ns.Heartbeats({&qs0, &qs1});
  ns.service->RetryPendingDeletes();
  const std::set<uint64_t> registry = ns.Crawls();
  CHECK(qs0.service.Crawls() == registry);
  CHECK(qs1.service.Crawls() == registry);
  if (step == "after_activate") {
    CHECK(registry.size() == 1);  // it was recorded as running: it stays
  } else {
    CHECK(registry.empty());  // rolled back everywhere
    CHECK(ns.service->TakeSnapshot().active_crawl == 0);
  }

  // Whatever happened, the next start works and gets an id of its own.
  if (step != "after_activate") {
    clock.Advance(std::chrono::seconds(5));
    v1::StartCrawlResponse resp;
    REQUIRE(ns.Start(&resp).ok());
    CHECK(ns.Crawls() == std::set<uint64_t>{resp.crawl().crawl_id()});
    CHECK(qs0.service.Crawls() == std::set<uint64_t>{resp.crawl().crawl_id()});
    CHECK(qs1.service.Crawls() == std::set<uint64_t>{resp.crawl().crawl_id()});
  }
}

TEST_CASE("a refused start is rolled back on the queue servers that took it", "[unit]") {
  TempDir dir;
  crawl::ManualClock clock;
  QueueServerProcess qs0("qs0"), qs1("qs1");
  NameServer ns(dir.path, &clock);
  ns.Heartbeats({&qs0, &qs1});
  qs1.Stop();  // registered, then gone: its InjectSeeds fails
  v1::StartCrawlResponse resp;
  CHECK_FALSE(ns.Start(&resp).ok());
  CHECK(ns.Crawls().empty());
  CHECK(qs0.service.Crawls().empty());
}

TEST_CASE("delete crawl: refused while running, then gone everywhere; a down queue server is told later",
          "[unit][integration]") {
  TempDir dir;
  crawl::ManualClock clock;
  QueueServerProcess qs0("qs0"), qs1("qs1");
  uint64_t id = 0;
  {
    NameServer ns(dir.path, &clock);
    ns.Heartbeats({&qs0, &qs1});
    v1::StartCrawlResponse started;
    REQUIRE(ns.Start(&started).ok());
    id = started.crawl().crawl_id();

    v1::DeleteCrawlResponse resp;
    const grpc::Status running = ns.Delete(id, &resp);
    CHECK(running.error_code() == grpc::StatusCode::FAILED_PRECONDITION);
    CHECK(running.error_message().find("running") != std::string::npos);
    CHECK(ns.Delete(0, &resp).error_code() == grpc::StatusCode::INVALID_ARGUMENT);

    REQUIRE(ns.Stop(id).ok());
    qs1.Stop();  // down at delete time
    resp.Clear();
    REQUIRE(ns.Delete(id, &resp).ok());
    CHECK(resp.existed());
    CHECK(resp.pending_queue_servers_size() == 1);
    CHECK(resp.pending_queue_servers(0) == "qs1");
    CHECK(ns.Crawls().empty());
    CHECK(qs0.service.Crawls().empty());
    CHECK(qs1.service.Crawls() == std::set<uint64_t>{id});

    // Deleting again is fine (the pending part is retried).
    resp.Clear();
    REQUIRE(ns.Delete(id, &resp).ok());
    CHECK_FALSE(resp.existed());
    CHECK(resp.pending_queue_servers_size() == 1);
  }  // the name server is restarted while qs1 is still down

  clock.Advance(std::chrono::seconds(5));
  NameServer ns(dir.path, &clock);
  CHECK(ns.service->TakeSnapshot().crawls.empty());
  REQUIRE(ns.store->Load().ok());
  CHECK(ns.store->Load()->pending_deletes.count(id) == 1);
  ns.Heartbeats({&qs0});
  ns.service->RetryPendingDeletes();  // qs1 is not live: not tried
  CHECK(qs1.service.Crawls() == std::set<uint64_t>{id});

  qs1.Start();  // back, on a new port
  ns.Heartbeats({&qs0, &qs1});
  ns.service->RetryPendingDeletes();
  CHECK(qs1.service.Crawls().empty());
  CHECK(ns.store->Load()->pending_deletes.empty());

  // A new crawl never takes the id of one still being deleted (here: done).
  clock.Advance(std::chrono::seconds(1));
  v1::StartCrawlResponse next;
  REQUIRE(ns.Start(&next).ok());
  CHECK(next.crawl().crawl_id() != id);
}

TEST_CASE("crawl status long poll: held while the crawl runs, answered with its end after a stop", "[unit]") {
  TempDir dir;
  crawl::ManualClock clock;
  QueueServerProcess qs0("qs0");
  NameServer ns(dir.path, &clock);
  ns.Heartbeats({&qs0});
  v1::StartCrawlResponse started;
  REQUIRE(ns.Start(&started).ok());
  const uint64_t id = started.crawl().crawl_id();
  auto ask = [&](uint32_t wait_ms) {
    grpc::ServerContext ctx;
    v1::CrawlStatusRequest req;
    req.set_crawl_id(id);
    req.set_wait_ms(wait_ms);
    v1::CrawlStatusResponse resp;
    // UNSPECIFIED for a failed call (no REQUIRE: the waiter below is a thread of its own).
    if (!ns.service->CrawlStatus(&ctx, &req, &resp).ok()) return v1::CRAWL_STATE_UNSPECIFIED;
    return resp.crawl().state();
  };

  // Running: the answer is held for the asked time (a lower bound only),
  // and says running.
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(ask(200) == v1::CRAWL_STATE_RUNNING);
  CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(190));
  // wait_ms 0 answers at once, as before.
  CHECK(ask(0) == v1::CRAWL_STATE_RUNNING);

  // A waiter asking again and again (as crawlctl wait does) sees the stop.
  v1::CrawlState seen = v1::CRAWL_STATE_RUNNING;
  std::thread waiter([&] {
    for (int i = 0; i < 60 && seen == v1::CRAWL_STATE_RUNNING; ++i) seen = ask(1000);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  REQUIRE(ns.Stop(id).ok());
  waiter.join();
  CHECK(seen == v1::CRAWL_STATE_STOPPED);
  // Ended and settled: at once.
  const auto t1 = std::chrono::steady_clock::now();
  CHECK(ask(1000) == v1::CRAWL_STATE_STOPPED);
  CHECK(std::chrono::steady_clock::now() - t1 < std::chrono::milliseconds(900));
}
