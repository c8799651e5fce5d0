// Frontier: URL-seen, robots gating, FIFO order, leases (queueserver/frontier/frontier.h).
#include "queueserver/frontier/frontier.h"

#include <catch2/catch.hpp>

using crawl::queueserver::FetchOutcome;
using crawl::queueserver::Frontier;
using crawl::queueserver::FrontierEntry;
using crawl::queueserver::FrontierOptions;
using crawl::queueserver::UrlKind;

namespace {

FrontierEntry Page(const std::string& url) {
  FrontierEntry e;
  e.url = url;
  return e;
}

FetchOutcome Robots(const std::string& url, int status, const std::string& body = "") {
  FetchOutcome o;
  o.url = url;
  o.kind = UrlKind::kRobots;
  o.status = status;
  o.robots_body = body;
  return o;
}

FetchOutcome Fetched(const std::string& url) {
  FetchOutcome o;
  o.url = url;
  o.status = 200;
  return o;
}

std::vector<std::string> Urls(const crawl::queueserver::Schedule& s) {
  std::vector<std::string> out;
  for (const auto& e : s.entries) out.push_back(e.url);
  return out;
}

}  // namespace

TEST_CASE("a url is accepted once", "[unit]") {
  Frontier f(FrontierOptions{});
  CHECK(f.Add(Page("http://a.test/x"), 0));
  CHECK_FALSE(f.Add(Page("http://a.test/x"), 0));
  CHECK(f.Counters().urls_seen == 1);
}

TEST_CASE("pages wait for their origin's robots.txt, which is scheduled first", "[unit]") {
  Frontier f(FrontierOptions{});
  REQUIRE(f.Add(Page("http://a.test/1"), 0));
  REQUIRE(f.Add(Page("http://a.test/2"), 0));
  auto s = f.Lease("f1", 100, 0);
  REQUIRE(s.id != 0);
  CHECK(Urls(s) == std::vector<std::string>{"http://a.test/robots.txt"});
  CHECK(s.entries[0].kind == UrlKind::kRobots);
  CHECK(f.Counters().frontier_size == 2);  // both pages waiting

  // Nothing else can be handed out until robots.txt is known.
  CHECK(f.Lease("f2", 100, 0).id == 0);

  f.Report(s.id, Robots("http://a.test/robots.txt", 200, "User-agent: *\nDisallow: /2\n"), 0);
  f.Complete(s.id, 0);
  auto pages = f.Lease("f1", 100, 0);
  CHECK(Urls(pages) == std::vector<std::string>{"http://a.test/1"});
  CHECK(f.Counters().robots_disallowed == 1);
}

TEST_CASE("robots.txt 4xx allows everything", "[unit][rfc9309]") {
  Frontier f(FrontierOptions{});
  REQUIRE(f.Add(Page("http://a.test/private/x"), 0));
  auto s = f.Lease("f", 10, 0);
  f.Report(s.id, Robots("http://a.test/robots.txt", 404), 0);
  f.Complete(s.id, 0);
  CHECK(Urls(f.Lease("f", 10, 0)) == std::vector<std::string>{"http://a.test/private/x"});
}

TEST_CASE("robots.txt 5xx is retried, then the origin counts as disallowed", "[unit][rfc9309]") {
  FrontierOptions o;
  o.robots_attempts = 2;
  o.robots_retry_ms = 1000;
  Frontier f(o);
  REQUIRE(f.Add(Page("http://a.test/x"), 0));
  auto s = f.Lease("f", 10, 0);
  f.Report(s.id, Robots("http://a.test/robots.txt", 503), 0);
  f.Complete(s.id, 0);
  CHECK(f.Lease("f", 10, 500).id == 0);  // retry not due yet
  CHECK_FALSE(f.Idle());                 // the page still waits
  auto retry = f.Lease("f", 10, 1000);
  REQUIRE(Urls(retry) == std::vector<std::string>{"http://a.test/robots.txt"});
  f.Report(retry.id, Robots("http://a.test/robots.txt", -2), 1000);
  f.Complete(retry.id, 1000);
  CHECK(f.Counters().robots_disallowed == 1);
  CHECK(f.Idle());
}

