// Tests for the HTTP engine's pacing (fetcher/http/host_pacer.h used by
// fetcher/http/fetch_session.h): with adaptive pacing a slow server gets its
// requests spaced by a multiple of its response time, errors back off and
// good answers recover, the start pace carries over, HTTP/2 streams go one
// at a time; fixed pacing is the crawl delay only. Spacing is checked by
// lower bounds (a timer never fires early), never by an upper bound.
#include "fetcher/http/http_fetcher.h"
#include "tests/unit/fetcher/fetch_test_util.h"
#include "tests/unit/fetcher/test_h2_server.h"
#include "tests/unit/fetcher/test_http_server.h"

// GCC 12 with -fsanitize=address reports a false -Wmaybe-uninitialized in
// Beast's request parser (boost::optional in basic_parser.hpp), used here by
// the test server only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>

#include "common/crawl/fetch_error.h"

namespace {

using namespace std::chrono_literals;
using crawl::fetcher::FetcherOptions;
using crawl::fetcher::FetchResult;
using crawl::fetcher::FetchTarget;
using crawl::fetcher::HttpFetcher;
using crawl::fetcher::PacingOptions;
using namespace crawl::fetcher::testing;  // NOLINT: test helpers

FetcherOptions Adaptive(std::chrono::milliseconds floor = 10ms, uint32_t factor = 200) {
  FetcherOptions options = TestOptions();
  options.pacing.adaptive = true;
  options.pacing.factor_percent = factor;
  options.pacing.floor = floor;
  options.pacing.ceiling = 30'000ms;
  return options;
}

std::vector<FetchTarget> Urls(const std::string& base, const std::vector<std::string>& paths) {
  std::vector<FetchTarget> out;
  for (const auto& p : paths) out.push_back({base + p, "", ""});
  return out;
}

// One sequence to completion, with a crawl delay and a start pace.
std::vector<FetchResult> Run(const FetcherOptions& options, const std::vector<FetchTarget>& targets,
                             std::chrono::milliseconds delay = 0ms,
                             std::chrono::milliseconds start_pace = 0ms) {
  boost::asio::io_context ioc;
  HttpFetcher fetcher(ioc, options);
  std::vector<FetchResult> results;
  int done = 0;
  fetcher.FetchSequence(
      targets, [&](FetchResult r) { results.push_back(std::move(r)); }, [&] { ++done; }, delay, nullptr,
      start_pace);
  ioc.run();
  CHECK(done == 1);
  REQUIRE(results.size() == targets.size());
  return results;
}

Reply Slow(const Request& request) {
  Reply reply{Response(200, "page " + std::string(request.target())), false, false};
  reply.delay = 50ms;
  return reply;
}

}  // namespace

TEST_CASE("adaptive pacing spaces a slow server's requests by its response time", "[unit][pacing]") {
  TestServer server(Slow);
  const auto results = Run(Adaptive(), Urls(server.base(), {"/1", "/2", "/3", "/4"}));
  CHECK(results[0].pace_ms == 10);  // nothing known yet: the floor (not waited: the first request)
  for (size_t i = 1; i < results.size(); ++i) {
    CHECK(results[i].status == 200);
    CHECK(results[i - 1].fetch_ms >= 50);
    // Twice the previous answer's time, waited after it ended.
    CHECK(results[i].pace_ms >= 2 * results[i - 1].fetch_ms);
    CHECK(results[i].start_unix_us - results[i - 1].start_unix_us >= 150'000);
  }
  CHECK(server.connections() == 1);  // the gap is far below the idle timeout
}

TEST_CASE("fixed pacing waits the crawl delay only", "[unit][pacing]") {
  TestServer server(Slow);
  auto results = Run(TestOptions(), Urls(server.base(), {"/1", "/2", "/3"}));
  for (const auto& r : results) CHECK(r.pace_ms == 0);
  results = Run(TestOptions(), Urls(server.base(), {"/4", "/5"}), 20ms, 500ms);
  for (const auto& r : results) CHECK(r.pace_ms == 20);
}

TEST_CASE("server errors back off and good answers bring the pace back", "[unit][pacing]") {
  TestServer server([](const Request& request) -> Reply {
    const bool error = std::string(request.target()).rfind("/e", 0) == 0;
    return {Response(error ? 503 : 200, "x"), false, false};
  });
  // A fast server: the floor is the base the multiplier scales.
  const auto results = Run(Adaptive(50ms, 100), Urls(server.base(), {"/e1", "/e2", "/ok1", "/ok2", "/ok3"}));
  CHECK(results[0].status == 503);
  CHECK(results[0].pace_backed_off);
  CHECK(results[1].pace_backed_off);
  CHECK_FALSE(results[2].pace_backed_off);
  CHECK(results[1].pace_ms >= 100);
  CHECK(results[2].pace_ms >= 200);
  CHECK(results[2].start_unix_us - results[1].start_unix_us >= 200'000);
  // Recovery: each good answer halves the multiplier.
  CHECK(results[4].pace_ms < results[3].pace_ms);
  CHECK(results[3].pace_ms < results[2].pace_ms);
}

TEST_CASE("a timeout backs off like an error", "[unit][pacing]") {
  TestServer server([](const Request& request) -> Reply {
    if (request.target() == "/hang") return {"", false, true};
    return {Response(200, "x"), false, false};
  });
  FetcherOptions options = Adaptive(20ms, 100);
  options.first_byte_timeout = 100ms;
  const auto results = Run(options, Urls(server.base(), {"/hang", "/ok"}));
  CHECK(results[0].status == crawl::kTimeout);
  CHECK(results[0].pace_backed_off);
  CHECK(results[1].pace_ms >= 200);  // 100 ms counted as its response time, doubled
}

TEST_CASE("the start pace is where a sequence's pacing begins", "[unit][pacing]") {
  TestServer server([](const Request&) -> Reply { return {Response(200, "x"), false, false}; });
  const auto results = Run(Adaptive(), Urls(server.base(), {"/1", "/2"}), 0ms, 400ms);
  CHECK(results[0].pace_ms == 400);
  CHECK(results[1].pace_ms >= 200);  // halfway down toward a fast answer's gap
  CHECK(results[1].start_unix_us - results[0].start_unix_us >= 200'000);
}

TEST_CASE("h2: adaptive pacing runs streams one at a time, spaced by the response time", "[unit][pacing]") {
  H2TestServer server([](const H2SeenRequest& r) {
    H2Reply reply{200, {{"content-type", "text/html"}}, "page " + r.Field(":path")};
    reply.delay = 40ms;
    return reply;
  });
  FetcherOptions options = Adaptive();
  options.h2_streams = 4;
  options.h2_prior_knowledge = true;
  const auto results = Run(options, Urls(server.base(), {"/1", "/2", "/3", "/4"}));
  for (size_t i = 1; i < results.size(); ++i) {
    CHECK(results[i].status == 200);
    CHECK(results[i].pace_ms >= 80);
    CHECK(results[i].start_unix_us - results[i - 1].start_unix_us >= 120'000);  // 40 ms answer + 80 ms gap
  }
  CHECK(server.connections() == 1);
  CHECK(server.max_open_streams() == 1);
}
