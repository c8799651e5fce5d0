// A finished crawl's console page keeps its chart and each fetcher's totals
// for that crawl (nameserver/crawl_monitor.h HistoryOf, nameserver/
// fetcher_tracker.h ViewsOf): before, a crawl shorter than two monitor
// samples showed "waiting for data", and a fetcher's row showed its
// process's current numbers, so a fetcher restarted after the crawl showed
// 0 fetches for the crawl it did all the work of (and one that went on to
// the next crawl showed both crawls' work on each).
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "common/base/clock.h"
#include "common/net/grpc_util.h"
#include "nameserver/console/console.h"
#include "nameserver/console/console_auth.h"
#include "nameserver/fetcher_tracker.h"
#include "nameserver/registry_store.h"
#include "nameserver/service.h"
#include "proto/crawl.grpc.pb.h"

namespace v1 = crawl::v1;
using crawl::nameserver::FetcherTracker;

namespace {

// A queue server that takes any crawl and answers nothing else.
class FakeQueueServer final : public v1::QueueServer::Service {
 public:
  grpc::Status InjectSeeds(grpc::ServerContext*, const v1::InjectSeedsRequest*,
                           v1::InjectSeedsResponse*) override {
    return grpc::Status::OK;
  }
  grpc::Status EndCrawl(grpc::ServerContext*, const v1::EndCrawlRequest*, v1::EndCrawlResponse*) override {
    return grpc::Status::OK;
  }
};

v1::FetcherStats Fetches(uint64_t n) {
  v1::FetcherStats s;
  s.set_fetches(n);
  s.set_bytes(n * 1000);
  s.set_schedules(n / 10);
  return s;
}

struct Cluster {
  crawl::ManualClock clock;
  FakeQueueServer fake;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<crawl::nameserver::RegistryStore> store;
  std::unique_ptr<crawl::nameserver::NameServerServiceImpl> service;

  Cluster() {
    auto started = crawl::StartGrpcServer("127.0.0.1:0", {&fake});
    REQUIRE(started.ok());
    server = std::move(started->server);
    auto opened = crawl::nameserver::RegistryStore::Open("");
    REQUIRE(opened.ok());
    store = std::move(*opened);
    service = std::make_unique<crawl::nameserver::NameServerServiceImpl>(
        crawl::nameserver::NameServerServiceImpl::Options{}, &clock, store.get());
    REQUIRE(service->Load().ok());
    grpc::ServerContext ctx;
    v1::RegisterQueueServerRequest reg;
    reg.mutable_server()->set_id("qs0");
    reg.mutable_server()->set_address("127.0.0.1:" + std::to_string(started->port));
    v1::RegisterQueueServerResponse registered;
    REQUIRE(service->RegisterQueueServer(&ctx, &reg, &registered).ok());
  }
  ~Cluster() {
    service.reset();
    server->Shutdown();
  }
  uint64_t Start() {
    grpc::ServerContext ctx;
    v1::StartCrawlRequest req;
    req.add_seeds("http://a.test/");
    v1::StartCrawlResponse resp;
    REQUIRE(service->StartCrawl(&ctx, &req, &resp).ok());
    return resp.crawl().crawl_id();
  }
  void Stop(uint64_t id) {
    grpc::ServerContext ctx;
    v1::StopCrawlRequest req;
    req.set_crawl_id(id);
    v1::StopCrawlResponse resp;
    REQUIRE(service->StopCrawl(&ctx, &req, &resp).ok());
  }
  // A fetcher's poll with its process's numbers.
  void Poll(const std::string& fetcher, uint64_t fetches) {
    grpc::ServerContext ctx;
    v1::GetCrawlStateRequest req;
    req.set_fetcher_id(fetcher);
    *req.mutable_stats() = Fetches(fetches);
    v1::GetCrawlStateResponse resp;
    REQUIRE(service->GetCrawlState(&ctx, &req, &resp).ok());
  }
  std::string CrawlPage(uint64_t id) {
    const crawl::nameserver::ConsoleAuth auth(std::string(32, 'k'), nullptr, [] { return false; });
    crawl::HttpRequest r;
    r.method = "GET";
    r.path = "/console/crawl";
    r.query = "id=" + std::to_string(id);
    r.host = "127.0.0.1:8080";
    const crawl::HttpReply reply = crawl::nameserver::HandleConsole({service.get(), &clock, &auth}, r);
    REQUIRE(reply.status == 200);
    return reply.body;
  }
};

bool Has(const std::string& page, const std::string& part) { return page.find(part) != std::string::npos; }

// The fetchers table's row of `id`: its fetches cell.
std::string FetcherRow(const std::string& page, const std::string& id) {
  const size_t table = page.find("<table id=\"fetchers\">");
  if (table == std::string::npos) return "";
  const size_t row = page.find("<tr><td>" + id + "</td>", table);
  if (row == std::string::npos) return "";
  return page.substr(row, page.find("</tr>", row) - row);
}

}  // namespace

