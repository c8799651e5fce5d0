// The host page's politeness section (nameserver/console/
// console_politeness.cc): the rendering on its own (pace, address, the
// response-time sparkline and list, back-off, the address's slots, all
// escaped), and the page against a fake queue server that answers
// HostQueue with politeness but has no AddressStatus (as before the address
// slots land): the address shows "unavailable" and the page still loads.
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "common/base/clock.h"
#include "common/net/grpc_util.h"
#include "nameserver/console/console.h"
#include "nameserver/console/console_auth.h"
#include "nameserver/registry_store.h"
#include "nameserver/service.h"
#include "proto/crawl.grpc.pb.h"
#include "tests/unit/support/temp_dir.h"

namespace v1 = crawl::v1;
using crawl::nameserver::ConsoleHostPolitenessHtml;

namespace {

bool Has(const std::string& page, const std::string& part) { return page.find(part) != std::string::npos; }

constexpr int64_t kNow = 1'800'000'000'000;

v1::HostQueueResponse Politeness() {
  v1::HostQueueResponse r;
  r.set_queue_server_id("qs<0>");
  r.set_pace_ms(1'250);
  r.set_address("192.0.2.<7>");  // escaped whatever a queue server sends
  for (uint32_t ms : {120, 80, 4'000, 95}) r.add_recent_fetch_ms(ms);
  r.set_consecutive_failures(3);
  r.set_backoff_until_unix_ms(kNow + 8'000);
  r.set_leased_now(true);
  return r;
}

class FakeQueueServer final : public v1::QueueServer::Service {
 public:
  grpc::Status HostQueue(grpc::ServerContext*, const v1::HostQueueRequest*,
                         v1::HostQueueResponse* resp) override {
    *resp = Politeness();
    resp->set_address("192.0.2.7");
    return grpc::Status::OK;
  }
  grpc::Status GetCrawlLog(grpc::ServerContext*, const v1::GetCrawlLogRequest*,
                           v1::CrawlLogChunk* chunk) override {
    chunk->set_end(true);
    return grpc::Status::OK;
  }
};

}  // namespace

TEST_CASE("the politeness section shows pace, address, response times and back-off, escaped", "[unit]") {
  v1::AddressStatusResponse a;
  a.set_queue_server_id("qs1");
  a.set_max_connections_per_address(4);
  auto* e = a.add_addresses();
  e->set_address("192.0.2.<7>");
  e->set_open(2);
  e->add_holders("fetcher-a.1");
  e->add_holders("<script>");
  e->set_pace_ms(600);
  const std::string html = ConsoleHostPolitenessHtml(Politeness(), grpc::Status::OK, a, kNow);
  CHECK(Has(html, "<td id=\"host-pace\">1,250 ms</td>"));
  CHECK(Has(html, "<td id=\"host-address\">192.0.2.&lt;7&gt;</td>"));
  CHECK(Has(html, "<svg id=\"host-response-sparkline\""));
  CHECK(Has(html, "<polyline points=\"1,23 "));  // the first point, oldest first
  CHECK(Has(html, "120, 80, 4,000, 95 ms"));
  CHECK(Has(html, "backed off until 2027-01-15T08:00:08Z (8 s more) after 3 failures in a row"));
  CHECK(Has(html, "<td id=\"host-leased-now\">yes</td>"));
  CHECK(Has(html, "<td id=\"address-open\">2 of at most 4</td>"));
  CHECK(Has(html, "<td id=\"address-holders\">fetcher-a.1, &lt;script&gt;</td>"));
  CHECK(Has(html, "<td id=\"address-pace\">600 ms</td>"));
  CHECK(Has(html, "qs&lt;0&gt;"));
  CHECK_FALSE(Has(html, "<script>"));
  CHECK_FALSE(Has(html, "192.0.2.<7>"));

  v1::HostQueueResponse parked = Politeness();
  parked.set_parked(true);
  CHECK(Has(ConsoleHostPolitenessHtml(parked, grpc::Status::OK, a, kNow), "parked until"));
  parked.set_backoff_until_unix_ms(0);
  parked.set_consecutive_failures(0);
  parked.clear_recent_fetch_ms();
  const std::string calm = ConsoleHostPolitenessHtml(parked, grpc::Status::OK, a, kNow);
  CHECK(Has(calm, "<td id=\"host-backoff\">none</td>"));
  CHECK(Has(calm, "none yet"));
  CHECK_FALSE(Has(calm, "sparkline"));
}

TEST_CASE("the address's state says unavailable when its queue server cannot answer", "[unit]") {
  const std::string unimplemented = ConsoleHostPolitenessHtml(
      Politeness(), grpc::Status(grpc::StatusCode::UNIMPLEMENTED, ""), v1::AddressStatusResponse{}, kNow);
  CHECK(Has(unimplemented, "192.0.2.&lt;7&gt;: unavailable (its queue server does not keep address slots)"));
  CHECK_FALSE(Has(unimplemented, "address-open"));
  const std::string down = ConsoleHostPolitenessHtml(
      Politeness(), grpc::Status(grpc::StatusCode::UNAVAILABLE, "queue server qs1: <refused>"),
      v1::AddressStatusResponse{}, kNow);
  CHECK(Has(down, "unavailable (queue server qs1: &lt;refused&gt;)"));
  v1::HostQueueResponse unknown = Politeness();
  unknown.clear_address();
  CHECK(Has(ConsoleHostPolitenessHtml(unknown, grpc::Status::OK, {}, kNow), "No address reported yet."));
}

TEST_CASE("the host page shows politeness and loads while address slots are unimplemented", "[unit]") {
  FakeQueueServer fake;
  auto started = crawl::StartGrpcServer("127.0.0.1:0", {&fake});
  REQUIRE(started.ok());
  crawl::test_support::TempDir dir;
  crawl::ManualClock clock(kNow);
  v1::CrawlInfo crawl;
  crawl.set_crawl_id(5);
  crawl.set_state(v1::CRAWL_STATE_STOPPED);
  auto* info = crawl.add_queue_servers();
  info->set_id("qs0");
  info->set_address("127.0.0.1:" + std::to_string(started->port));
  auto store = crawl::nameserver::RegistryStore::Open(dir.path.string());
  REQUIRE(store.ok());
  REQUIRE((*store)->PutCrawl(crawl).ok());
  crawl::nameserver::NameServerServiceImpl service({}, &clock, store->get());
  REQUIRE(service.Load().ok());

  v1::AddressStatusResponse direct;
  const grpc::Status asked = service.AddressStatusOf(5, "192.0.2.7", &direct);
  CHECK(asked.error_code() == grpc::StatusCode::UNIMPLEMENTED);
  CHECK(Has(asked.error_message(), "qs0"));
  CHECK(service.AddressStatusOf(6, "192.0.2.7", &direct).error_code() == grpc::StatusCode::NOT_FOUND);

  const crawl::nameserver::ConsoleAuth auth(std::string(32, 'k'), nullptr, [] { return false; });
  crawl::HttpRequest r;
  r.method = "GET";
  r.path = "/console/host";
  r.query = "crawl=5&host=a.test";
  r.host = "127.0.0.1:8080";
  const crawl::HttpReply page = crawl::nameserver::HandleConsole({&service, &clock, &auth}, r);
  CHECK(page.status == 200);
  CHECK(Has(page.body, "<td id=\"host-pace\">1,250 ms</td>"));
  CHECK(Has(page.body, "<td id=\"host-address\">192.0.2.7</td>"));
  CHECK(Has(page.body, "192.0.2.7: unavailable"));
  started->server->Shutdown();
}
