// Tests for the fetcher's HTTP/2 mode (fetcher/http/h2_exchange.h,
// h2_session.h) against a real nghttp2 server in-process
// (test_h2_server.h): one connection per sequence with at most h2_streams
// in flight, the same per-request limits and results as HTTP/1.1, and the
// server's resets and GOAWAYs; ALPN picks h2 over TLS and falls back to
// HTTP/1.1 when the server does not offer it.
#include "fetcher/http/http_fetcher.h"
#include "tests/unit/fetcher/fetch_test_util.h"
#include "tests/unit/fetcher/test_h2_server.h"
#include "tests/unit/fetcher/test_http_server.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <catch2/catch.hpp>
#include <thread>

#include "common/crawl/fetch_error.h"

namespace {

using namespace std::chrono_literals;
using crawl::fetcher::FetcherOptions;
using crawl::fetcher::FetchResult;
using crawl::fetcher::FetchTarget;
using crawl::fetcher::HttpFetcher;
using namespace crawl::fetcher::testing;

FetcherOptions H2Options(size_t streams = 4) {
  FetcherOptions options = TestOptions();
  options.h2_streams = streams;
  options.h2_prior_knowledge = true;
  options.accept_self_signed = true;
  return options;
}

std::vector<FetchTarget> Urls(const std::string& base, int n, const std::string& prefix = "/p") {
  std::vector<FetchTarget> out;
  for (int i = 0; i < n; ++i) out.push_back({base + prefix + std::to_string(i), "", ""});
  return out;
}

H2Reply Page(const H2SeenRequest& request) {
  return {200, {{"content-type", "text/html; charset=utf-8"}}, "page " + request.Field(":path")};
}

}  // namespace

TEST_CASE("h2: a sequence runs over one connection with at most h2_streams in flight", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    H2Reply reply = Page(r);
    reply.delay = 40ms;  // so that streams overlap
    return reply;
  });
  auto results = FetchTargets(H2Options(3), Urls(server.base(), 12));
  for (size_t i = 0; i < results.size(); ++i) {
    CHECK(results[i].status == 200);
    CHECK(results[i].body == "page /p" + std::to_string(i));
    CHECK(results[i].mime_type == "text/html");
    CHECK(results[i].remote_address == server.base().substr(7));
  }
  CHECK(server.connections() == 1);
  CHECK(server.max_open_streams() == 3);
  const auto seen = server.requests();
  REQUIRE(seen.size() == 12);
  CHECK(seen[0].Field(":authority") == server.base().substr(7));
  CHECK(seen[0].Field("user-agent") == "crawl-test/1.0");
  CHECK(seen[0].Field("accept-encoding") == "gzip, deflate");
  CHECK(seen[0].Field("connection").empty());  // forbidden in h2 (RFC 9113 8.2.2)
}

TEST_CASE("h2: the server's SETTINGS_MAX_CONCURRENT_STREAMS bounds the streams", "[unit]") {
  // Requests past the server's limit would wait inside nghttp2 with their
  // first-byte clocks running: 10 URLs answered two at a time in 150 ms
  // steps would take 750 ms, past the 600 ms limit, unless each request is
  // only started once the server can take it.
  H2TestServer server(
      [](const H2SeenRequest& r) {
        H2Reply reply = Page(r);
        reply.delay = 150ms;
        return reply;
      },
      /*max_streams=*/2);
  FetcherOptions options = H2Options(10);
  options.first_byte_timeout = 600ms;
  auto results = FetchTargets(options, Urls(server.base(), 10));
  for (const auto& r : results) CHECK(r.status == 200);
  CHECK(server.connections() == 1);
  CHECK(server.max_open_streams() == 2);
}

