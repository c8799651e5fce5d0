// Frontier: robots.txt expiry and re-fetch (queueserver/frontier/frontier_robots.cc).
#include <catch2/catch.hpp>

#include "queueserver/frontier/frontier.h"

using crawl::queueserver::FetchOutcome;
using crawl::queueserver::Frontier;
using crawl::queueserver::FrontierEntry;
using crawl::queueserver::FrontierOptions;
using crawl::queueserver::RobotsState;
using crawl::queueserver::UrlKind;

namespace {

constexpr int64_t kDay = 86'400'000;

FrontierEntry Page(const std::string& url) {
  FrontierEntry e;
  e.url = url;
  return e;
}

FetchOutcome Robots(int status, const std::string& body = "", int64_t expires_unix_s = 0) {
  FetchOutcome o;
  o.url = "http://a.test/robots.txt";
  o.kind = UrlKind::kRobots;
  o.status = status;
  o.robots_body = body;
  o.expires_unix_s = expires_unix_s;
  return o;
}

std::vector<std::string> Urls(const crawl::queueserver::Schedule& s) {
  std::vector<std::string> out;
  for (const auto& e : s.entries) out.push_back(e.url);
  return out;
}

// Leases at `now_ms`, reports every page fetched, ends the schedule.
std::vector<std::string> LeaseAll(Frontier& f, int64_t now_ms, size_t max_pages = SIZE_MAX) {
  auto s = f.Lease("f", 100, now_ms, max_pages);
  for (const auto& e : s.entries) {
    if (e.kind == UrlKind::kPage) {
      FetchOutcome o;
      o.url = e.url;
      o.status = 200;
      f.Report(s.id, o, now_ms);
    }
  }
  if (s.id != 0) f.Complete(s.id, now_ms);
  return Urls(s);
}

// Adds `urls` of a.test and answers its robots.txt at `now_ms`.
void Start(Frontier& f, const std::vector<std::string>& urls, const std::string& body, int64_t now_ms,
           int64_t expires_unix_s = 0) {
  for (const auto& u : urls) REQUIRE(f.Add(Page(u), now_ms));
  auto s = f.Lease("f", 100, now_ms);
  REQUIRE(Urls(s) == std::vector<std::string>{"http://a.test/robots.txt"});
  f.Report(s.id, Robots(200, body, expires_unix_s), now_ms);
  f.Complete(s.id, now_ms);
}

}  // namespace

// RFC 9309 2.4: crawlers SHOULD NOT use a cached robots.txt for more than 24 hours.
TEST_CASE("robots.txt is fetched again after 24 hours, before the host's pages", "[unit][rfc9309]") {
  Frontier f(FrontierOptions{});
  Start(f, {"http://a.test/1", "http://a.test/2", "http://a.test/3"}, "User-agent: *\nDisallow:\n", 0);
  CHECK(f.Origin("http://a.test")->robots_fetched_ms == 0);
  CHECK(f.Origin("http://a.test")->robots_expires_ms == kDay);
  CHECK(LeaseAll(f, 0, 1) == std::vector<std::string>{"http://a.test/1"});
  CHECK(LeaseAll(f, kDay - 1, 1) == std::vector<std::string>{"http://a.test/2"});  // not yet due
  auto refetch = f.Lease("f", 100, kDay);
  CHECK(Urls(refetch) == std::vector<std::string>{"http://a.test/robots.txt"});
  CHECK(f.Origin("http://a.test")->robots_refreshing);
  f.Report(refetch.id, Robots(200, "User-agent: *\nDisallow:\n"), kDay + 5);
  f.Complete(refetch.id, kDay + 5);
  CHECK_FALSE(f.Origin("http://a.test")->robots_refreshing);
  CHECK(f.Origin("http://a.test")->robots_fetched_ms == kDay + 5);
  CHECK(f.Origin("http://a.test")->robots_expires_ms == 2 * kDay + 5);
  CHECK(LeaseAll(f, kDay + 5) == std::vector<std::string>{"http://a.test/3"});
}