TEST_CASE("pages are leased in the order they became ready", "[unit]") {
  Frontier f(FrontierOptions{});
  REQUIRE(f.Add(Page("http://a.test/1"), 0));
  REQUIRE(f.Add(Page("http://b.test/1"), 0));
  auto robots = f.Lease("f", 10, 0);
  REQUIRE(robots.entries.size() == 2);
  // Pages waiting for robots.txt become ready when it arrives, origin by origin.
  f.Report(robots.id, Robots("http://b.test/robots.txt", 404), 0);
  f.Report(robots.id, Robots("http://a.test/robots.txt", 404), 0);
  f.Complete(robots.id, 0);
  for (const char* u : {"http://a.test/2", "http://b.test/2", "http://a.test/3"}) REQUIRE(f.Add(Page(u), 0));
  CHECK(Urls(f.Lease("f", 10, 0)) == std::vector<std::string>{"http://b.test/1", "http://a.test/1",
                                                              "http://a.test/2", "http://b.test/2",
                                                              "http://a.test/3"});
}

TEST_CASE("an origin is held by one schedule at a time", "[unit][policy]") {
  Frontier f(FrontierOptions{});
  REQUIRE(f.Add(Page("http://a.test/1"), 0));
  REQUIRE(f.Add(Page("http://b.test/1"), 0));
  auto robots = f.Lease("f", 10, 0);
  f.Report(robots.id, Robots("http://a.test/robots.txt", 404), 0);
  f.Report(robots.id, Robots("http://b.test/robots.txt", 404), 0);
  f.Complete(robots.id, 0);

  auto first = f.Lease("f1", 1, 0);
  REQUIRE(Urls(first) == std::vector<std::string>{"http://a.test/1"});
  REQUIRE(f.Add(Page("http://a.test/2"), 0));
  // a.test is held by `first`: the second fetcher gets b.test only.
  auto second = f.Lease("f2", 10, 0);
  CHECK(Urls(second) == std::vector<std::string>{"http://b.test/1"});
  f.Report(first.id, Fetched("http://a.test/1"), 0);
  f.Complete(first.id, 0);
  CHECK(Urls(f.Lease("f2", 10, 0)) == std::vector<std::string>{"http://a.test/2"});
}

TEST_CASE("unreported urls come back when a schedule ends or its lease expires", "[unit]") {
  FrontierOptions o;
  o.lease_ms = 1000;
  Frontier f(o);
  REQUIRE(f.Add(Page("http://a.test/1"), 0));
  REQUIRE(f.Add(Page("http://a.test/2"), 0));
  auto robots = f.Lease("f", 10, 0);
  f.Report(robots.id, Robots("http://a.test/robots.txt", 404), 0);
  f.Complete(robots.id, 0);

  auto s = f.Lease("f", 10, 0);
  REQUIRE(s.entries.size() == 2);
  f.Report(s.id, Fetched("http://a.test/1"), 0);
  f.Complete(s.id, 0);  // /2 never reported
  CHECK(Urls(f.Lease("f", 10, 0)) == std::vector<std::string>{"http://a.test/2"});
  CHECK(f.Counters().leased_urls == 1);

  // The fetcher holding /2 dies: the lease expires and /2 comes back.
  CHECK(f.Lease("g", 10, 500).id == 0);
  auto again = f.Lease("g", 10, 1000);
  CHECK(Urls(again) == std::vector<std::string>{"http://a.test/2"});
  f.Report(again.id, Fetched("http://a.test/2"), 1000);
  f.Complete(again.id, 1000);
  CHECK(f.Idle());
}