TEST_CASE("h2: crawl delay spaces request starts", "[unit][policy]") {
  H2TestServer server(Page);
  auto results = FetchTargets(H2Options(4), Urls(server.base(), 4), 60ms);
  for (size_t i = 1; i < results.size(); ++i) {
    CHECK(results[i].status == 200);
    CHECK(results[i].start_unix_us - results[i - 1].start_unix_us >= 60'000);
  }
  CHECK(server.connections() == 1);
}

TEST_CASE("h2: with a crawl delay the next request starts the delay after the previous one ended",
          "[unit][policy]") {
  // As over HTTP/1.1: spaced from starts, a server that logs a request late
  // sees two requests closer than the delay.
  H2TestServer server([](const H2SeenRequest& r) {
    std::this_thread::sleep_for(40ms);
    return Page(r);
  });
  auto results = FetchTargets(H2Options(4), Urls(server.base(), 4), 60ms);
  REQUIRE(results.size() == 4);
  for (size_t i = 1; i < results.size(); ++i) {
    CHECK(results[i].status == 200);
    CHECK(results[i].start_unix_us - results[i - 1].start_unix_us >= 100'000);  // 40 ms answer + 60 ms delay
  }
  CHECK(server.connections() == 1);
}

TEST_CASE("h2: Range is asked and a body past it is cut, the connection kept", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    if (r.Field(":path") == "/big") return H2Reply{200, {}, std::string(5000, 'a')};
    return Page(r);
  });
  FetcherOptions options = H2Options();
  options.page_range_bytes = 1000;
  auto results =
      FetchTargets(options, {{server.base() + "/big", "", ""}, {server.base() + "/after", "", ""}});
  CHECK(results[0].status == 200);
  CHECK(results[0].truncated);
  CHECK(results[0].body == std::string(1000, 'a'));
  CHECK(results[1].status == 200);
  CHECK(results[1].body == "page /after");
  CHECK(server.connections() == 1);
  CHECK(server.requests()[0].Field("range") == "bytes=0-999");
}

TEST_CASE("h2: an endless body is cut at the range and does not hold the sequence", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    if (r.Field(":path") == "/endless") return H2Reply{200, {}, "", 0ms, false, false, false, true};
    return Page(r);
  });
  FetcherOptions options = H2Options();
  options.page_range_bytes = 200'000;
  auto results =
      FetchTargets(options, {{server.base() + "/endless", "", ""}, {server.base() + "/next", "", ""}});
  CHECK(results[0].status == 200);
  CHECK(results[0].truncated);
  CHECK(results[0].body.size() == 200'000);
  CHECK(results[1].body == "page /next");
}

TEST_CASE("h2: a 206 of a larger document is marked truncated; a 416 is asked again without Range",
          "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    if (r.Field(":path") == "/partial")
      return H2Reply{206, {{"content-range", "bytes 0-9/100"}}, "0123456789"};
    if (!r.Field("range").empty()) return H2Reply{416, {}, ""};
    return H2Reply{200, {}, "whole"};
  });
  auto results =
      FetchTargets(H2Options(), {{server.base() + "/partial", "", ""}, {server.base() + "/empty", "", ""}});
  CHECK(results[0].status == 206);
  CHECK(results[0].truncated);
  CHECK(results[1].status == 200);
  CHECK(results[1].body == "whole");
  CHECK(server.requests().size() == 3);
}

TEST_CASE("h2: gzip bodies are decoded", "[unit]") {
  const std::string text(3000, 'z');
  H2TestServer server([&](const H2SeenRequest&) {
    return H2Reply{
        200, {{"content-encoding", "gzip"}, {"content-type", "text/plain"}}, Compress(text, 15 + 16)};
  });
  auto results = FetchTargets(H2Options(), Urls(server.base(), 2));
  CHECK(results[0].status == 200);
  CHECK(results[0].content_encoding == "gzip");
  CHECK(results[0].body == text);
  CHECK_FALSE(results[0].truncated);
}

TEST_CASE("h2: validators are sent and a 304 is reported with its fields", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    if (r.Field("if-none-match") == "\"v1\"") return H2Reply{304, {{"etag", "\"v1\""}}, ""};
    return H2Reply{200, {{"etag", "\"v1\""}, {"last-modified", "Tue, 24 Nov 2026 10:00:00 GMT"}}, "x"};
  });
  auto results = FetchTargets(H2Options(), {{server.base() + "/a", "\"v1\"", "Tue, 24 Nov 2026 10:00:00 GMT"},
                                            {server.base() + "/b", "", ""}});
  CHECK(results[0].status == 304);
  CHECK(results[0].conditional);
  CHECK(results[0].etag == "\"v1\"");
  CHECK(results[0].body.empty());
  CHECK(results[1].status == 200);
  CHECK_FALSE(results[1].conditional);
  CHECK(results[1].last_modified == "Tue, 24 Nov 2026 10:00:00 GMT");
  CHECK(server.requests()[0].Field("if-modified-since") == "Tue, 24 Nov 2026 10:00:00 GMT");
}

TEST_CASE("h2: 3xx is not followed and 503 carries Retry-After", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    if (r.Field(":path") == "/moved") return H2Reply{301, {{"location", "/elsewhere"}}, ""};
    return H2Reply{503, {{"retry-after", "120"}}, "busy"};
  });
  auto results =
      FetchTargets(H2Options(), {{server.base() + "/moved", "", ""}, {server.base() + "/busy", "", ""}});
  CHECK(results[0].status == 301);
  CHECK(results[0].location == "/elsewhere");
  CHECK(results[1].status == 503);
  CHECK(results[1].retry_after_seconds == 120);
  CHECK(server.requests().size() == 2);
}