// RFC 9309 2.4: standard HTTP cache control may set a shorter lifetime.
TEST_CASE("a shorter cache lifetime is honoured, never under the one-minute floor", "[unit][policy]") {
  const int64_t now = 1'700'000'000'000;  // unix ms
  const int64_t now_s = now / 1000;
  int64_t expires_unix_s = 0;
  int64_t expect = 0;
  SECTION("max-age of an hour") {
    expires_unix_s = now_s + 3600;
    expect = now + 3'600'000;
  }
  SECTION("max-age=0: the floor") {
    expires_unix_s = now_s;
    expect = now + 60'000;
  }
  SECTION("an Expires in the past: the floor") {
    expires_unix_s = now_s - 100;
    expect = now + 60'000;
  }
  SECTION("a week: still 24 hours") {
    expires_unix_s = now_s + 7 * 86'400;
    expect = now + kDay;
  }
  Frontier f(FrontierOptions{});
  Start(f, {"http://a.test/1", "http://a.test/2"}, "User-agent: *\nDisallow:\n", now, expires_unix_s);
  CHECK(f.Origin("http://a.test")->robots_expires_ms == expect);
  CHECK(LeaseAll(f, now, 1) == std::vector<std::string>{"http://a.test/1"});
  CHECK(Urls(f.Lease("f", 100, expect)) == std::vector<std::string>{"http://a.test/robots.txt"});
}

// RFC 9309 2.4 (cached copy during the re-fetch) and 2.3.1.4 (unreachable).
TEST_CASE("the old rules stay in force during a re-fetch and after an unreachable one", "[unit][rfc9309]") {
  FrontierOptions o;
  o.robots_attempts = 2;
  o.robots_retry_ms = 1000;
  Frontier f(o);
  Start(f, {"http://a.test/1"}, "User-agent: *\nDisallow: /x\n", 0);
  CHECK(LeaseAll(f, 0) == std::vector<std::string>{"http://a.test/1"});
  REQUIRE(f.Add(Page("http://a.test/2"), kDay));  // a new URL of the expired origin starts the re-fetch
  auto refetch = f.Lease("f", 100, kDay);
  REQUIRE(Urls(refetch) == std::vector<std::string>{"http://a.test/robots.txt"});
  REQUIRE(f.Add(Page("http://a.test/x1"), kDay));  // judged by the old rules
  CHECK(f.Counters().robots_disallowed == 1);
  CHECK(f.Origin("http://a.test")->robots == RobotsState::kKnown);
  f.Report(refetch.id, Robots(503), kDay);
  f.Complete(refetch.id, kDay);
  // The retry is not due yet: the page goes out under the old rules.
  CHECK(LeaseAll(f, kDay) == std::vector<std::string>{"http://a.test/2"});
  auto retry = f.Lease("f", 100, kDay + 1000);
  REQUIRE(Urls(retry) == std::vector<std::string>{"http://a.test/robots.txt"});
  f.Report(retry.id, Robots(-2), kDay + 1000);
  f.Complete(retry.id, kDay + 1000);
  const auto rec = f.Origin("http://a.test");
  CHECK_FALSE(rec->robots_refreshing);
  CHECK(rec->robots_expires_ms == kDay + 1000 + o.robots_unreachable_ms);
  CHECK_FALSE(crawl::robots::IsAllowedUrl(rec->rules, "http://a.test/x1"));
  REQUIRE(f.Add(Page("http://a.test/3"), kDay + 1000));  // not due: no new re-fetch
  CHECK(LeaseAll(f, kDay + 1000) == std::vector<std::string>{"http://a.test/3"});
  REQUIRE(f.Add(Page("http://a.test/x2"), kDay + 1000));
  CHECK(f.Counters().robots_disallowed == 2);
}

TEST_CASE("a re-fetch answered 4xx allows everything, as a first fetch does", "[unit][rfc9309]") {
  Frontier f(FrontierOptions{});
  Start(f, {"http://a.test/1"}, "User-agent: *\nDisallow: /x\n", 0);
  REQUIRE(f.Add(Page("http://a.test/x1"), 0));  // refused, kept for a re-check
  CHECK(LeaseAll(f, 0) == std::vector<std::string>{"http://a.test/1"});
  REQUIRE(f.Add(Page("http://a.test/2"), kDay));
  auto refetch = f.Lease("f", 100, kDay);
  REQUIRE(Urls(refetch) == std::vector<std::string>{"http://a.test/robots.txt"});
  f.Report(refetch.id, Robots(404), kDay);
  f.Complete(refetch.id, kDay);
  CHECK(LeaseAll(f, kDay) == std::vector<std::string>{"http://a.test/2", "http://a.test/x1"});
}