TEST_CASE("a finished crawl's page keeps its chart and each fetcher's totals for it", "[unit]") {
  Cluster c;
  c.Poll("f1", 500);  // work of an earlier crawl (before this name server knew it)
  const uint64_t first = c.Start();
  c.clock.Advance(std::chrono::seconds(1));
  c.Poll("f1", 500);  // told the crawl
  c.Poll("f1", 530);
  c.clock.Advance(std::chrono::seconds(1));
  c.Stop(first);
  c.Poll("f1", 542);  // the last batches, shipped after the end
  c.Poll("f1", 0);    // restarted
  c.Poll("f1", 3);    // idle: no crawl runs

  const std::string page = c.CrawlPage(first);
  CHECK(Has(page, "id=\"crawl-state\">stopped"));
  // Two samples: the start, and the final numbers polled at the end.
  CHECK_FALSE(Has(page, "waiting for data"));
  CHECK(Has(page, "<svg id=\"chart-pages\""));
  CHECK(Has(page, "<path d=\"M"));
  CHECK(Has(FetcherRow(page, "f1"), "<td class=\"num\">42</td>"));

  // A second crawl: the first keeps its own numbers, on its older page too.
  const uint64_t second = c.Start();
  c.Poll("f1", 3);
  c.Poll("f1", 10);
  c.Stop(second);
  CHECK(Has(FetcherRow(c.CrawlPage(second), "f1"), "<td class=\"num\">7</td>"));
  const std::string older = c.CrawlPage(first);
  CHECK(Has(FetcherRow(older, "f1"), "<td class=\"num\">42</td>"));
  CHECK(Has(older, "<svg id=\"chart-pages\""));
  CHECK_FALSE(Has(older, "waiting for data"));
}

TEST_CASE("fetcher totals per crawl count the growth between polls toward the crawl told", "[unit]") {
  crawl::ManualClock clock;
  FetcherTracker t(&clock);
  t.Saw("f", Fetches(100));
  t.Told("f", 0);
  t.Saw("f", Fetches(150));  // idle or another name server's crawl: counted nowhere
  t.Told("f", 7);
  CHECK(t.ViewsOf(7).size() == 1);
  CHECK(t.ViewsOf(7)[0].stats.fetches() == 0);
  t.Saw("f", Fetches(180));
  t.Told("f", 7);
  t.Saw("f", Fetches(190));  // the crawl ended meanwhile: its last results still count for it
  t.Told("f", 0);
  t.Saw("f", Fetches(4));  // restarted: nothing more for crawl 7
  CHECK(t.ViewsOf(7)[0].stats.fetches() == 40);
  CHECK(t.ViewsOf(7)[0].stats.bytes() == 40'000);
  CHECK(t.Views()[0].stats.fetches() == 4);  // the process's own numbers
  CHECK(t.ViewsOf(8).empty());
  for (uint64_t crawl = 10; crawl < 10 + FetcherTracker::kCrawlsKept; ++crawl) t.Told("f", crawl);
  CHECK(t.ViewsOf(7).empty());  // only the latest kCrawlsKept crawls are kept
  t.Told("nobody", 7);          // a fetcher never seen is not made up
  CHECK(t.ViewsOf(7).empty());
}
