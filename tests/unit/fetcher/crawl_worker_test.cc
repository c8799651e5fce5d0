// The fetcher's control loop (fetcher/crawl_worker.h) against in-process fake
// name and queue servers (real gRPC on loopback) and a test HTTP server.
#include "fetcher/crawl_worker.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <functional>
#include <map>
#include <thread>

#include "common/base/hash.h"
#include "common/net/grpc_util.h"
#include "fetcher/host_groups.h"
#include "fetcher/robots_redirects.h"
#include "tests/unit/fetcher/test_http_server.h"
#include "tests/unit/support/mini_index_terms.h"

namespace {

using namespace crawl::fetcher::testing;
namespace v1 = crawl::v1;

class FakeQueueServer final : public v1::QueueServer::Service {
 public:
  // A batch as it arrived: sequence, final, records.
  struct Batch {
    uint64_t sequence;
    bool final;
    int records;
    int links;
  };
  // `submit_delay`: how long each SubmitResults takes (a busy queue server).
  explicit FakeQueueServer(std::vector<v1::ScheduledUrl> urls,
                           std::chrono::milliseconds submit_delay = std::chrono::milliseconds(0))
      : urls_(std::move(urls)), submit_delay_(submit_delay) {}
  grpc::Status GetSchedule(grpc::ServerContext*, const v1::GetScheduleRequest*,
                           v1::GetScheduleResponse* resp) override {
    std::lock_guard lock(mu_);
    if (handed_out_) return grpc::Status::OK;
    handed_out_ = true;
    resp->set_schedule_id(7);
    for (const auto& u : urls_) *resp->add_urls() = u;
    return grpc::Status::OK;
  }
  grpc::Status SubmitResults(grpc::ServerContext*, const v1::SubmitResultsRequest* req,
                             v1::SubmitResultsResponse*) override {
    std::this_thread::sleep_for(submit_delay_);
    std::lock_guard lock(mu_);
    batches_.push_back({req->sequence(), req->final(), req->records_size(), req->links_size()});
    for (const auto& r : req->records()) records_[r.url()] = r;
    for (const auto& h : req->host_errors()) host_errors_[h.origin()] += h.errors();
    for (const auto& l : req->links()) links_.push_back(l.url());
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
  std::map<std::string, uint32_t> host_errors() {
    std::lock_guard lock(mu_);
    return host_errors_;
  }
  std::vector<std::string> links() {
    std::lock_guard lock(mu_);
    return links_;
  }
  std::vector<Batch> batches() {
    std::lock_guard lock(mu_);
    return batches_;
  }

 private:
  std::vector<v1::ScheduledUrl> urls_;
  std::chrono::milliseconds submit_delay_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool handed_out_ = false;
  bool done_ = false;
  std::map<std::string, v1::FetchRecord> records_;
  std::map<std::string, uint32_t> host_errors_;
  std::vector<std::string> links_;
  std::vector<Batch> batches_;
};

class FakeNameServer final : public v1::NameServer::Service {
 public:
  // `more_queue_servers`: addresses of the crawl's other queue servers
  // (qs1, qs2, ...), after qs0 at `queue_server`.
  FakeNameServer(std::string queue_server, bool accept_self_signed,
                 std::function<void(v1::CrawlParams*)> tweak = nullptr,
                 std::vector<std::string> more_queue_servers = {})
      : queue_server_(std::move(queue_server)),
        accept_self_signed_(accept_self_signed),
        tweak_(std::move(tweak)),
        more_queue_servers_(std::move(more_queue_servers)) {}
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
    if (tweak_) tweak_(p);
    auto* qs = c->add_queue_servers();
    qs->set_id("qs0");
    qs->set_address(queue_server_);
    for (size_t i = 0; i < more_queue_servers_.size(); ++i) {
      auto* more = c->add_queue_servers();
      more->set_id("qs" + std::to_string(i + 1));
      more->set_address(more_queue_servers_[i]);
    }
    return grpc::Status::OK;
  }

