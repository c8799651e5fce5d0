// The console's host page shows the host's queue
// (nameserver/console/console_host.cc): the rendering on its own (escaping, the
// truncated note, the error line), then the page against fake queue servers
// on loopback: only the one that owns the host is asked, and one that is
// down leaves an error line on a page that still loads.
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "common/crawl/rendezvous.h"
#include "common/net/grpc_util.h"
#include "nameserver/console/console.h"
#include "nameserver/console/console_auth.h"
#include "nameserver/registry_store.h"
#include "nameserver/service.h"
#include "proto/crawl.grpc.pb.h"
#include "tests/unit/support/temp_dir.h"

namespace v1 = crawl::v1;
using crawl::nameserver::ConsoleHostQueueHtml;

namespace {

bool Has(const std::string& page, const std::string& part) { return page.find(part) != std::string::npos; }

v1::HostQueueResponse Answer() {
  v1::HostQueueResponse r;
  auto* t0 = r.add_tiers();
  t0->set_tier(0);
  t0->set_urls(1234);
  auto* t2 = r.add_tiers();
  t2->set_tier(2);
  t2->set_urls(5);
  r.set_waiting_for_robots(7);
  r.set_leased(3);
  r.set_scanned(1'000'000);
  r.add_sample_urls("http://a.test/<script>alert(1)</script>");
  r.add_sample_urls("http://a.test/b?x=1&y=2");
  return r;
}

// A queue server that answers HostQueue with Answer() and an empty log,
// and remembers the hosts it was asked about.
class FakeQueueServer final : public v1::QueueServer::Service {
 public:
  grpc::Status HostQueue(grpc::ServerContext*, const v1::HostQueueRequest* req,
                         v1::HostQueueResponse* resp) override {
    std::lock_guard lock(mu_);
    asked_.push_back(req->host());
    *resp = Answer();
    return grpc::Status::OK;
  }
  grpc::Status GetCrawlLog(grpc::ServerContext*, const v1::GetCrawlLogRequest*,
                           v1::CrawlLogChunk* chunk) override {
    chunk->set_end(true);
    return grpc::Status::OK;
  }
  std::vector<std::string> asked() {
    std::lock_guard lock(mu_);
    return asked_;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> asked_;
};

struct FakeServer {
  std::string id;
  FakeQueueServer service;
  std::unique_ptr<grpc::Server> server;
  std::string address;
  explicit FakeServer(std::string name) : id(std::move(name)) {
    auto started = crawl::StartGrpcServer("127.0.0.1:0", {&service});
    REQUIRE(started.ok());
    server = std::move(started->server);
    address = "127.0.0.1:" + std::to_string(started->port);
  }
  ~FakeServer() { Stop(); }
  void Stop() {
    if (server) server->Shutdown();
    server.reset();
  }
};

crawl::HttpReply HostPage(crawl::nameserver::NameServerServiceImpl& service, const crawl::Clock& clock,
                          const std::string& host) {
  const crawl::nameserver::ConsoleAuth auth(std::string(32, 'k'), nullptr, [] { return false; });
  crawl::HttpRequest r;
  r.method = "GET";
  r.path = "/console/host";
  r.query = "crawl=5&host=" + host;
  r.host = "127.0.0.1:8080";
  return crawl::nameserver::HandleConsole({&service, &clock, &auth}, r);
}

}  // namespace

TEST_CASE("the host queue section shows tiers, waiting and leased URLs, escaped", "[unit]") {
  v1::HostQueueResponse r = Answer();
  r.set_queue_server_id("qs-<1>");
  const std::string html = ConsoleHostQueueHtml(grpc::Status::OK, r);
  CHECK(Has(html, "<table id=\"host-queue\">"));
  CHECK(Has(html, "<tr><td>0</td><td>1,234</td></tr>"));
  CHECK(Has(html, "<tr><td>2</td><td>5</td></tr>"));
  CHECK(Has(html, "<td id=\"host-waiting\">7</td>"));
  CHECK(Has(html, "<td id=\"host-leased\">3</td>"));
  CHECK(Has(html, "qs-&lt;1&gt;"));
  CHECK(Has(html, "<li>http://a.test/&lt;script&gt;alert(1)&lt;/script&gt;</li>"));
  CHECK(Has(html, "<li>http://a.test/b?x=1&amp;y=2</li>"));
  CHECK_FALSE(Has(html, "<script>"));
  CHECK_FALSE(Has(html, "at least"));
  r.set_truncated(true);
  CHECK(Has(ConsoleHostQueueHtml(grpc::Status::OK, r), "(at least: the scan stopped at 1,000,000 entries)"));
}

TEST_CASE("the host queue section says when nothing is queued or the server cannot answer", "[unit]") {
  v1::HostQueueResponse empty;
  empty.set_queue_server_id("qs0");
  const std::string none = ConsoleHostQueueHtml(grpc::Status::OK, empty);
  CHECK(Has(none, "none queued"));
  CHECK_FALSE(Has(none, "host-queue-urls"));
  empty.set_unknown_crawl(true);
  CHECK(Has(ConsoleHostQueueHtml(grpc::Status::OK, empty), "does not have this crawl"));
  const std::string down =
      ConsoleHostQueueHtml(grpc::Status(grpc::StatusCode::UNAVAILABLE, "queue server qs0: <refused>"), {});
  CHECK(Has(down, "id=\"host-queue-error\""));
  CHECK(Has(down, "&lt;refused&gt;"));
  CHECK_FALSE(Has(down, "<table"));
}

TEST_CASE("the host page asks the queue server that owns the host, and loads when it is down", "[unit]") {
  FakeServer qs0("qs0"), qs1("qs1");
  crawl::test_support::TempDir dir;
  crawl::ManualClock clock;
  v1::CrawlInfo crawl;
  crawl.set_crawl_id(5);
  crawl.set_state(v1::CRAWL_STATE_STOPPED);
  for (FakeServer* s : {&qs0, &qs1}) {
    auto* info = crawl.add_queue_servers();
    info->set_id(s->id);
    info->set_address(s->address);
  }
  auto store = crawl::nameserver::RegistryStore::Open(dir.path.string());
  REQUIRE(store.ok());
  REQUIRE((*store)->PutCrawl(crawl).ok());
  crawl::nameserver::NameServerServiceImpl service({}, &clock, store->get());
  REQUIRE(service.Load().ok());

  // The owner by the rule seeds are partitioned by (QueueServerFleet::StartCrawl).
  const size_t owner = crawl::OwnerIndex({"qs0", "qs1"}, "a.test");
  FakeServer& owns = owner == 0 ? qs0 : qs1;
  FakeServer& other = owner == 0 ? qs1 : qs0;
  const crawl::HttpReply page = HostPage(service, clock, "a.test");
  CHECK(page.status == 200);
  CHECK(Has(page.body, "<table id=\"host-queue\">"));
  CHECK(Has(page.body, "<span id=\"host-queue-server\">" + owns.id + "</span>"));
  CHECK(Has(page.body, "<li>http://a.test/&lt;script&gt;alert(1)&lt;/script&gt;</li>"));
  CHECK(owns.service.asked() == std::vector<std::string>{"a.test"});
  CHECK(other.service.asked().empty());

  owns.Stop();
  const crawl::HttpReply down = HostPage(service, clock, "a.test");
  CHECK(down.status == 200);
  CHECK(Has(down.body, "id=\"host-queue-error\""));
  CHECK(Has(down.body, owns.id));
  CHECK_FALSE(Has(down.body, "<table id=\"host-queue\">"));
}