TEST_CASE("a lane started again gets back at once what its earlier process had leased, and no other lane's",
          "[unit]") {
  FrontierOptions o;
  o.lease_ms = 300'000;
  Frontier f(o);
  for (const char* host : {"a", "b"}) {
    REQUIRE(f.Add(Page(std::string("http://") + host + ".test/1"), 0));
    auto robots = f.Lease("f", 10, 0);
    f.Report(robots.id, Robots(std::string("http://") + host + ".test/robots.txt", 404), 0);
    f.Complete(robots.id, 0);
  }
  auto held = f.Lease("f", 1, 0);  // one origin each
  auto other = f.Lease("g", 1, 0);
  REQUIRE(held.entries.size() == 1);
  REQUIRE(other.entries.size() == 1);
  // Killed, lane f starts again a second later: its host would wait out the
  // 300 s lease; ended now, it is leased again at once.
  CHECK(f.Lease("f", 10, 1000).id == 0);
  CHECK(f.EndLeasesOf("f", 1000) == 1);
  CHECK(Urls(f.Lease("f", 10, 1000)) == Urls(held));
  // g's schedule is untouched: its URL is still leased to g.
  CHECK(f.EndLeasesOf("nobody", 1000) == 0);
  CHECK(f.Counters().outstanding_schedules == 2);
  f.Report(other.id, Fetched(other.entries[0].url), 1000);
  f.Complete(other.id, 1000);
  CHECK(f.Counters().outstanding_schedules == 1);
}

TEST_CASE("activity counter moves with every change", "[unit]") {
  Frontier f(FrontierOptions{});
  const auto before = f.Counters().activity;
  REQUIRE(f.Add(Page("http://a.test/1"), 0));
  CHECK(f.Counters().activity > before);
  const auto after_add = f.Counters().activity;
  CHECK_FALSE(f.Add(Page("http://a.test/1"), 0));  // a duplicate changes nothing
  CHECK(f.Counters().activity == after_add);
}

TEST_CASE("a crawl-delayed origin gets one URL per slot and waits its delay between schedules",
          "[unit][policy]") {
  Frontier f(FrontierOptions{});
  for (int i = 1; i <= 3; ++i) REQUIRE(f.Add(Page("http://slow.test/" + std::to_string(i)), 0));
  REQUIRE(f.Add(Page("http://fast.test/1"), 0));
  REQUIRE(f.Add(Page("http://fast.test/2"), 0));
  auto robots = f.Lease("f", 10, 0);
  REQUIRE(robots.entries.size() == 2);
  f.Report(robots.id, Robots("http://slow.test/robots.txt", 200, "User-agent: *\nCrawl-delay: 2\n"), 0);
  f.Report(robots.id, Robots("http://fast.test/robots.txt", 404), 0);
  f.Complete(robots.id, 0);

  // Right after robots.txt: slow.test must wait 2 s; fast.test goes at once.
  auto first = f.Lease("f", 100, 1000);
  CHECK(Urls(first) == std::vector<std::string>{"http://fast.test/1", "http://fast.test/2"});
  CHECK(first.crawl_delay_ms.empty());
  f.Report(first.id, Fetched("http://fast.test/1"), 1000);
  f.Report(first.id, Fetched("http://fast.test/2"), 1000);
  f.Complete(first.id, 1000);

  // Due at 2 s: a schedule of 100 URLs is one slot, so one URL of slow.test,
  // with the delay the fetcher must keep.
  auto second = f.Lease("f", 100, 2000);
  REQUIRE(Urls(second) == std::vector<std::string>{"http://slow.test/1"});
  CHECK(second.crawl_delay_ms.at("http://slow.test") == 2000);
  f.Report(second.id, Fetched("http://slow.test/1"), 2500);
  f.Complete(second.id, 2500);
  CHECK(f.Lease("f", 100, 4000).id == 0);  // 2500 + 2000 not reached
  // A schedule of 300 URLs has three slots: the two URLs left both fit.
  auto third = f.Lease("f", 300, 4500);
  CHECK(Urls(third) == std::vector<std::string>{"http://slow.test/2", "http://slow.test/3"});
}

TEST_CASE("a huge crawl-delay is clamped", "[unit][policy]") {
  FrontierOptions o;
  o.max_crawl_delay_ms = 5000;
  Frontier f(o);
  REQUIRE(f.Add(Page("http://a.test/1"), 0));
  REQUIRE(f.Add(Page("http://a.test/2"), 0));
  auto robots = f.Lease("f", 10, 0);
  f.Report(robots.id, Robots("http://a.test/robots.txt", 200, "User-agent: *\nCrawl-delay: 86400\n"), 0);
  f.Complete(robots.id, 0);
  auto s = f.Lease("f", 100, 5000);
  REQUIRE(s.entries.size() == 1);
  CHECK(s.crawl_delay_ms.at("http://a.test") == 5000);
}