 private:
  std::string queue_server_;
  bool accept_self_signed_;
  std::function<void(v1::CrawlParams*)> tweak_;
  std::vector<std::string> more_queue_servers_;
};

v1::ScheduledUrl Scheduled(const std::string& url, v1::UrlKind kind) {
  v1::ScheduledUrl u;
  u.set_url(url);
  u.set_kind(kind);
  return u;
}

struct Outcome {
  std::map<std::string, v1::FetchRecord> records;
  std::map<std::string, uint32_t> host_errors;
  std::vector<std::string> links;
  std::vector<FakeQueueServer::Batch> batches;
};

// Threads of the worker's process pool in RunScheduleFull (the fetcher's
// default is one per core); 0: pages processed on the control thread.
size_t g_process_threads = 2;
// WorkerOptions::pool_body_bytes in RunScheduleFull: 0 hands every page to
// the pool (the test pages are small: by default their lane keeps them).
size_t g_pool_body_bytes = 0;
// WorkerOptions::max_batch_links in RunScheduleFull.
size_t g_max_batch_links = crawl::fetcher::WorkerOptions{}.max_batch_links;
// More queue servers of the crawl in RunScheduleFull (their addresses),
// and WorkerOptions::ship_retry_limit there.
std::vector<std::string> g_more_queue_servers;
std::chrono::milliseconds g_ship_retry_limit = crawl::fetcher::WorkerOptions{}.ship_retry_limit;

// Runs one schedule through a CrawlWorker and returns what reached the queue server.
Outcome RunScheduleFull(const std::vector<v1::ScheduledUrl>& urls, bool accept_self_signed = false,
                        std::function<void(v1::CrawlParams*)> tweak = nullptr,
                        std::chrono::milliseconds submit_delay = std::chrono::milliseconds(0)) {
  FakeQueueServer qs(urls, submit_delay);
  auto qs_server = crawl::StartGrpcServer("127.0.0.1:0", {&qs});
  REQUIRE(qs_server.ok());
  FakeNameServer ns("127.0.0.1:" + std::to_string(qs_server->port), accept_self_signed, std::move(tweak),
                    g_more_queue_servers);
  auto ns_server = crawl::StartGrpcServer("127.0.0.1:0", {&ns});
  REQUIRE(ns_server.ok());

  crawl::fetcher::WorkerOptions options;
  options.fetcher_id = "test";
  options.nameserver = "127.0.0.1:" + std::to_string(ns_server->port);
  options.idle_backoff = std::chrono::milliseconds(20);
  options.max_batch_links = g_max_batch_links;
  options.ship_retry_limit = g_ship_retry_limit;
  if (g_process_threads > 0)
    options.process_pool = std::make_shared<crawl::fetcher::ProcessPool>(g_process_threads);
  options.pool_body_bytes = g_pool_body_bytes;
  crawl::fetcher::CrawlWorker worker(options);
  std::thread run([&] { worker.Run(); });
  Outcome outcome;
  outcome.records = qs.WaitFinal();
  outcome.host_errors = qs.host_errors();
  outcome.links = qs.links();
  worker.RequestStop();
  run.join();
  outcome.batches = qs.batches();  // after Run: nothing more can arrive
  ns_server->server->Shutdown();
  qs_server->server->Shutdown();
  return outcome;
}

std::map<std::string, v1::FetchRecord> RunOneSchedule(const std::vector<v1::ScheduledUrl>& urls,
                                                      bool accept_self_signed = false) {
  return RunScheduleFull(urls, accept_self_signed).records;
}

}  // namespace

TEST_CASE("worker over gRPC: robots.txt redirects are followed and reported as the scheduled robots.txt",
          "[unit][rfc9309]") {
  TestServer web([](const Request& r) {
    if (r.target() == "/robots.txt") return Reply{Response(301, "", "Location: /moved\r\n")};
    if (r.target() == "/moved") return Reply{Response(302, "", "Location: /robots-real.txt\r\n")};
    if (r.target() == "/robots-real.txt") return Reply{Response(200, "User-agent: *\nDisallow: /x\n")};
    return Reply{Response(200, "<a href='/next'>n</a>")};
  });
  const std::string robots = web.base() + "/robots.txt";
  auto records = RunOneSchedule(
      {Scheduled(robots, v1::URL_KIND_ROBOTS), Scheduled(web.base() + "/page", v1::URL_KIND_PAGE)});
  REQUIRE(records.count(robots) == 1);
  const auto& r = records[robots];
  CHECK(r.status() == 200);
  CHECK(r.robots_body() == "User-agent: *\nDisallow: /x\n");
  CHECK(r.error().find("2 redirect") != std::string::npos);
  CHECK(records.count(web.base() + "/moved") == 0);  // hops are not reported as their own URLs
  REQUIRE(records.count(web.base() + "/page") == 1);
  CHECK(records[web.base() + "/page"].status() == 200);
}