TEST_CASE("h2: a stream that never answers hits the first-byte timeout; others go on", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    if (r.Field(":path") == "/p0") return H2Reply{200, {}, "", 0ms, /*hang=*/true};
    return Page(r);
  });
  FetcherOptions options = H2Options();
  options.first_byte_timeout = 300ms;
  auto results = FetchTargets(options, Urls(server.base(), 3));
  CHECK(results[0].status == crawl::kTimeout);
  CHECK(results[0].error.find("first-byte") != std::string::npos);
  CHECK(results[1].status == 200);
  CHECK(results[2].status == 200);
  CHECK(server.connections() == 1);
}

TEST_CASE("h2: a slow answer hits the total time limit", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    H2Reply reply = Page(r);
    reply.delay = 2000ms;
    return reply;
  });
  FetcherOptions options = H2Options();
  options.first_byte_timeout = 5000ms;
  options.request_timeout = 300ms;
  auto results = FetchTargets(options, Urls(server.base(), 1));
  CHECK(results[0].status == crawl::kTimeout);
  CHECK(results[0].error.find("total time limit") != std::string::npos);
}

TEST_CASE("h2: RST_STREAM fails that URL only", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    if (r.Field(":path") == "/p1") return H2Reply{200, {}, "", 0ms, false, /*reset=*/true};
    return Page(r);
  });
  auto results = FetchTargets(H2Options(), Urls(server.base(), 3));
  CHECK(results[0].status == 200);
  CHECK(results[1].status == crawl::kConnectError);
  CHECK(results[1].error.find("reset") != std::string::npos);
  CHECK(results[2].status == 200);
  CHECK(server.connections() == 1);
}

TEST_CASE("h2: after GOAWAY the unprocessed URLs go on a new connection", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    H2Reply reply = Page(r);
    reply.delay = 50ms;
    if (r.Field(":path") == "/p1" && r.connection == 1) reply.goaway = true;
    return reply;
  });
  auto results = FetchTargets(H2Options(4), Urls(server.base(), 6));
  for (size_t i = 0; i < results.size(); ++i) {
    CHECK(results[i].status == 200);
    CHECK(results[i].body == "page /p" + std::to_string(i));
  }
  CHECK(server.connections() == 2);
}

