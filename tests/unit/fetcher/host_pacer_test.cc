// Tests for HostPacer (fetcher/http/host_pacer.h): the gap grows with the
// response time within floor and ceiling, Crawl-delay and the address pace
// win when larger, errors back off and good answers recover, the start pace
// carries a host's slowness over, and fixed pacing is Crawl-delay only.
#include "fetcher/http/host_pacer.h"

#include <catch2/catch.hpp>

#include "common/crawl/fetch_error.h"

namespace {

using crawl::fetcher::HostPacer;
using crawl::fetcher::PacingOptions;
using namespace std::chrono_literals;

PacingOptions Adaptive(uint32_t factor = 200, std::chrono::milliseconds floor = 10ms,
                       std::chrono::milliseconds ceiling = 30'000ms) {
  PacingOptions o;
  o.adaptive = true;
  o.factor_percent = factor;
  o.floor = floor;
  o.ceiling = ceiling;
  return o;
}

}  // namespace

TEST_CASE("adaptive gap is the factor times the response time", "[unit][pacer]") {
  HostPacer pacer(Adaptive(200), 0ms);
  pacer.OnAnswer(100ms, 200);
  CHECK(pacer.Gap() == 200ms);
  pacer.OnAnswer(400ms, 200);
  CHECK(pacer.Gap() == 800ms);
  HostPacer half(Adaptive(50), 0ms);
  half.OnAnswer(400ms, 200);
  CHECK(half.Gap() == 200ms);
}

TEST_CASE("adaptive gap comes down halfway per faster answer", "[unit][pacer]") {
  HostPacer pacer(Adaptive(100), 0ms);
  pacer.OnAnswer(800ms, 200);
  CHECK(pacer.Gap() == 800ms);
  pacer.OnAnswer(0ms, 200);
  CHECK(pacer.Gap() == 400ms);
  pacer.OnAnswer(0ms, 200);
  CHECK(pacer.Gap() == 200ms);
  for (int i = 0; i < 20; ++i) pacer.OnAnswer(0ms, 200);
  CHECK(pacer.Gap() == 10ms);  // the floor
}

