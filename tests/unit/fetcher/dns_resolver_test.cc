// DnsResolver (fetcher/http/dns_resolver.h) against a DNS server on loopback
// (dns_test_server.h): TTL caching and expiry on an injected clock, clamps,
// negative caching, coalescing, failures. No traffic leaves 127.0.0.1.
#include "fetcher/http/dns_resolver.h"

#include <boost/asio/executor_work_guard.hpp>
#include <catch2/catch.hpp>
#include <future>
#include <thread>

#include "tests/unit/fetcher/dns_test_server.h"

namespace crawl::fetcher {
namespace {

using testing::DnsTestServer;

// An io_context run by one background thread for the test's lifetime.
class Loop {
 public:
  Loop() : work_(boost::asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}
  ~Loop() {
    work_.reset();
    io_.stop();
    thread_.join();
  }
  boost::asio::io_context& io() { return io_; }

 private:
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
};

DnsOptions TestOptions(const DnsTestServer& server) {
  DnsOptions options;
  options.servers = server.servers();
  options.min_ttl = std::chrono::seconds(1);
  options.max_ttl = std::chrono::seconds(3600);
  options.negative_ttl = std::chrono::seconds(60);
  options.try_timeout = std::chrono::milliseconds(300);
  options.tries = 1;
  return options;
}

DnsAnswer ResolveSync(DnsResolver& resolver, const std::string& name) {
  std::promise<DnsAnswer> promise;
  auto future = promise.get_future();
  resolver.Resolve(name, [&promise](DnsAnswer answer) { promise.set_value(std::move(answer)); });
  REQUIRE(future.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  return future.get();
}

std::string First(const DnsAnswer& answer) {
  return answer.addresses.empty() ? "" : answer.addresses.front().to_string();
}

TEST_CASE("an A record resolves and is cached for its TTL, then asked again", "[unit]") {
  DnsTestServer server;
  server.Set("a.test", {{"93.184.216.34", "93.184.216.35"}, 60});
  Loop loop;
  ManualClock clock;
  auto resolver = DnsResolver::Create(loop.io(), TestOptions(server), &clock);
  REQUIRE(resolver.ok());

  DnsAnswer first = ResolveSync(**resolver, "a.test");
  REQUIRE(first.kind == DnsAnswer::Kind::kOk);
  CHECK(first.addresses.size() == 2);
  CHECK(First(first) == "93.184.216.34");
  CHECK(first.ttl_seconds == 60);
  CHECK_FALSE(first.from_cache);
  CHECK(server.Queries("a.test") == 1);

  clock.Advance(std::chrono::seconds(59));
  DnsAnswer cached = ResolveSync(**resolver, "a.test");
  CHECK(cached.from_cache);
  CHECK(cached.ttl_seconds == 1);
  CHECK(First(cached) == "93.184.216.34");
  CHECK(server.Queries("a.test") == 1);

  // The TTL runs out: the next request asks the server, which has moved.
  server.Set("a.test", {{"93.184.216.99"}, 60});
  clock.Advance(std::chrono::seconds(2));
  DnsAnswer fresh = ResolveSync(**resolver, "a.test");
  CHECK_FALSE(fresh.from_cache);
  CHECK(First(fresh) == "93.184.216.99");
  CHECK(server.Queries("a.test") == 2);
  CHECK((*resolver)->counters().cache_hits == 1);
}

TEST_CASE("TTLs are clamped to the configured minimum and maximum", "[unit][policy]") {
  DnsTestServer server;
  server.Set("zero.test", {{"93.184.216.1"}, 0});
  server.Set("long.test", {{"93.184.216.2"}, 7 * 86400});
  Loop loop;
  ManualClock clock;
  DnsOptions options = TestOptions(server);
  options.min_ttl = std::chrono::seconds(30);
  options.max_ttl = std::chrono::seconds(600);
  auto resolver = DnsResolver::Create(loop.io(), options, &clock);
  REQUIRE(resolver.ok());

  CHECK(ResolveSync(**resolver, "zero.test").ttl_seconds == 30);
  CHECK(ResolveSync(**resolver, "long.test").ttl_seconds == 600);
  // A zero TTL is still cached for min_ttl.
  clock.Advance(std::chrono::seconds(29));
  CHECK(ResolveSync(**resolver, "zero.test").from_cache);
  CHECK(server.Queries("zero.test") == 1);
  clock.Advance(std::chrono::seconds(2));
  CHECK_FALSE(ResolveSync(**resolver, "zero.test").from_cache);
  CHECK(server.Queries("zero.test") == 2);
  // A week-long TTL ends at max_ttl.
  clock.Advance(std::chrono::seconds(600));
  CHECK_FALSE(ResolveSync(**resolver, "long.test").from_cache);
  CHECK(server.Queries("long.test") == 2);
}

TEST_CASE("NXDOMAIN is cached for the negative TTL", "[unit]") {
  DnsTestServer server;
  Loop loop;
  ManualClock clock;
  auto resolver = DnsResolver::Create(loop.io(), TestOptions(server), &clock);
  REQUIRE(resolver.ok());

  DnsAnswer missing = ResolveSync(**resolver, "missing.test");
  CHECK(missing.kind == DnsAnswer::Kind::kNotFound);
  CHECK(missing.addresses.empty());
  CHECK_FALSE(missing.error.empty());
  CHECK(server.Queries("missing.test") == 1);

  server.Set("missing.test", {{"93.184.216.7"}, 60});  // appears, but the negative answer stands
  clock.Advance(std::chrono::seconds(59));
  DnsAnswer again = ResolveSync(**resolver, "missing.test");
  CHECK(again.kind == DnsAnswer::Kind::kNotFound);
  CHECK(again.from_cache);
  CHECK(server.Queries("missing.test") == 1);

  clock.Advance(std::chrono::seconds(2));
  DnsAnswer found = ResolveSync(**resolver, "missing.test");
  CHECK(found.kind == DnsAnswer::Kind::kOk);
  CHECK(First(found) == "93.184.216.7");
  CHECK(server.Queries("missing.test") == 2);
}

TEST_CASE("concurrent lookups of one name are coalesced into one query", "[unit]") {
  DnsTestServer server;
  server.Set("busy.test", {{"93.184.216.8"}, 60});
  server.SetDelay(std::chrono::milliseconds(200));  // all requests arrive while the first is out
  Loop loop;
  ManualClock clock;
  auto resolver = DnsResolver::Create(loop.io(), TestOptions(server), &clock);
  REQUIRE(resolver.ok());

  constexpr int kRequests = 25;
  std::vector<std::promise<DnsAnswer>> promises(kRequests);
  for (auto& promise : promises) {
    (*resolver)->Resolve("busy.test", [&promise](DnsAnswer answer) { promise.set_value(std::move(answer)); });
  }
  for (auto& promise : promises) {
    auto future = promise.get_future();
    REQUIRE(future.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    DnsAnswer answer = future.get();
    CHECK(answer.kind == DnsAnswer::Kind::kOk);
    CHECK(First(answer) == "93.184.216.8");
  }
  CHECK(server.Queries("busy.test") == 1);
  const DnsCounters counters = (*resolver)->counters();
  CHECK(counters.queries == 1);
  CHECK(counters.coalesced == kRequests - 1);
}

TEST_CASE("a server that does not answer is an error that is not cached", "[unit]") {
  DnsTestServer server;
  server.Set("slow.test", {{"93.184.216.9"}, 60});
  server.SetSilent(true);
  Loop loop;
  ManualClock clock;
  auto resolver = DnsResolver::Create(loop.io(), TestOptions(server), &clock);
  REQUIRE(resolver.ok());

  DnsAnswer timed_out = ResolveSync(**resolver, "slow.test");
  CHECK(timed_out.kind == DnsAnswer::Kind::kError);
  CHECK_FALSE(timed_out.error.empty());

  server.SetSilent(false);
  DnsAnswer answered = ResolveSync(**resolver, "slow.test");
  CHECK(answered.kind == DnsAnswer::Kind::kOk);
  CHECK_FALSE(answered.from_cache);
}

TEST_CASE("names are cached case-insensitively and without a trailing dot", "[unit]") {
  DnsTestServer server;
  server.Set("mixed.test", {{"93.184.216.10"}, 60});
  Loop loop;
  ManualClock clock;
  auto resolver = DnsResolver::Create(loop.io(), TestOptions(server), &clock);
  REQUIRE(resolver.ok());
  CHECK(ResolveSync(**resolver, "Mixed.TEST").kind == DnsAnswer::Kind::kOk);
  CHECK(ResolveSync(**resolver, "mixed.test.").from_cache);
  CHECK(server.Queries("mixed.test") == 1);
  CHECK(ResolveSync(**resolver, "").kind == DnsAnswer::Kind::kError);
}

TEST_CASE("bad resolver settings are clear errors", "[unit]") {
  Loop loop;
  DnsOptions options;
  options.servers = "not an address";
  CHECK_FALSE(DnsResolver::Create(loop.io(), options).ok());
  options.servers = "";
  options.tries = 0;
  CHECK_FALSE(DnsResolver::Create(loop.io(), options).ok());
}

TEST_CASE("a resolver dropped with lookups in flight answers every waiter", "[unit]") {
  DnsTestServer server;
  server.SetSilent(true);
  Loop loop;
  auto resolver = DnsResolver::Create(loop.io(), TestOptions(server));
  REQUIRE(resolver.ok());
  std::promise<DnsAnswer> promise;
  (*resolver)->Resolve("gone.test", [&promise](DnsAnswer answer) { promise.set_value(std::move(answer)); });
  // Wait until the query is out, then drop the last reference.
  for (int i = 0; i < 500 && server.Queries("gone.test") == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  REQUIRE(server.Queries("gone.test") == 1);
  resolver->reset();
  auto future = promise.get_future();
  REQUIRE(future.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  CHECK(future.get().kind == DnsAnswer::Kind::kError);
}

}  // namespace
}  // namespace crawl::fetcher
