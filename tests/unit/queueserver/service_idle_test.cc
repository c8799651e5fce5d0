// The queue server tells the name server at once when a schedule's final
// batch leaves its crawl idle (QueueServerServiceImpl::SetIdleHook ->
// NameServerLink::Nudge -> HeartbeatRequest.became_idle), so the crawl's
// end is judged then and not at the name server's next poll.
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>

#include "common/base/clock.h"
#include "queueserver/service.h"

namespace v1 = crawl::v1;
namespace qs = crawl::queueserver;

namespace {

v1::GetScheduleResponse Lease(qs::QueueServerServiceImpl& service) {
  grpc::ServerContext ctx;
  v1::GetScheduleRequest req;
  req.set_crawl_id(12);
  req.set_fetcher_id("f");
  v1::GetScheduleResponse resp;
  REQUIRE(service.GetSchedule(&ctx, &req, &resp).ok());
  return resp;
}

void Report(qs::QueueServerServiceImpl& service, const v1::GetScheduleResponse& schedule, int status,
            const std::vector<std::string>& links = {}) {
  grpc::ServerContext ctx;
  v1::SubmitResultsRequest req;
  req.set_crawl_id(12);
  req.set_fetcher_id("f");
  req.set_schedule_id(schedule.schedule_id());
  req.set_final(true);
  for (const v1::ScheduledUrl& u : schedule.urls()) {
    v1::FetchRecord* r = req.add_records();
    r->set_url(u.url());
    r->set_kind(u.kind());
    r->set_status(status);
  }
  for (const std::string& url : links) {
    v1::DiscoveredLink* l = req.add_links();
    l->set_url(url);
    l->set_referrer(schedule.urls(0).url());
    l->set_depth(1);
  }
  v1::SubmitResultsResponse resp;
  REQUIRE(service.SubmitResults(&ctx, &req, &resp).ok());
}

}  // namespace

TEST_CASE("service: a final batch that leaves the crawl idle calls the idle hook, once", "[unit]") {
  crawl::ManualClock clock;
  qs::QueueServerServiceImpl service("qs-idle", &clock, nullptr);
  int idle_calls = 0;
  service.SetIdleHook([&] { ++idle_calls; });
  grpc::ServerContext ctx;
  v1::InjectSeedsRequest seeds;
  seeds.mutable_crawl()->set_crawl_id(12);
  seeds.mutable_crawl()->set_state(v1::CRAWL_STATE_RUNNING);
  seeds.add_urls("http://a.test/");
  v1::InjectSeedsResponse injected;
  REQUIRE(service.InjectSeeds(&ctx, &seeds, &injected).ok());

  const auto robots = Lease(service);
  REQUIRE(robots.urls_size() == 1);
  Report(service, robots, 404);  // the seed page is queued now: not idle
  CHECK(idle_calls == 0);
  const auto seed = Lease(service);
  REQUIRE(seed.urls_size() == 1);
  Report(service, seed, 200, {"http://a.test/next"});  // a new link: still work to do
  CHECK(idle_calls == 0);
  const auto next = Lease(service);
  REQUIRE(next.urls_size() == 1);
  Report(service, next, 200);  // nothing queued, waiting or leased
  CHECK(idle_calls == 1);
  service.SetIdleHook(nullptr);
}
