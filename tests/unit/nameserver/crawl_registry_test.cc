// The crawl registry (nameserver/crawl_registry.h) driven by a manual clock:
// crawl ids, states, params versions, membership and numbers; and the page
// budget share-out of the monitor (nameserver/crawl_monitor.h).
#include "nameserver/crawl_registry.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <thread>

#include "nameserver/crawl_monitor.h"

using crawl::ManualClock;
using crawl::StatusCode;
using crawl::nameserver::CrawlRegistry;
using crawl::nameserver::RegistryStore;
namespace v1 = crawl::v1;
using namespace std::chrono_literals;

namespace {

v1::QueueServerInfo Server(const std::string& id, const std::string& address) {
  v1::QueueServerInfo info;
  info.set_id(id);
  info.set_address(address);
  return info;
}

struct Fixture {
  ManualClock clock{1'700'000'000'000};
  std::unique_ptr<RegistryStore> store;
  std::unique_ptr<CrawlRegistry> registry;

  explicit Fixture(const std::string& dir = "") {
    auto opened = RegistryStore::Open(dir);
    REQUIRE(opened.ok());
    store = std::move(*opened);
    registry = std::make_unique<CrawlRegistry>(&clock, store.get(), 10s);
    REQUIRE(registry->Load().ok());
  }

  v1::CrawlInfo Start(uint64_t seeds = 1) {
    auto crawl = registry->NewCrawl(v1::CrawlParams(), seeds);
    REQUIRE(crawl.ok());
    REQUIRE(registry->ActivateStarted(*crawl).ok());
    return *crawl;
  }
};

}  // namespace

TEST_CASE("crawl registry: a new crawl goes to the live queue servers only", "[unit]") {
  Fixture f;
  auto none = f.registry->NewCrawl(v1::CrawlParams(), 1);
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().code() == StatusCode::kUnavailable);

  (void)f.registry->RegisterMember(Server("old", "127.0.0.1:1"));
  f.clock.Advance(11s);
  (void)f.registry->RegisterMember(Server("new", "127.0.0.1:2"));
  CHECK(f.registry->LiveMembers() == 1);
  auto crawl = f.registry->NewCrawl(v1::CrawlParams(), 3);
  REQUIRE(crawl.ok());
  REQUIRE(crawl->queue_servers_size() == 1);
  CHECK(crawl->queue_servers(0).id() == "new");
  CHECK(crawl->crawl_id() == static_cast<uint64_t>(f.clock.NowUnixMs() / 1000));
  CHECK(crawl->state() == v1::CRAWL_STATE_RUNNING);
  CHECK(crawl->params_version() == 1);
  CHECK(crawl->seed_count() == 3);
  // Not active until activated.
  CHECK(f.registry->ActiveId() == 0);
  CHECK_FALSE(f.registry->Active().has_value());
}

TEST_CASE("crawl registry: one crawl at a time, ids always grow", "[unit]") {
  Fixture f;
  (void)f.registry->RegisterMember(Server("a", "127.0.0.1:1"));
  const v1::CrawlInfo first = f.Start();
  CHECK(f.registry->ActiveId() == first.crawl_id());
  auto second = f.registry->NewCrawl(v1::CrawlParams(), 1);
  REQUIRE_FALSE(second.ok());
  CHECK(second.status().code() == StatusCode::kFailedPrecondition);
  CHECK(second.status().message() ==
        "crawl " + std::to_string(first.crawl_id()) + " is running; stop it first");

  REQUIRE(f.registry->End(first.crawl_id(), v1::CRAWL_STATE_STOPPED, "stopped").has_value());
  CHECK(f.registry->ActiveId() == 0);
  // Same second: the next id is one past the latest.
  const v1::CrawlInfo next = f.Start();
  CHECK(next.crawl_id() == first.crawl_id() + 1);
  CHECK(f.registry->Find(0)->crawl_id() == next.crawl_id());
  CHECK(f.registry->Crawls().size() == 2);
}

