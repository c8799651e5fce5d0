// Tests for testweb's hosts that degrade under load
// (tests/testweb/degrading_hosts.h): latency grows with the requests of the
// last second, forgets older ones, and other hosts are not delayed.
#include "tests/testweb/degrading_hosts.h"

#include <catch2/catch.hpp>

namespace {

using crawl::testweb::DegradeOptions;
using crawl::testweb::DegradingHosts;
using namespace std::chrono_literals;

DegradeOptions Options() {
  DegradeOptions o;
  o.hosts = 1;
  o.base = 20ms;
  o.capacity = 10;
  return o;
}

}  // namespace

TEST_CASE("a degrading host's latency grows with its request rate", "[unit][testweb]") {
  CHECK(DegradingHosts::Latency(Options(), 0) == 20ms);
  CHECK(DegradingHosts::Latency(Options(), 10) == 40ms);  // at capacity: twice the base
  CHECK(DegradingHosts::Latency(Options(), 20) == 100ms);
  CHECK(DegradingHosts::Latency(Options(), 1'000'000) == 60'000ms);  // bounded
}

TEST_CASE("requests of the last second count, older ones are forgotten", "[unit][testweb]") {
  DegradingHosts hosts(Options(), {"www.site0.test"});
  const auto t0 = std::chrono::steady_clock::time_point() + 100s;
  std::chrono::milliseconds last{0};
  for (int i = 0; i < 20; ++i) last = hosts.Delay("www.site0.test", t0 + i * 10ms);
  CHECK(last == 100ms);                                   // 20 requests in 200 ms
  CHECK(hosts.Delay("www.site0.test", t0 + 2s) == 20ms);  // alone in its second: as if unloaded (1 request)
  CHECK(hosts.Delay("www.site1.test", t0) == 0ms);
}