TEST_CASE("h2: a response header list over the limit is a protocol error", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    if (r.Field(":path") == "/p0") return H2Reply{200, {{"x-big", std::string(20'000, 'h')}}, "x"};
    return Page(r);
  });
  FetcherOptions options = H2Options();
  options.max_header_bytes = 8 * 1024;
  auto results = FetchTargets(options, Urls(server.base(), 2));
  CHECK(results[0].status == crawl::kProtocolError);
  CHECK(results[0].error.find("header") != std::string::npos);
  CHECK(results[1].status == 200);
}

TEST_CASE("h2: a server that does not speak h2 fails clearly under prior knowledge", "[unit]") {
  TestServer server([](const Request&) { return Reply{Response(200, "http/1.1")}; });
  auto results = FetchTargets(H2Options(), {{server.base() + "/a", "", ""}, {server.base() + "/b", "", ""}});
  for (const auto& r : results) {
    CHECK(r.status < 0);
    CHECK_FALSE(r.error.empty());
  }
}

TEST_CASE("h2: without prior knowledge cleartext stays HTTP/1.1", "[unit]") {
  TestServer server([](const Request&) { return Reply{Response(200, "http/1.1")}; });
  FetcherOptions options = H2Options();
  options.h2_prior_knowledge = false;
  auto results = FetchTargets(options, {{server.base() + "/a", "", ""}});
  CHECK(results[0].status == 200);
  CHECK(results[0].body == "http/1.1");
}

TEST_CASE("h2: https negotiates h2 by ALPN", "[unit]") {
  auto certificate = MakeSelfSigned("localhost");
  auto tls = ServerContext(certificate);
  H2TestServer server(Page, 100, tls.get());
  FetcherOptions options = H2Options();
  options.h2_prior_knowledge = false;
  auto results = FetchTargets(options, Urls(server.base(), 5));
  for (const auto& r : results) CHECK(r.status == 200);
  CHECK(server.connections() == 1);
  CHECK(server.requests().size() == 5);  // the h2 server saw them: h2 was used
}

TEST_CASE("h2: https falls back to HTTP/1.1 when the server does not pick h2", "[unit]") {
  auto certificate = MakeSelfSigned("localhost");
  auto tls = ServerContext(certificate);
  TestServer server([](const Request&) { return Reply{Response(200, "over http/1.1")}; }, tls.get());
  FetcherOptions options = H2Options();
  options.h2_prior_knowledge = false;
  const std::string base = "https://127.0.0.1:" + std::to_string(server.port());
  auto results = FetchTargets(options, {{base + "/a", "", ""}, {base + "/b", "", ""}});
  for (const auto& r : results) {
    CHECK(r.status == 200);
    CHECK(r.body == "over http/1.1");
  }
  CHECK(server.connections() == 1);
}

TEST_CASE("h2: CancelAll reports the streams in flight and the rest as cancelled", "[unit]") {
  H2TestServer server([](const H2SeenRequest& r) {
    H2Reply reply = Page(r);
    reply.hang = true;
    return reply;
  });
  net::io_context ioc;
  HttpFetcher fetcher(ioc, H2Options());
  std::vector<FetchResult> results;
  bool done = false;
  auto targets = Urls(server.base(), 6);
  fetcher.FetchSequence(
      targets, [&](FetchResult r) { results.push_back(std::move(r)); }, [&] { done = true; });
  net::steady_timer timer(ioc, 200ms);
  timer.async_wait([&](boost::system::error_code) { fetcher.CancelAll(); });
  ioc.run();
  CHECK(done);
  REQUIRE(results.size() == 6);
  for (const auto& r : results) CHECK(r.status == crawl::kCancelled);
  CHECK(fetcher.requests_in_flight() == 0);
  CHECK(server.requests().size() >= 2);  // several streams were open when cancelled
}

TEST_CASE("h2: a full result budget holds new streams until the consumer releases bodies", "[unit]") {
  H2TestServer server(Page);  // bodies of 8 bytes
  net::io_context ioc;
  HttpFetcher fetcher(ioc, H2Options(4));
  auto budget = std::make_shared<crawl::fetcher::ResultBudget>(10);
  std::vector<FetchResult> results;
  int done = 0;
  fetcher.FetchSequence(
      Urls(server.base(), 8), [&](FetchResult r) { results.push_back(std::move(r)); }, [&] { ++done; }, 0ms,
      budget);
  // Streams start while under 10 bytes are held (how many depends on how
  // the server's frames are read together); then the sequence waits, with
  // every stream it started delivered.
  ioc.run_for(500ms);
  CHECK(results.size() >= 2);
  CHECK(results.size() < 8);
  CHECK(server.requests().size() == results.size());
  CHECK(budget->held_bytes() >= 10);
  CHECK(budget->waiting() == 1);
  CHECK(done == 0);
  while (done == 0) {
    budget->Release(budget->held_bytes());
    ioc.restart();
    ioc.run_for(200ms);
  }
  REQUIRE(results.size() == 8);
  for (size_t i = 0; i < results.size(); ++i) CHECK(results[i].body == "page /p" + std::to_string(i));
  CHECK(server.connections() == 1);  // pausing kept the connection
}

TEST_CASE("h2: a sequence waiting for the result budget is cancelled at once", "[unit]") {
  H2TestServer server(Page);
  net::io_context ioc;
  HttpFetcher fetcher(ioc, H2Options(2));
  auto budget = std::make_shared<crawl::fetcher::ResultBudget>(1);
  std::vector<FetchResult> results;
  int done = 0;
  fetcher.FetchSequence(
      Urls(server.base(), 5), [&](FetchResult r) { results.push_back(std::move(r)); }, [&] { ++done; }, 0ms,
      budget);
  ioc.run_for(500ms);
  const size_t fetched = results.size();
  REQUIRE(fetched >= 1);
  REQUIRE(fetched < 5);
  REQUIRE(budget->waiting() == 1);
  fetcher.CancelAll();
  ioc.restart();
  ioc.run_for(500ms);
  CHECK(done == 1);
  REQUIRE(results.size() == 5);
  for (size_t i = 0; i < fetched; ++i) CHECK(results[i].status == 200);
  for (size_t i = fetched; i < 5; ++i) CHECK(results[i].status == crawl::kCancelled);
  CHECK(server.requests().size() == fetched);
  CHECK(fetcher.requests_in_flight() == 0);
  budget->Release(budget->held_bytes());  // the stale resume does nothing
  ioc.restart();
  ioc.run_for(100ms);
  CHECK(results.size() == 5);
  CHECK(fetcher.active_sequences() == 0);
}