TEST_CASE("crawl registry: ending, stopping and resuming", "[unit]") {
  Fixture f;
  (void)f.registry->RegisterMember(Server("a", "127.0.0.1:1"));
  auto nothing = f.registry->RunningCrawl(0);
  REQUIRE_FALSE(nothing.ok());
  CHECK(nothing.status().message() == "no crawl is running");
  auto resume_none = f.registry->ResumedCrawl(0);
  REQUIRE_FALSE(resume_none.ok());
  CHECK(resume_none.status().message() == "no crawl has been started");

  const v1::CrawlInfo crawl = f.Start();
  CHECK(*f.registry->RunningCrawl(0) == crawl.crawl_id());
  CHECK(f.registry->ResumedCrawl(crawl.crawl_id()).status().code() == StatusCode::kFailedPrecondition);

  f.clock.Advance(5s);
  auto servers = f.registry->End(crawl.crawl_id(), v1::CRAWL_STATE_DONE, "budget reached");
  REQUIRE(servers.has_value());
  CHECK(servers->size() == 1);
  CHECK_FALSE(f.registry->End(crawl.crawl_id(), v1::CRAWL_STATE_STOPPED, "stopped").has_value());
  const v1::CrawlInfo ended = *f.registry->Find(crawl.crawl_id());
  CHECK(ended.state() == v1::CRAWL_STATE_DONE);
  CHECK(ended.end_reason() == "budget reached");
  CHECK(ended.ended_unix_ms() == f.clock.NowUnixMs());
  CHECK(f.registry->RunningCrawl(crawl.crawl_id()).status().message() ==
        "crawl " + std::to_string(crawl.crawl_id()) + " is not running");

  auto resumed = f.registry->ResumedCrawl(0);
  REQUIRE(resumed.ok());
  CHECK(resumed->state() == v1::CRAWL_STATE_RUNNING);
  CHECK(resumed->end_reason().empty());
  CHECK(resumed->ended_unix_ms() == 0);
  CHECK(resumed->params_version() == ended.params_version() + 1);
  CHECK(f.registry->ActiveId() == 0);
  REQUIRE(f.registry->ActivateResumed(*resumed).ok());
  CHECK(f.registry->ActiveId() == crawl.crawl_id());
}

TEST_CASE("crawl registry: a member back on a new address moves the running crawl", "[unit]") {
  Fixture f;
  CHECK_FALSE(f.registry->RegisterMember(Server("a", "127.0.0.1:1")).has_value());
  const v1::CrawlInfo crawl = f.Start();
  auto same = f.registry->RegisterMember(Server("a", "127.0.0.1:1"));
  REQUIRE(same.has_value());
  CHECK(same->params_version() == 1);
  auto moved = f.registry->RegisterMember(Server("a", "127.0.0.1:9"));
  REQUIRE(moved.has_value());
  CHECK(moved->queue_servers(0).address() == "127.0.0.1:9");
  CHECK(moved->params_version() == 2);

  v1::QueueServerStats stats;
  stats.set_crawl_id(crawl.crawl_id());
  stats.set_pages_fetched(4);
  CHECK_FALSE(f.registry->Heartbeat(Server("a", "127.0.0.1:1"), stats));
  CHECK_FALSE(f.registry->Heartbeat(Server("b", "127.0.0.1:9"), stats));
  f.clock.Advance(3s);
  CHECK(f.registry->Heartbeat(Server("a", "127.0.0.1:9"), stats));
  const auto members = f.registry->Members();
  CHECK(members.at("a").last_seen_ms == f.clock.NowUnixMs());
  CHECK(members.at("a").stats.pages_fetched() == 4);
}

TEST_CASE("crawl registry: numbers of a crawl, polled or from heartbeats", "[unit]") {
  Fixture f;
  (void)f.registry->RegisterMember(Server("a", "127.0.0.1:1"));
  (void)f.registry->RegisterMember(Server("b", "127.0.0.1:2"));
  const v1::CrawlInfo crawl = f.Start();
  v1::QueueServerStats polled;
  polled.set_queue_server_id("a");
  polled.set_crawl_id(crawl.crawl_id());
  polled.set_pages_fetched(10);
  CHECK(f.registry->PutStats(crawl.crawl_id(), {polled}, /*only_while_active=*/true));
  CHECK_FALSE(f.registry->PutStats(crawl.crawl_id() + 1, {polled}, /*only_while_active=*/true));
  v1::QueueServerStats beat;
  beat.set_crawl_id(crawl.crawl_id());
  beat.set_pages_fetched(5);
  REQUIRE(f.registry->Heartbeat(Server("b", "127.0.0.1:2"), beat));

  v1::CrawlStatusResponse status;
  REQUIRE(f.registry->FillCrawlStatus(0, &status).ok());
  CHECK(status.crawl().crawl_id() == crawl.crawl_id());
  REQUIRE(status.queue_servers_size() == 2);
  CHECK(status.totals().pages_fetched() == 15);
  CHECK(status.totals().crawl_id() == crawl.crawl_id());
  CHECK(f.registry->StatsOf(crawl.crawl_id()).size() == 1);

  // Once ended, the final numbers are kept even though it is not active.
  REQUIRE(f.registry->End(crawl.crawl_id(), v1::CRAWL_STATE_STOPPED, "stopped").has_value());
  polled.set_pages_fetched(12);
  CHECK(f.registry->PutStats(crawl.crawl_id(), {polled}, /*only_while_active=*/false));
  CHECK(f.registry->StatsOf(crawl.crawl_id()).at("a").pages_fetched() == 12);
  v1::CrawlStatusResponse missing;
  CHECK(f.registry->FillCrawlStatus(42, &missing).message() == "no crawl 42");
}