TEST_CASE("worker over gRPC: a robots.txt redirect chain longer than five hops is reported as a redirect",
          "[unit][rfc9309]") {
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

TEST_CASE("worker over gRPC: the crawl's accept_self_signed setting reaches the fetcher's https client",
          "[unit][policy]") {
  const Certificate certificate = MakeSelfSigned("127.0.0.1");
  auto tls = ServerContext(certificate);
  TestServer web([](const Request&) { return Reply{Response(200, "<p>ok</p>")}; }, tls.get());
  const std::string page = "https://127.0.0.1:" + std::to_string(web.port()) + "/";
  SECTION("off by default: the certificate is refused") {
    auto records = RunOneSchedule({Scheduled(page, v1::URL_KIND_PAGE)});
    REQUIRE(records.count(page) == 1);
    CHECK(records[page].status() == crawl::kTlsError);
  }
  SECTION("on: the page is fetched") {
    auto records = RunOneSchedule({Scheduled(page, v1::URL_KIND_PAGE)}, /*accept_self_signed=*/true);
    REQUIRE(records.count(page) == 1);
    CHECK(records[page].status() == 200);
  }
}

TEST_CASE("worker over gRPC: host errors are counted per origin and sent with the batch", "[unit]") {
  TestServer web([](const Request& request) -> Reply {
    if (request.target() == "/robots.txt") return {Response(404, "none")};
    if (request.target() == "/missing") return {Response(404, "no")};
    if (request.target() == "/broken") return {Response(500, "oops")};
    return {Response(200, "<p>fine</p>")};
  });
  net::io_context probe;
  tcp::acceptor closed(probe, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  const std::string dead = "http://127.0.0.1:" + std::to_string(closed.local_endpoint().port());
  closed.close();
  const std::string live = web.base();
  auto outcome = RunScheduleFull(
      {Scheduled(live + "/robots.txt", v1::URL_KIND_ROBOTS), Scheduled(live + "/ok", v1::URL_KIND_PAGE),
       Scheduled(live + "/missing", v1::URL_KIND_PAGE), Scheduled(live + "/broken", v1::URL_KIND_PAGE),
       Scheduled(dead + "/a", v1::URL_KIND_PAGE), Scheduled(dead + "/b", v1::URL_KIND_PAGE)});
  REQUIRE(outcome.records.size() == 6);
  // The 500 counts; the 404 (a broken link), a robots.txt 404 ("no rules")
  // and the 200 do not.
  CHECK(outcome.host_errors[live] == 1);
  CHECK(outcome.host_errors[dead] == 2);
  CHECK(outcome.host_errors.size() == 2);
}

TEST_CASE("worker over gRPC: Retry-After of a 429 reaches the fetch record", "[unit]") {
  TestServer web([](const Request&) -> Reply { return {Response(429, "busy", "Retry-After: 90\r\n")}; });
  const std::string page = web.base() + "/p";
  auto records = RunOneSchedule({Scheduled(page, v1::URL_KIND_PAGE)});
  REQUIRE(records.count(page) == 1);
  CHECK(records[page].status() == 429);
  CHECK(records[page].retry_after_seconds() == 90);
}

TEST_CASE("worker over gRPC: tracking parameters are removed from discovered links as the crawl says",
          "[unit][policy]") {
  TestServer web([](const Request& request) -> Reply {
    if (request.target() == "/r") return {Response(301, "", "Location: /dest?utm_source=mail&id=3\r\n")};
    return {Response(200,
                     "<a href='/a?utm_source=x&utm_medium=y'>a</a><a href='/a'>same</a>"
                     "<a href='/b?id=1&fbclid=Z&ref=2'>b</a><a href='/c;jsessionid=ABC?q=1'>c</a>")};
  });
  const std::string base = web.base();
  const std::vector<v1::ScheduledUrl> schedule = {Scheduled(base + "/p", v1::URL_KIND_PAGE),
                                                  Scheduled(base + "/r", v1::URL_KIND_PAGE)};
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  SECTION("the default list") {
    auto outcome = RunScheduleFull(schedule);
    CHECK(sorted(outcome.links) ==
          sorted({base + "/a", base + "/b?id=1&ref=2", base + "/c?q=1", base + "/dest?id=3"}));
    CHECK(outcome.records[base + "/r"].redirect_url() == base + "/dest?id=3");
  }
  SECTION("kept when the crawl says so") {
    auto outcome =
        RunScheduleFull(schedule, false, [](v1::CrawlParams* p) { p->set_keep_tracking_params(true); });
    CHECK(std::count(outcome.links.begin(), outcome.links.end(), base + "/a?utm_source=x&utm_medium=y") == 1);
    CHECK(std::count(outcome.links.begin(), outcome.links.end(), base + "/dest?utm_source=mail&id=3") == 1);
  }
  SECTION("a list of the crawl's own") {
    auto outcome =
        RunScheduleFull(schedule, false, [](v1::CrawlParams* p) { p->add_tracking_params("ref"); });
    CHECK(std::count(outcome.links.begin(), outcome.links.end(), base + "/b?id=1&fbclid=Z") == 1);
    CHECK(std::count(outcome.links.begin(), outcome.links.end(), base + "/a?utm_source=x&utm_medium=y") == 1);
  }
}

TEST_CASE("worker over gRPC: batches shipped off the control thread arrive in order, the final one last",
          "[unit]") {
  // Pages processed by the pool (the default here), on the control thread,
  // and by the pool only when the lane falls behind (the fetcher's default).
  const size_t threads = GENERATE(size_t{0}, size_t{2}, size_t{5});
  const size_t pool_body_bytes = GENERATE(size_t{0}, crawl::fetcher::WorkerOptions{}.pool_body_bytes);
  INFO("process threads: " << threads << ", pool_body_bytes: " << pool_body_bytes);
  struct Restore {
    size_t saved = g_process_threads;
    size_t saved_bytes = g_pool_body_bytes;
    ~Restore() {
      g_process_threads = saved;
      g_pool_body_bytes = saved_bytes;
    }
  } restore;
  g_process_threads = threads;
  g_pool_body_bytes = pool_body_bytes;
  // Pages are processed while the shipping thread waits on a slow queue
  // server; the lease protocol still needs every batch of a schedule once,
  // in sequence order, and the one that ends the lease after all others.
  TestServer web([](const Request& r) -> Reply {
    if (r.target() == "/robots.txt") return {Response(404, "")};
    return {Response(200, "<p>page " + std::string(r.target()) + "</p>")};
  });
  std::vector<v1::ScheduledUrl> schedule{Scheduled(web.base() + "/robots.txt", v1::URL_KIND_ROBOTS)};
  for (int i = 0; i < 10; ++i)
    schedule.push_back(Scheduled(web.base() + "/p" + std::to_string(i), v1::URL_KIND_PAGE));
  auto outcome = RunScheduleFull(
      schedule, false, [](v1::CrawlParams* p) { p->set_results_batch_pages(2); },
      std::chrono::milliseconds(30));
  CHECK(outcome.records.size() == 11);
  REQUIRE(outcome.batches.size() >= 2);
  int records = 0;
  for (size_t i = 0; i < outcome.batches.size(); ++i) {
    INFO("batch " << i);
    CHECK(outcome.batches[i].sequence == i);
    CHECK(outcome.batches[i].final == (i + 1 == outcome.batches.size()));
    records += outcome.batches[i].records;
  }
  CHECK(records == 11);
  // Each record is its own page's processing, whichever thread did it.
  for (int i = 0; i < 10; ++i) {
    const std::string word = "p" + std::to_string(i);
    const v1::FetchRecord& r = outcome.records[web.base() + "/" + word];
    INFO(r.url());
    const auto terms = crawl::test_support::Terms(r.mini_index());
    CHECK(std::any_of(terms.begin(), terms.end(), [&](const v1::IndexTerm& t) { return t.term() == word; }));
  }
}

TEST_CASE("worker over gRPC: a batch ships once it holds max_batch_links links, however few its pages",
          "[unit]") {
  struct Restore {
    size_t saved = g_max_batch_links;
    ~Restore() { g_max_batch_links = saved; }
  } restore;
  g_max_batch_links = 12;
  // Five distinct links a page: a batch reaches 12 links at its third page.
  TestServer web([](const Request& r) -> Reply {
    if (r.target() == "/robots.txt") return {Response(404, "")};
    std::string html = "<p>page</p>";
    for (int k = 0; k < 5; ++k) {
      html += "<a href=\"" + std::string(r.target()) + "/l" + std::to_string(k) + "\">link " +
              std::to_string(k) + "</a>";
    }
    return {Response(200, html)};
  });
  std::vector<v1::ScheduledUrl> schedule{Scheduled(web.base() + "/robots.txt", v1::URL_KIND_ROBOTS)};
  for (int i = 0; i < 10; ++i)
    schedule.push_back(Scheduled(web.base() + "/p" + std::to_string(i), v1::URL_KIND_PAGE));
  auto outcome = RunScheduleFull(schedule);  // results_batch_pages 400: only the links cut batches
  CHECK(outcome.records.size() == 11);
  CHECK(outcome.links.size() == 50);
  REQUIRE(outcome.batches.size() >= 4);
  int records = 0;
  for (size_t i = 0; i < outcome.batches.size(); ++i) {
    INFO("batch " << i);
    CHECK(outcome.batches[i].sequence == i);
    // At most 2 pages' links short of the bound, plus the page that crossed it.
    CHECK(outcome.batches[i].links <= 15);
    if (!outcome.batches[i].final) CHECK(outcome.batches[i].links >= 12);
    records += outcome.batches[i].records;
  }
  CHECK(records == 11);
}

TEST_CASE("what counts as a host error", "[unit][policy]") {
  auto record = [](int status, v1::UrlKind kind) {
    v1::FetchRecord r;
    r.set_url("http://a.test/x");
    r.set_status(status);
    r.set_kind(kind);
    return r;
  };
  using crawl::fetcher::CountsAsHostError;
  CHECK(CountsAsHostError(record(503, v1::URL_KIND_PAGE)));
  CHECK(CountsAsHostError(record(500, v1::URL_KIND_PAGE)));
  CHECK(CountsAsHostError(record(429, v1::URL_KIND_PAGE)));
  CHECK(CountsAsHostError(record(408, v1::URL_KIND_PAGE)));
  CHECK(CountsAsHostError(record(403, v1::URL_KIND_PAGE)));
  CHECK(CountsAsHostError(record(429, v1::URL_KIND_ROBOTS)));
  CHECK(CountsAsHostError(record(crawl::kConnectError, v1::URL_KIND_ROBOTS)));
  // A missing page is a broken link, not a failing host.
  CHECK_FALSE(CountsAsHostError(record(404, v1::URL_KIND_PAGE)));
  CHECK_FALSE(CountsAsHostError(record(410, v1::URL_KIND_PAGE)));
  CHECK_FALSE(CountsAsHostError(record(400, v1::URL_KIND_PAGE)));
  CHECK_FALSE(CountsAsHostError(record(401, v1::URL_KIND_PAGE)));
  CHECK_FALSE(CountsAsHostError(record(403, v1::URL_KIND_ROBOTS)));
  CHECK(CountsAsHostError(record(crawl::kTimeout, v1::URL_KIND_PAGE)));
  CHECK(CountsAsHostError(record(crawl::kDnsError, v1::URL_KIND_PAGE)));
  CHECK(CountsAsHostError(record(500, v1::URL_KIND_ROBOTS)));
  CHECK_FALSE(CountsAsHostError(record(200, v1::URL_KIND_PAGE)));
  CHECK_FALSE(CountsAsHostError(record(301, v1::URL_KIND_PAGE)));
  CHECK_FALSE(CountsAsHostError(record(404, v1::URL_KIND_ROBOTS)));
  CHECK_FALSE(CountsAsHostError(record(crawl::kCancelled, v1::URL_KIND_PAGE)));
  CHECK_FALSE(CountsAsHostError(record(crawl::kBlockedAddress, v1::URL_KIND_PAGE)));
  CHECK_FALSE(CountsAsHostError(record(crawl::kBadUrl, v1::URL_KIND_PAGE)));
}

// The pure pieces of RunSchedule: grouping by host and robots.txt redirects.

namespace {
google::protobuf::RepeatedPtrField<v1::ScheduledUrl> ScheduledUrls(
    const std::vector<std::pair<std::string, uint32_t>>& urls_and_delays) {
  google::protobuf::RepeatedPtrField<v1::ScheduledUrl> urls;
  for (const auto& [url, delay] : urls_and_delays) {
    v1::ScheduledUrl* u = urls.Add();
    u->set_url(url);
    u->set_crawl_delay_ms(delay);
  }
  return urls;
}
}  // namespace

TEST_CASE("schedule urls are grouped by host in order of first appearance, schemes and ports together",
          "[unit]") {
  const auto hosts = crawl::fetcher::GroupByHost(ScheduledUrls({{"http://b.test/robots.txt", 0},
                                                                {"https://a.test/1", 0},
                                                                {"http://b.test:8080/2", 0},
                                                                {"https://b.test/3", 0},
                                                                {"http://a.test/4", 0}}));
  REQUIRE(hosts.groups.size() == 2);
  CHECK(hosts.groups[0].host == "b.test");
  CHECK(hosts.groups[0].urls ==
        std::vector<std::string>{"http://b.test/robots.txt", "http://b.test:8080/2", "https://b.test/3"});
  CHECK(hosts.groups[1].host == "a.test");
  CHECK(hosts.groups[1].urls == std::vector<std::string>{"https://a.test/1", "http://a.test/4"});
  CHECK(hosts.by_url.size() == 5);
  CHECK(hosts.by_url.at("http://b.test:8080/2").url() == "http://b.test:8080/2");
}

TEST_CASE("a host group waits the longest crawl delay among its urls", "[unit][policy]") {
  const auto hosts = crawl::fetcher::GroupByHost(ScheduledUrls({{"http://a.test/1", 0},
                                                                {"http://a.test/2", 3000},
                                                                {"http://a.test/3", 1000},
                                                                {"http://b.test/1", 0}}));
  REQUIRE(hosts.groups.size() == 2);
  CHECK(hosts.groups[0].crawl_delay_ms == 3000);
  CHECK(hosts.groups[1].crawl_delay_ms == 0);
}

TEST_CASE("a url without a host is a group of its own", "[unit]") {
  const auto hosts = crawl::fetcher::GroupByHost(ScheduledUrls({{"not a url", 0}, {"not a url", 0}}));
  REQUIRE(hosts.groups.size() == 1);
  CHECK(hosts.groups[0].host == "not a url");
  CHECK(hosts.groups[0].urls.size() == 2);
  CHECK(hosts.by_url.size() == 1);
}

namespace {
crawl::fetcher::FetchResult Answer(const std::string& url, int status, const std::string& location,
                                   int64_t start_unix_us, uint32_t fetch_ms) {
  crawl::fetcher::FetchResult r;
  r.url = url;
  r.status = status;
  r.location = location;
  r.start_unix_us = start_unix_us;
  r.fetch_ms = fetch_ms;
  return r;
}
}  // namespace

TEST_CASE("a robots.txt redirect chain is followed and reported as the scheduled url", "[unit][rfc9309]") {
  crawl::fetcher::RobotsRedirects robots;
  const std::string scheduled = "http://a.test/robots.txt";
  auto chain = robots.Take(scheduled);
  CHECK(chain.scheduled_url == scheduled);
  CHECK(chain.hops == 0);
  auto next = robots.Follow(Answer(scheduled, 301, "/r1.txt", 1'000'000, 5), chain);
  REQUIRE(next);
  CHECK(*next == "http://a.test/r1.txt");

  chain = robots.Take(*next);
  CHECK(chain.scheduled_url == scheduled);
  CHECK(chain.hops == 1);
  auto last = Answer(*next, 200, "", 1'010'000, 7);
  CHECK_FALSE(robots.Follow(last, chain));
  robots.Report(chain, last);
  CHECK(last.url == scheduled);
  CHECK(last.status == 200);
  CHECK(last.start_unix_us == 1'000'000);  // the chain's first start
  CHECK(last.fetch_ms == 17);              // 10 ms between the starts + the last fetch
  CHECK(last.error == "robots.txt after 1 redirect(s) to http://a.test/r1.txt");
  // The hop is forgotten once taken.
  CHECK(robots.Take(*next).hops == 0);
}

TEST_CASE("robots.txt redirects stop after five hops, at a loop and at a bad location", "[unit][rfc9309]") {
  crawl::fetcher::RobotsRedirects robots;
  const std::string scheduled = "http://a.test/robots.txt";
  auto chain = robots.Take(scheduled);
  std::string url = scheduled;
  for (int hop = 1; hop <= crawl::fetcher::RobotsRedirects::kMaxRedirects; ++hop) {
    auto next = robots.Follow(Answer(url, 302, "/r" + std::to_string(hop), 0, 0), chain);
    REQUIRE(next);
    chain = robots.Take(*next);
    CHECK(chain.hops == hop);
    url = *next;
  }
  CHECK_FALSE(robots.Follow(Answer(url, 302, "/r6", 0, 0), chain));

  const auto fresh = robots.Take("http://b.test/robots.txt");
  CHECK_FALSE(
      robots.Follow(Answer("http://b.test/robots.txt", 301, "http://b.test/robots.txt", 0, 0), fresh));
  CHECK_FALSE(robots.Follow(Answer("http://b.test/robots.txt", 301, "http://[bad", 0, 0), fresh));
  CHECK_FALSE(robots.Follow(Answer("http://b.test/robots.txt", 301, "", 0, 0), fresh));
  CHECK_FALSE(robots.Follow(Answer("http://b.test/robots.txt", 200, "/elsewhere", 0, 0), fresh));
}

TEST_CASE("a result that is not a redirect hop is reported unchanged", "[unit]") {
  crawl::fetcher::RobotsRedirects robots;
  auto result = Answer("http://a.test/page", 200, "", 42, 3);
  const auto chain = robots.Take(result.url);
  robots.Report(chain, result);
  CHECK(result.url == "http://a.test/page");
  CHECK(result.start_unix_us == 42);
  CHECK(result.fetch_ms == 3);
  CHECK(result.error.empty());
}

TEST_CASE("worker over gRPC: a revisit sends the leased validators; 304 and same digest come back unchanged",
          "[unit]") {
  const std::string html = "<html><body><a href=/elsewhere>x</a></body></html>";
  TestServer web([&](const Request& request) -> Reply {
    if (request[boost::beast::http::field::if_none_match] == "\"v1\"")
      return {"HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n"};
    return {Response(200, html, "ETag: \"v2\"\r\n")};
  });
  v1::ScheduledUrl not_modified = Scheduled(web.base() + "/a", v1::URL_KIND_PAGE);
  not_modified.set_if_none_match("\"v1\"");
  not_modified.set_previous_digest("0011223344556677");
  v1::ScheduledUrl same = Scheduled(web.base() + "/b", v1::URL_KIND_PAGE);
  same.set_previous_digest(crawl::hash::ContentDigestHex(html));
  auto outcome = RunScheduleFull({not_modified, same});
  REQUIRE(outcome.records.count(not_modified.url()) == 1);
  REQUIRE(outcome.records.count(same.url()) == 1);
  const v1::FetchRecord& a = outcome.records[not_modified.url()];
  CHECK(a.status() == 304);
  CHECK(a.conditional());
  CHECK(a.revisit() == v1::REVISIT_NOT_MODIFIED);
  CHECK(a.content_digest() == "0011223344556677");
  const v1::FetchRecord& b = outcome.records[same.url()];
  CHECK(b.status() == 200);
  CHECK_FALSE(b.conditional());
  CHECK(b.etag() == "\"v2\"");
  CHECK(b.revisit() == v1::REVISIT_IDENTICAL_DIGEST);
  CHECK(outcome.links.empty());  // unchanged pages are not parsed: no links
}

TEST_CASE("worker over gRPC: a batch whose links for an unreachable queue server were dropped is withheld",
          "[unit][faults]") {
  // Links to twenty other hosts: some are owned by qs1, which nobody answers
  // for (port 1 refuses), so their AddUrls is given up after the retries.
  // Recording the pages would lose those links; the batch's records are
  // withheld instead, the final batch still ends the lease, and the pages
  // come back to be fetched again.
  std::string links;
  for (int i = 0; i < 20; ++i) links += "<a href='http://h" + std::to_string(i) + ".test/'>h</a>";
  TestServer web([&](const Request&) -> Reply { return {Response(200, links)}; });
  g_more_queue_servers = {"127.0.0.1:1"};
  g_ship_retry_limit = std::chrono::milliseconds(300);
  auto outcome = RunScheduleFull({Scheduled(web.base() + "/p", v1::URL_KIND_PAGE)});
  g_more_queue_servers.clear();
  g_ship_retry_limit = crawl::fetcher::WorkerOptions{}.ship_retry_limit;
  CHECK(outcome.records.empty());
  REQUIRE_FALSE(outcome.batches.empty());
  CHECK(outcome.batches.back().final);
  for (const auto& b : outcome.batches) CHECK(b.records == 0);
}
