// The fetcher's control loop (fetcher/crawl_worker.h) against in-process fake
// name and queue servers (real gRPC on loopback) and a test HTTP server.
#include "fetcher/crawl_worker.h"

#include "tests/unit/fetcher/test_http_server.h"

#include <catch2/catch.hpp>

#include <condition_variable>
#include <map>

#include "common/grpc_util.h"

namespace {

using namespace crawl::fetcher::testing;
namespace v1 = crawl::v1;

class FakeQueueServer final : public v1::QueueServer::Service {
 public:
  explicit FakeQueueServer(std::vector<v1::ScheduledUrl> urls) : urls_(std::move(urls)) {}
  grpc::Status GetSchedule(grpc::ServerContext*, const v1::GetScheduleRequest*, v1::GetScheduleResponse* resp) override {
    std::lock_guard lock(mu_);
    if (handed_out_) return grpc::Status::OK;
    handed_out_ = true;
    resp->set_schedule_id(7);
    for (const auto& u : urls_) *resp->add_urls() = u;
    return grpc::Status::OK;
  }
  grpc::Status SubmitResults(grpc::ServerContext*, const v1::SubmitResultsRequest* req,
                             v1::SubmitResultsResponse*) override {
    std::lock_guard lock(mu_);
    for (const auto& r : req->records()) records_[r.url()] = r;
    if (req->final()) done_ = true;
    cv_.notify_all();
    return grpc::Status::OK;
  }
  // Waits for the final batch; returns the records by URL.
  std::map<std::string, v1::FetchRecord> WaitFinal() {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(20), [this] { return done_; });
    REQUIRE(done_);
    return records_;
  }

 private:
  std::vector<v1::ScheduledUrl> urls_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool handed_out_ = false;
  bool done_ = false;
  std::map<std::string, v1::FetchRecord> records_;
};

class FakeNameServer final : public v1::NameServer::Service {
 public:
  FakeNameServer(std::string queue_server, bool accept_self_signed)
      : queue_server_(std::move(queue_server)), accept_self_signed_(accept_self_signed) {}
  grpc::Status GetCrawlState(grpc::ServerContext*, const v1::GetCrawlStateRequest*,
                             v1::GetCrawlStateResponse* resp) override {
    resp->set_active(true);
    auto* c = resp->mutable_crawl();
    c->set_crawl_id(1);
    c->set_state(v1::CRAWL_STATE_RUNNING);
    c->set_params_version(1);
    auto* p = c->mutable_params();
    p->set_user_agent("crawlbot");
    p->set_schedule_size(100);
    p->set_results_batch_pages(400);
    p->set_fetch_timeout_ms(5000);
    p->set_max_links_per_page(300);
    p->set_page_range_bytes(1'000'000);
    p->set_allow_private_addresses(true);
    p->set_accept_self_signed(accept_self_signed_);
    auto* qs = c->add_queue_servers();
    qs->set_id("qs0");
    qs->set_address(queue_server_);
    return grpc::Status::OK;
  }

 private:
  std::string queue_server_;
  bool accept_self_signed_;
};

v1::ScheduledUrl Scheduled(const std::string& url, v1::UrlKind kind) {
  v1::ScheduledUrl u;
  u.set_url(url);
  u.set_kind(kind);
  return u;
}

// Runs one schedule through a CrawlWorker and returns what reached the queue server.
std::map<std::string, v1::FetchRecord> RunOneSchedule(const std::vector<v1::ScheduledUrl>& urls,
                                                      bool accept_self_signed = false) {
  FakeQueueServer qs(urls);
  auto qs_server = crawl::StartGrpcServer("127.0.0.1:0", {&qs});
  REQUIRE(qs_server.ok());
  FakeNameServer ns("127.0.0.1:" + std::to_string(qs_server->port), accept_self_signed);
  auto ns_server = crawl::StartGrpcServer("127.0.0.1:0", {&ns});
  REQUIRE(ns_server.ok());

  crawl::fetcher::WorkerOptions options;
  options.fetcher_id = "test";
  options.nameserver = "127.0.0.1:" + std::to_string(ns_server->port);
  options.idle_backoff = std::chrono::milliseconds(20);
  crawl::fetcher::CrawlWorker worker(options);
  std::thread run([&] { worker.Run(); });
  auto records = qs.WaitFinal();
  worker.RequestStop();
  run.join();
  ns_server->server->Shutdown();
  qs_server->server->Shutdown();
  return records;
}

}  // namespace

TEST_CASE("robots.txt redirects are followed and reported as the scheduled robots.txt", "[unit][rfc9309]") {
  TestServer web([](const Request& r) {
    if (r.target() == "/robots.txt") return Reply{Response(301, "", "Location: /moved\r\n")};
    if (r.target() == "/moved") return Reply{Response(302, "", "Location: /robots-real.txt\r\n")};
    if (r.target() == "/robots-real.txt") return Reply{Response(200, "User-agent: *\nDisallow: /x\n")};
    return Reply{Response(200, "<a href='/next'>n</a>")};
  });
  const std::string robots = web.base() + "/robots.txt";
  auto records = RunOneSchedule({Scheduled(robots, v1::URL_KIND_ROBOTS), Scheduled(web.base() + "/page", v1::URL_KIND_PAGE)});
  REQUIRE(records.count(robots) == 1);
  const auto& r = records[robots];
  CHECK(r.status() == 200);
  CHECK(r.robots_body() == "User-agent: *\nDisallow: /x\n");
  CHECK(r.error().find("2 redirect") != std::string::npos);
  CHECK(records.count(web.base() + "/moved") == 0);  // hops are not reported as their own URLs
  REQUIRE(records.count(web.base() + "/page") == 1);
  CHECK(records[web.base() + "/page"].status() == 200);
}

TEST_CASE("a robots.txt redirect chain longer than five hops is reported as a redirect", "[unit][rfc9309]") {
  TestServer web([](const Request& r) {
    // /robots.txt -> /r1 -> /r2 -> ... forever
    const std::string t(r.target());
    const int n = t == "/robots.txt" ? 0 : std::stoi(t.substr(2));
    return Reply{Response(301, "", "Location: /r" + std::to_string(n + 1) + "\r\n")};
  });
  const std::string robots = web.base() + "/robots.txt";
  auto records = RunOneSchedule({Scheduled(robots, v1::URL_KIND_ROBOTS)});
  REQUIRE(records.count(robots) == 1);
  CHECK(records[robots].status() == 301);
  CHECK(records[robots].error().find("5 redirect") != std::string::npos);
  CHECK(web.requests().size() == 6);  // the robots.txt and five hops
}

TEST_CASE("the crawl's accept_self_signed setting reaches the fetcher's https client", "[unit][policy]") {
  const Certificate certificate = MakeSelfSigned("127.0.0.1");
  auto tls = ServerContext(certificate);
  TestServer web([](const Request&) { return Reply{Response(200, "<p>ok</p>")}; }, tls.get());
  const std::string page = "https://127.0.0.1:" + std::to_string(web.port()) + "/";
  SECTION("off by default: the certificate is refused") {
    auto records = RunOneSchedule({Scheduled(page, v1::URL_KIND_PAGE)});
    REQUIRE(records.count(page) == 1);
    CHECK(records[page].status() == crawl::fetcher::kTlsError);
  }
  SECTION("on: the page is fetched") {
    auto records = RunOneSchedule({Scheduled(page, v1::URL_KIND_PAGE)}, /*accept_self_signed=*/true);
    REQUIRE(records.count(page) == 1);
    CHECK(records[page].status() == 200);
  }
}