TEST_CASE("crawl registry: changed parameters are stored and survive a restart", "[unit]") {
  std::random_device rd;
  const auto dir = std::filesystem::temp_directory_path() / ("crawl-registry-test-" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  uint64_t id = 0;
  {
    Fixture f(dir.string());
    (void)f.registry->RegisterMember(Server("a", "127.0.0.1:1"));
    v1::CrawlInfo crawl = f.Start();
    id = crawl.crawl_id();
    crawl.mutable_params()->set_max_pages(50);
    crawl.set_params_version(2);
    auto active = f.registry->PutParams(crawl);
    REQUIRE(active.ok());
    CHECK(*active);
  }
  Fixture again(dir.string());
  CHECK(again.registry->ActiveId() == id);
  CHECK(again.registry->Active()->params().max_pages() == 50);
  CHECK(again.registry->Active()->params_version() == 2);
  const auto members = again.registry->Members();
  REQUIRE(members.count("a") == 1);
  CHECK(members.at("a").last_seen_ms == 0);  // not heard from since this start
  CHECK(again.registry->LiveMembers() == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("page budget: each queue server gets what it holds plus an even share of the rest", "[unit]") {
  v1::CrawlInfo crawl;
  *crawl.add_queue_servers() = Server("a", "127.0.0.1:1");
  *crawl.add_queue_servers() = Server("b", "127.0.0.1:2");
  CHECK(crawl::nameserver::SharePageBudget(crawl, {}).empty());  // no budget
  crawl.mutable_params()->set_max_pages(101);
  std::map<std::string, v1::QueueServerStats> last;
  last["a"].set_pages_fetched(30);
  last["a"].set_leased_urls(10);
  const auto caps = crawl::nameserver::SharePageBudget(crawl, last);
  // 61 left, shared two ways rounding up: 31 each.
  CHECK(caps.at("a") == 40 + 31);
  CHECK(caps.at("b") == 31);
}

// GetCrawlState's long poll (GetCrawlStateRequest.wait_ms): an idle
// fetcher's question is answered when a crawl starts, not a period later.
TEST_CASE("crawl registry: WaitActive answers when a crawl starts, or when its wait is over", "[unit]") {
  Fixture f;
  (void)f.registry->RegisterMember(Server("qs", "127.0.0.1:1"));
  CHECK_FALSE(f.registry->WaitActive(1ms).has_value());  // none starts: nothing, after the wait
  std::optional<v1::CrawlInfo> seen;
  std::thread waiter([&] { seen = f.registry->WaitActive(60s); });
  std::this_thread::sleep_for(20ms);  // most likely waiting by now; either way it must see the crawl
  const v1::CrawlInfo started = f.Start();
  waiter.join();  // long before 60 s: the start woke it
  REQUIRE(seen.has_value());
  CHECK(seen->crawl_id() == started.crawl_id());
  CHECK(f.registry->WaitActive(60s)->crawl_id() == started.crawl_id());  // already active: at once
}

TEST_CASE("crawl registry: a status long poll waits while the crawl runs and until its final numbers",
          "[unit]") {
  Fixture f;
  (void)f.registry->RegisterMember(Server("qs0", "127.0.0.1:1"));
  // No crawl at all: at once.
  f.registry->WaitWhileRunning(0, 10s);
  const v1::CrawlInfo crawl = f.Start();

  // Running: the wait runs out (a short one), and the crawl still runs.
  f.registry->WaitWhileRunning(0, 20ms);
  CHECK(f.registry->Find(0)->state() == v1::CRAWL_STATE_RUNNING);

  // Ended on another thread: the waiter returns once the final numbers are
  // in (Settled), not at End. Its bound (60 s) is far past either step.
  std::atomic<int> step{0};
  std::thread monitor([&] {
    REQUIRE(f.registry->End(crawl.crawl_id(), v1::CRAWL_STATE_DONE, "test").has_value());
    step = 1;
    std::this_thread::sleep_for(50ms);
    step = 2;
    f.registry->Settled(crawl.crawl_id());
  });
  const auto start = std::chrono::steady_clock::now();
  f.registry->WaitWhileRunning(crawl.crawl_id(), 60s);
  const int seen = step.load();
  monitor.join();
  CHECK(seen == 2);
  CHECK(std::chrono::steady_clock::now() - start < 30s);
  CHECK(f.registry->Find(0)->state() == v1::CRAWL_STATE_DONE);

  // Ended and settled: at once, whether asked by id or as the latest.
  f.registry->WaitWhileRunning(crawl.crawl_id(), 60s);
  f.registry->WaitWhileRunning(0, 60s);
  // An unknown id: at once.
  f.registry->WaitWhileRunning(crawl.crawl_id() + 1000, 60s);
}