TEST_CASE("adaptive gap stays within floor and ceiling", "[unit][pacer]") {
  HostPacer pacer(Adaptive(200, 50ms, 1'000ms), 0ms);
  CHECK(pacer.Gap() == 50ms);  // nothing known yet: the floor
  pacer.OnAnswer(1ms, 200);
  CHECK(pacer.Gap() == 50ms);
  pacer.OnAnswer(10'000ms, 200);
  CHECK(pacer.Gap() == 1'000ms);
}

TEST_CASE("crawl delay wins when larger than the adaptive gap", "[unit][pacer]") {
  HostPacer pacer(Adaptive(200, 10ms, 1'000ms), 5'000ms);
  pacer.OnAnswer(100ms, 200);
  CHECK(pacer.Gap() == 5'000ms);  // above the ceiling too: robots.txt is the site's word
  HostPacer small_delay(Adaptive(200), 50ms);
  small_delay.OnAnswer(100ms, 200);
  CHECK(small_delay.Gap() == 200ms);
}

TEST_CASE("address pace is a lower bound in both modes", "[unit][pacer]") {
  HostPacer adaptive(Adaptive(200), 0ms);
  adaptive.OnAnswer(10ms, 200);
  CHECK(adaptive.Gap() == 20ms);
  adaptive.SetAddressPace(300ms);
  CHECK(adaptive.Gap() == 300ms);
  HostPacer fixed(PacingOptions{}, 100ms);
  fixed.SetAddressPace(250ms);
  CHECK(fixed.Gap() == 250ms);
  fixed.SetAddressPace(0ms);
  CHECK(fixed.Gap() == 100ms);
}

TEST_CASE("errors double the gap and good answers bring it back", "[unit][pacer]") {
  HostPacer pacer(Adaptive(200), 0ms);
  pacer.OnAnswer(50ms, 200);
  CHECK(pacer.Gap() == 100ms);
  CHECK(pacer.OnAnswer(50ms, 503));
  CHECK(pacer.Gap() == 200ms);
  CHECK(pacer.OnAnswer(50ms, 429));
  CHECK(pacer.Gap() == 400ms);
  CHECK(pacer.OnFailure(50ms, crawl::kConnectError));
  CHECK(pacer.Gap() == 800ms);
  CHECK(pacer.error_multiplier() == 8);
  // The server recovers: each good answer halves the multiplier.
  CHECK_FALSE(pacer.OnAnswer(50ms, 200));
  CHECK(pacer.Gap() == 400ms);
  pacer.OnAnswer(50ms, 404);  // a 4xx other than 429 is a good answer for pacing
  CHECK(pacer.Gap() == 200ms);
  pacer.OnAnswer(50ms, 200);
  CHECK(pacer.Gap() == 100ms);
  pacer.OnAnswer(50ms, 200);
  CHECK(pacer.Gap() == 100ms);
  CHECK(pacer.error_multiplier() == 1);
}

TEST_CASE("a timeout counts its time and backs off", "[unit][pacer]") {
  HostPacer pacer(Adaptive(200, 10ms, 30'000ms), 0ms);
  pacer.OnAnswer(10ms, 200);
  CHECK(pacer.OnFailure(2'000ms, crawl::kTimeout));
  CHECK(pacer.Gap() == 8'000ms);  // 2 x 2 s, doubled
}

TEST_CASE("back-off stops at the ceiling so recovery is quick", "[unit][pacer]") {
  HostPacer pacer(Adaptive(200, 10ms, 1'000ms), 0ms);
  pacer.OnAnswer(100ms, 200);
  int backed_off = 0;
  for (int i = 0; i < 30; ++i) backed_off += pacer.OnAnswer(100ms, 500) ? 1 : 0;
  CHECK(pacer.Gap() == 1'000ms);
  CHECK(backed_off == 3);  // 200 -> 400 -> 800 -> 1600 (clamped to 1000)
  pacer.OnAnswer(100ms, 200);
  pacer.OnAnswer(100ms, 200);
  pacer.OnAnswer(100ms, 200);
  CHECK(pacer.Gap() == 200ms);
}

TEST_CASE("failures that say nothing about load change nothing", "[unit][pacer]") {
  HostPacer pacer(Adaptive(200), 0ms);
  pacer.OnAnswer(50ms, 200);
  for (int error :
       {crawl::kBadUrl, crawl::kCancelled, crawl::kDnsError, crawl::kTlsError, crawl::kBlockedAddress}) {
    CHECK_FALSE(pacer.OnResult(5'000ms, error));
  }
  CHECK(pacer.Gap() == 100ms);
}

TEST_CASE("the start pace holds until answers say otherwise", "[unit][pacer]") {
  HostPacer pacer(Adaptive(200), 0ms, 2'000ms);
  CHECK(pacer.Gap() == 2'000ms);
  pacer.OnAnswer(20ms, 200);  // a fast answer brings it down gradually
  CHECK(pacer.Gap() == 1'020ms);
  HostPacer clamped(Adaptive(200, 10ms, 500ms), 0ms, 2'000ms);
  CHECK(clamped.Gap() == 500ms);
}

TEST_CASE("fixed pacing is the crawl delay whatever happens", "[unit][pacer]") {
  HostPacer none(PacingOptions{}, 0ms, 2'000ms);
  CHECK(none.Gap() == 0ms);
  HostPacer pacer(PacingOptions{}, 1'500ms, 2'000ms);
  CHECK(pacer.Gap() == 1'500ms);
  CHECK_FALSE(pacer.OnAnswer(5'000ms, 200));
  CHECK_FALSE(pacer.OnAnswer(5'000ms, 503));
  CHECK_FALSE(pacer.OnFailure(5'000ms, crawl::kTimeout));
  CHECK(pacer.Gap() == 1'500ms);
  CHECK_FALSE(pacer.adaptive());
}

TEST_CASE("a host that fails fast still backs off from the floor", "[unit][pacer]") {
  HostPacer pacer(Adaptive(200, 20ms, 30'000ms), 0ms);
  CHECK(pacer.OnAnswer(1ms, 503));
  CHECK(pacer.Gap() == 40ms);
  CHECK(pacer.OnAnswer(1ms, 503));
  CHECK(pacer.Gap() == 80ms);
  pacer.OnAnswer(1ms, 200);
  CHECK(pacer.Gap() == 40ms);
}