TEST_CASE("a queued URL that the new rules disallow is not leased", "[unit][rfc9309]") {
  Frontier f(FrontierOptions{});
  Start(f, {"http://a.test/1", "http://a.test/private/2", "http://a.test/3"}, "User-agent: *\nDisallow:\n",
        0);
  CHECK(LeaseAll(f, 0, 1) == std::vector<std::string>{"http://a.test/1"});
  auto refetch = f.Lease("f", 100, kDay);
  REQUIRE(Urls(refetch) == std::vector<std::string>{"http://a.test/robots.txt"});
  f.Report(refetch.id, Robots(200, "User-agent: *\nDisallow: /private\n"), kDay);
  f.Complete(refetch.id, kDay);
  CHECK(f.Origin("http://a.test")->robots_changes == 1);
  CHECK(LeaseAll(f, kDay) == std::vector<std::string>{"http://a.test/3"});
  CHECK(f.Counters().robots_disallowed == 1);
  CHECK(f.Idle());
}

TEST_CASE("a URL refused as disallowed enters when new rules allow it", "[unit][policy]") {
  Frontier f(FrontierOptions{});
  Start(f, {"http://a.test/1", "http://a.test/private/2"}, "User-agent: *\nDisallow: /private\n", 0);
  CHECK(f.Counters().robots_disallowed == 1);
  CHECK(LeaseAll(f, 0) == std::vector<std::string>{"http://a.test/1"});
  CHECK_FALSE(f.Add(Page("http://a.test/private/2"), 0));  // seen: it is not offered again
  REQUIRE(f.Add(Page("http://a.test/3"), kDay));
  auto refetch = f.Lease("f", 100, kDay);
  REQUIRE(Urls(refetch) == std::vector<std::string>{"http://a.test/robots.txt"});
  f.Report(refetch.id, Robots(200, "User-agent: *\nDisallow: /3\n"), kDay);
  f.Complete(refetch.id, kDay);
  // /3 was queued under the old rules and is now disallowed; /private/2 is released.
  CHECK(LeaseAll(f, kDay) == std::vector<std::string>{"http://a.test/private/2"});
  CHECK(f.Counters().robots_disallowed == 2);
}

TEST_CASE("refused URLs kept for a re-check are bounded per origin", "[unit][policy]") {
  FrontierOptions o;
  o.robots_recheck_per_origin = 2;
  Frontier f(o);
  Start(f, {"http://a.test/p/1", "http://a.test/p/2", "http://a.test/p/3", "http://a.test/4"},
        "User-agent: *\nDisallow: /p\n", 0);
  CHECK(LeaseAll(f, 0) == std::vector<std::string>{"http://a.test/4"});
  REQUIRE(f.Add(Page("http://a.test/5"), kDay));
  auto refetch = f.Lease("f", 100, kDay);
  f.Report(refetch.id, Robots(200, "User-agent: *\nDisallow:\n"), kDay);
  f.Complete(refetch.id, kDay);
  CHECK(LeaseAll(f, kDay) ==
        std::vector<std::string>{"http://a.test/5", "http://a.test/p/1", "http://a.test/p/2"});
}

TEST_CASE("an origin whose every URL was refused has its robots.txt fetched again when due",
          "[unit][rfc9309]") {
  Frontier f(FrontierOptions{});
  Start(f, {"http://a.test/private/1", "http://a.test/private/2"}, "User-agent: *\nDisallow: /private\n", 0);
  CHECK(f.Counters().robots_disallowed == 2);
  CHECK(LeaseAll(f, 0).empty());
  // Nothing of a.test comes up for leasing and nothing new arrives; before
  // the rules expire nothing happens, then Tick asks for robots.txt again.
  f.Tick(kDay - 1);
  CHECK(f.Lease("f", 100, kDay - 1).id == 0);
  f.Tick(kDay);
  auto refetch = f.Lease("f", 100, kDay);
  REQUIRE(Urls(refetch) == std::vector<std::string>{"http://a.test/robots.txt"});
  f.Report(refetch.id, Robots(200, "User-agent: *\nDisallow:\n"), kDay);
  f.Complete(refetch.id, kDay);
  CHECK(LeaseAll(f, kDay) == std::vector<std::string>{"http://a.test/private/1", "http://a.test/private/2"});
  // Nothing left to re-check: no more re-fetches from Tick.
  f.Tick(3 * kDay);
  CHECK(f.Lease("f", 100, 3 * kDay).id == 0);
}
