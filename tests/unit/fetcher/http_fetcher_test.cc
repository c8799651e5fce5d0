// Tests for the HTTP engine (fetcher/http/http_fetcher.h) against small HTTP
// servers started in-process on 127.0.0.1, port chosen by the kernel. Each
// server writes raw response bytes chosen by the test, so the tests control
// framing (Content-Length, chunked, close-delimited), encodings and failures.
// This file: sequences, framing, ranges, content codings, errors and
// concurrency; http_fetcher_limits_test.cc: TLS, time limits, dates,
// DNS, per-IP and result-budget limits.
#include "fetcher/http/http_fetcher.h"

#include "tests/unit/fetcher/fetch_test_util.h"
#include "tests/unit/fetcher/test_http_server.h"

// GCC 12 with -fsanitize=address reports a false -Wmaybe-uninitialized in
// Beast's request parser (boost::optional in basic_parser.hpp), used here by
// the test server only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "common/crawl/fetch_error.h"
#include "common/net/hosts_file.h"

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;
using crawl::fetcher::FetcherOptions;
using crawl::fetcher::FetchResult;
using crawl::fetcher::HttpFetcher;

using namespace crawl::fetcher::testing;  // NOLINT: test helpers

Reply EchoTarget(const Request& request) {
  return {Response(200, "page " + std::string(request.target())), false, false};
}

}  // namespace

TEST_CASE("a sequence of URLs is fetched in order over one connection", "[unit]") {
  TestServer server(EchoTarget);
  const std::vector<std::string> urls = {server.base() + "/a", server.base() + "/b?x=1",
                                         server.base() + "/c"};
  auto results = FetchAll(TestOptions(), urls);
  CHECK(results[0].body == "page /a");
  CHECK(results[1].body == "page /b?x=1");
  CHECK(results[2].body == "page /c");
  for (const auto& r : results) {
    CHECK(r.status == 200);
    CHECK(r.error.empty());
    CHECK_FALSE(r.truncated);
    CHECK(r.content_type == "text/html; charset=utf-8");
    CHECK(r.mime_type == "text/html");
    CHECK(r.wire_bytes > r.body.size());
    CHECK(r.start_unix_us > 0);
    CHECK(r.remote_address == "127.0.0.1:" + std::to_string(server.port()));
  }
  CHECK(server.connections() == 1);
  auto seen = server.requests();
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].target == "/a");
  CHECK(seen[1].target == "/b?x=1");
  CHECK(seen[2].target == "/c");
  for (const auto& request : seen) {
    CHECK(request.host == "127.0.0.1:" + std::to_string(server.port()));
    CHECK(request.range == "bytes=0-999999");
    CHECK(request.user_agent == "crawl-test/1.0");
    CHECK(request.accept_encoding == "gzip, deflate");
    CHECK(request.connection_header == "keep-alive");
    CHECK(request.connection == 1);
  }
}

TEST_CASE("HTTP error statuses are reported and the connection is kept", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    if (request.target() == "/missing") return {Response(404, "not here", "", "Not Found")};
    if (request.target() == "/broken") return {Response(503, "", "", "Unavailable")};
    return EchoTarget(request);
  });
  auto results =
      FetchAll(TestOptions(), {server.base() + "/missing", server.base() + "/broken", server.base() + "/ok"});
  CHECK(results[0].status == 404);
  CHECK(results[0].body == "not here");
  CHECK(results[1].status == 503);
  CHECK(results[2].status == 200);
  CHECK(server.connections() == 1);
}

TEST_CASE("response metadata is reported: redirects, validators, media type", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    if (request.target() == "/old") return {Response(301, "", "Location: /new?a=b\r\n", "Moved")};
    return {
        "HTTP/1.1 200 OK\r\nContent-Type: Text/Plain ; Charset=ISO-8859-1\r\nETag: \"v1\"\r\n"
        "Last-Modified: Tue, 01 Jan 2030 00:00:00 GMT\r\nExpires: Wed, 02 Jan 2030 00:00:00 GMT\r\n"
        "Content-Length: 2\r\n\r\nhi"};
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/old", server.base() + "/new"});
  CHECK(results[0].status == 301);
  CHECK(results[0].location == "/new?a=b");  // raw, not resolved
  CHECK(results[1].status == 200);
  CHECK(results[1].content_type == "Text/Plain ; Charset=ISO-8859-1");
  CHECK(results[1].mime_type == "text/plain");
  CHECK(results[1].etag == "\"v1\"");
  CHECK(results[1].last_modified == "Tue, 01 Jan 2030 00:00:00 GMT");
  CHECK(results[1].expires == "Wed, 02 Jan 2030 00:00:00 GMT");
}

TEST_CASE("a body is cut at the range size when the server ignores Range (Content-Length)", "[unit]") {
  const std::string big(3000, 'x');
  TestServer server([&](const Request& request) -> Reply {
    if (request.target() == "/big") return {Response(200, big)};
    if (request.target() == "/exact") return {Response(200, std::string(1000, 'e'))};
    return EchoTarget(request);
  });
  FetcherOptions options = TestOptions();
  options.page_range_bytes = 1000;
  auto results =
      FetchAll(options, {server.base() + "/big", server.base() + "/exact", server.base() + "/after"});
  CHECK(results[0].status == 200);
  CHECK(results[0].body == std::string(1000, 'x'));
  CHECK(results[0].truncated);
  // A body of exactly the range size is complete, not cut.
  CHECK(results[1].body.size() == 1000);
  CHECK_FALSE(results[1].truncated);
  CHECK(results[2].body == "page /after");
  // The cut connection could not be reused; the second one was kept.
  CHECK(server.connections() == 2);
  CHECK(server.requests()[0].range == "bytes=0-999");
}

TEST_CASE("a chunked body is cut at the range size", "[unit]") {
  std::string big;
  for (int i = 0; i < 500; ++i) big += "line " + std::to_string(i) + "\n";
  TestServer server([&](const Request& request) -> Reply {
    if (request.target() == "/chunked") return {ChunkedResponse(big, 77)};
    if (request.target() == "/small") return {ChunkedResponse("tiny body", 3)};
    return EchoTarget(request);
  });
  FetcherOptions options = TestOptions();
  options.page_range_bytes = 1000;
  auto results =
      FetchAll(options, {server.base() + "/chunked", server.base() + "/small", server.base() + "/after"});
  CHECK(results[0].status == 200);
  CHECK(results[0].body == big.substr(0, 1000));
  CHECK(results[0].truncated);
  CHECK(results[1].body == "tiny body");
  CHECK_FALSE(results[1].truncated);
  CHECK(results[2].body == "page /after");
  CHECK(server.connections() == 2);
}

TEST_CASE("a 206 answer is reported as such and marked truncated when the document is larger", "[unit]") {
  TestServer server([](const Request&) -> Reply {
    return {Response(206, "0123456789", "Content-Range: bytes 0-9/5000\r\n", "Partial Content")};
  });
  FetcherOptions options = TestOptions();
  options.page_range_bytes = 10;
  auto results = FetchAll(options, {server.base() + "/doc"});
  CHECK(results[0].status == 206);
  CHECK(crawl::IsSuccess(results[0].status));
  CHECK(results[0].body == "0123456789");
  CHECK(results[0].truncated);
}

// RFC 9110 15.5.17: a 416 to `bytes=0-N` means the server would not serve
// that range (an empty document, or a server that refuses ranges). The page
// is asked for once more without Range and kept, not lost as a failure.
TEST_CASE("a 416 is asked again once without Range and the page kept", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    if (request[http::field::range].empty())
      return {Response(200, "whole page " + std::string(request.target()))};
    return {Response(416, "", "Content-Range: bytes */0\r\n", "Range Not Satisfiable")};
  });
  FetcherOptions options = TestOptions();
  options.page_range_bytes = 1000;
  auto results = FetchAll(options, {server.base() + "/a", server.base() + "/b"});
  REQUIRE(results.size() == 2);
  CHECK(results[0].status == 200);
  CHECK(results[0].body == "whole page /a");
  CHECK_FALSE(results[0].truncated);
  CHECK(results[1].status == 200);
  CHECK(results[1].body == "whole page /b");
  const auto seen = server.requests();
  REQUIRE(seen.size() == 4);
  CHECK(seen[0].range == "bytes=0-999");
  CHECK(seen[1].range.empty());
  CHECK(seen[2].range == "bytes=0-999");  // the next URL asks with Range again
  CHECK(seen[3].range.empty());
  CHECK(server.connections() == 1);  // the keep-alive connection carries the second ask
}

TEST_CASE("a 416 without Range too is reported, asked twice at most", "[unit]") {
  TestServer server([](const Request&) -> Reply {
    return {Response(416, "", "", "Range Not Satisfiable"), /*close=*/true};
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/a"});
  CHECK(results[0].status == 416);
  CHECK(server.requests().size() == 2);
}

TEST_CASE("interim 1xx responses are skipped", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    return {
        "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
        "HTTP/1.1 100 Continue\r\n\r\n" +
        Response(200, "page " + std::string(request.target()))};
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/a", server.base() + "/b"});
  CHECK(results[0].status == 200);
  CHECK(results[0].body == "page /a");
  CHECK(results[1].status == 200);
  CHECK(results[1].body == "page /b");
  CHECK(server.connections() == 1);
}

TEST_CASE("a close-delimited body is read to the end", "[unit]") {
  TestServer server([](const Request&) -> Reply {
    return {"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nuntil the end", true};
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/1", server.base() + "/2"});
  CHECK(results[0].body == "until the end");
  CHECK(results[1].body == "until the end");
  CHECK(server.connections() == 2);
}

TEST_CASE("gzip and deflate bodies are decoded", "[unit]") {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "<p>compressible text " + std::to_string(i % 7) + "</p>\n";
  TestServer server([&](const Request& request) -> Reply {
    if (request.target() == "/gzip")
      return {Response(200, Compress(text, 15 + 16), "Content-Encoding: gzip\r\n")};
    if (request.target() == "/xgzip")
      return {ChunkedResponse(Compress(text, 15 + 16), 100, "Content-Encoding: x-gzip\r\n")};
    if (request.target() == "/zlib")
      return {Response(200, Compress(text, 15), "Content-Encoding: deflate\r\n")};
    if (request.target() == "/raw")
      return {Response(200, Compress(text, -15), "Content-Encoding: deflate\r\n")};
    if (request.target() == "/two") {
      return {Response(200, Compress("first,", 31) + Compress("second", 31), "Content-Encoding: gzip\r\n")};
    }
    return EchoTarget(request);
  });
  const std::string b = server.base();
  auto results = FetchAll(TestOptions(), {b + "/gzip", b + "/xgzip", b + "/zlib", b + "/raw", b + "/two"});
  for (size_t i = 0; i < 4; ++i) {
    INFO(results[i].url << " " << results[i].error);
    CHECK(results[i].status == 200);
    CHECK(results[i].body == text);
    CHECK_FALSE(results[i].truncated);
    CHECK(results[i].wire_bytes < text.size());  // it really came compressed
  }
  CHECK(results[0].content_encoding == "gzip");
  CHECK(results[4].body == "first,second");  // concatenated gzip members
  CHECK(server.connections() == 1);
}

TEST_CASE("a decompression bomb is cut at max_decoded_bytes", "[unit][policy]") {
  const std::string zeros(2'000'000, '\0');
  const std::string bomb = Compress(zeros, 31);
  REQUIRE(bomb.size() < 10'000);
  TestServer server(
      [&](const Request&) -> Reply { return {Response(200, bomb, "Content-Encoding: gzip\r\n")}; });
  FetcherOptions options = TestOptions();
  options.max_decoded_bytes = 50'000;
  auto results = FetchAll(options, {server.base() + "/bomb"});
  CHECK(results[0].status == 200);
  CHECK(results[0].body.size() == 50'000);
  CHECK(results[0].truncated);
}

// The body cut-off applies to the decoded bytes: a page costs at most
// page_range_bytes whatever its compression ratio (bounded memory
// against gzip bombs; the hostile web's /bomb/ is 4 MiB inflating to 4 GiB).
TEST_CASE("by default the decoded body is cut at page_range_bytes", "[unit][policy]") {
  const std::string zeros(3'000'000, '\0');
  const std::string bomb = Compress(zeros, 31) + Compress(zeros, 31);  // two members, 6 MB decoded
  REQUIRE(bomb.size() < 20'000);
  TestServer server(
      [&](const Request&) -> Reply { return {Response(200, bomb, "Content-Encoding: gzip\r\n")}; });
  FetcherOptions options = TestOptions();
  REQUIRE(options.max_decoded_bytes == 0);
  options.page_range_bytes = 100'000;
  auto results = FetchAll(options, {server.base() + "/bomb"});
  CHECK(results[0].status == 200);
  CHECK(results[0].body.size() == 100'000);
  CHECK(results[0].body.capacity() < 1'000'000);  // never held the rest
  CHECK(results[0].truncated);
  CHECK(results[0].error.find("decoded body cut at 100000") != std::string::npos);
}

TEST_CASE("a gzip body cut at the range keeps what decodes", "[unit]") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i * 7919 % 10007) + " ";
  const std::string gz = Compress(text, 31);
  TestServer server(
      [&](const Request&) -> Reply { return {Response(200, gz, "Content-Encoding: gzip\r\n")}; });
  FetcherOptions options = TestOptions();
  options.page_range_bytes = gz.size() / 2;
  auto results = FetchAll(options, {server.base() + "/half"});
  CHECK(results[0].status == 200);
  CHECK(results[0].truncated);
  CHECK_FALSE(results[0].body.empty());
  CHECK(text.compare(0, results[0].body.size(), results[0].body) == 0);
}

TEST_CASE("a corrupt or unknown content coding is a body error", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    if (request.target() == "/corrupt")
      return {Response(200, "definitely not gzip", "Content-Encoding: gzip\r\n")};
    return {Response(200, "xx", "Content-Encoding: br\r\n")};
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/corrupt", server.base() + "/br"});
  CHECK(results[0].status == crawl::kBodyError);
  CHECK(results[0].body.empty());
  CHECK_FALSE(results[0].error.empty());
  CHECK(results[1].status == crawl::kBodyError);
  CHECK(results[1].error.find("br") != std::string::npos);
}

TEST_CASE("a response header larger than the limit is a protocol error", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    if (request.target() == "/huge") {
      return {"HTTP/1.1 200 OK\r\nX-Filler: " + std::string(100'000, 'a') +
              "\r\nContent-Length: 2\r\n\r\nok"};
    }
    return EchoTarget(request);
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/huge", server.base() + "/next"});
  CHECK(results[0].status == crawl::kProtocolError);
  CHECK(results[0].error.find("header") != std::string::npos);
  // The sequence goes on, on a new connection.
  CHECK(results[1].status == 200);
  CHECK(server.connections() == 2);
}

TEST_CASE("garbage instead of HTTP is a protocol error", "[unit]") {
  TestServer server([](const Request&) -> Reply { return {"SSH-2.0-OpenSSH_9.2\r\n\r\n", true}; });
  auto results = FetchAll(TestOptions(), {server.base() + "/"});
  CHECK(results[0].status == crawl::kProtocolError);
}

TEST_CASE("a server that never answers times out", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    if (request.target() == "/slow") return {"", false, true};
    return EchoTarget(request);
  });
  FetcherOptions options = TestOptions();
  options.request_timeout = 300ms;
  auto results = FetchAll(options, {server.base() + "/slow", server.base() + "/fast"});
  CHECK(results[0].status == crawl::kTimeout);
  CHECK(std::string(crawl::FetchErrorName(results[0].status)) == "timeout");
  CHECK(results[1].status == 200);
  CHECK(server.connections() == 2);
}

TEST_CASE("a refused connection is a connect error for every URL", "[unit]") {
  const std::string base = "http://127.0.0.1:" + std::to_string(ClosedPort());
  auto results = FetchAll(TestOptions(), {base + "/a", base + "/b"});
  for (const auto& r : results) {
    CHECK(r.status == crawl::kConnectError);
    CHECK_FALSE(r.error.empty());
  }
}

TEST_CASE("private addresses are refused unless allowed", "[unit][policy]") {
  TestServer server(EchoTarget);
  FetcherOptions options = TestOptions();
  options.allow_private = false;
  const std::string by_name = "http://localhost:" + std::to_string(server.port());
  auto results = FetchAll(options, {server.base() + "/a", server.base() + "/b", by_name + "/c",
                                    "http://[::1]:" + std::to_string(server.port()) + "/d"});
  for (const auto& r : results) {
    CHECK(r.status == crawl::kBlockedAddress);
    CHECK(std::string(crawl::FetchErrorName(r.status)) == "blocked_address");
  }
  CHECK(server.connections() == 0);

  options.allow_private = true;
  results = FetchAll(options, {server.base() + "/a"});
  CHECK(results[0].status == 200);
}

TEST_CASE("the hosts file overrides DNS and port while Host stays the URL's", "[unit]") {
  TestServer server(EchoTarget);
  auto hosts = crawl::HostsFile::Parse("127.0.0.1:" + std::to_string(server.port()) +
                                       " www.site0.test\n127.0.0.1 www.site1.test\n");
  REQUIRE(hosts.ok());
  FetcherOptions options = TestOptions();
  options.hosts_file = &*hosts;
  // Hosts file entries are exempt from the private-address policy.
  options.allow_private = false;

  auto results = FetchAll(options, {"http://www.site0.test/x", "http://WWW.Site0.test/y"});
  CHECK(results[0].status == 200);
  CHECK(results[0].body == "page /x");
  CHECK(results[1].body == "page /y");
  // Without a port in the hosts file, the URL's port is used.
  const std::string site1 = "http://www.site1.test:" + std::to_string(server.port());
  results = FetchAll(options, {site1 + "/z"});
  CHECK(results[0].body == "page /z");

  auto seen = server.requests();
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].host == "www.site0.test");
  CHECK(seen[1].host == "www.site0.test");
  CHECK(seen[2].host == "www.site1.test:" + std::to_string(server.port()));
}

TEST_CASE("a server that closes after each response gets a new connection per URL", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    return {Response(200, "page " + std::string(request.target()), "Connection: close\r\n"), true};
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/1", server.base() + "/2", server.base() + "/3"});
  for (size_t i = 0; i < 3; ++i) {
    CHECK(results[i].status == 200);
    CHECK(results[i].body == "page /" + std::to_string(i + 1));
  }
  CHECK(server.connections() == 3);
}

TEST_CASE("a keep-alive connection closed silently by the server is retried", "[unit]") {
  // The server claims keep-alive but drops the connection after each answer:
  // the next request on it fails before any response byte and is re-sent.
  TestServer server([](const Request& request) -> Reply {
    return {Response(200, "page " + std::string(request.target())), true};
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/1", server.base() + "/2", server.base() + "/3"});
  for (size_t i = 0; i < 3; ++i) {
    INFO(results[i].error);
    CHECK(results[i].status == 200);
    CHECK(results[i].body == "page /" + std::to_string(i + 1));
  }
  CHECK(server.connections() == 3);
}

TEST_CASE("every URL gets exactly one result whatever fails", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    if (request.target() == "/hang") return {"", false, true};
    if (request.target() == "/close") return {"", true};  // closes without answering
    if (request.target() == "/404") return {Response(404, "")};
    return EchoTarget(request);
  });
  FetcherOptions options = TestOptions();
  options.request_timeout = 300ms;
  const std::string b = server.base();
  const std::vector<std::string> urls = {b + "/ok",  "not a url",           b + "/hang", b + "/close",
                                         b + "/404", "ftp://example.test/", b + "/ok2"};
  auto results = FetchAll(options, urls);
  CHECK(results[0].status == 200);
  CHECK(results[1].status == crawl::kBadUrl);
  CHECK(results[2].status == crawl::kTimeout);
  CHECK(results[3].status == crawl::kConnectError);
  CHECK(results[4].status == 404);
  CHECK(results[5].status == crawl::kBadUrl);
  CHECK(results[6].status == 200);
}

TEST_CASE("an empty sequence just completes", "[unit]") {
  auto results = FetchAll(TestOptions(), {});
  CHECK(results.empty());
}

TEST_CASE("many sequences run concurrently, one connection each", "[unit]") {
  TestServer server(EchoTarget);
  net::io_context ioc;
  HttpFetcher fetcher(ioc, TestOptions());
  constexpr int kSequences = 40;
  std::vector<std::vector<FetchResult>> results(kSequences);
  int done = 0;
  for (int s = 0; s < kSequences; ++s) {
    std::vector<std::string> urls;
    for (int i = 0; i < 3; ++i)
      urls.push_back(server.base() + "/s" + std::to_string(s) + "/" + std::to_string(i));
    fetcher.FetchSequence(
        urls, [&results, s](FetchResult r) { results[s].push_back(std::move(r)); }, [&] { ++done; });
  }
  ioc.run();
  CHECK(done == kSequences);
  for (int s = 0; s < kSequences; ++s) {
    REQUIRE(results[s].size() == 3);
    for (int i = 0; i < 3; ++i) {
      CHECK(results[s][i].body == "page /s" + std::to_string(s) + "/" + std::to_string(i));
    }
  }
  CHECK(server.connections() == kSequences);
  // Each sequence kept to its connection.
  std::map<int, std::set<std::string>> prefixes_by_connection;
  for (const auto& seen : server.requests()) {
    prefixes_by_connection[seen.connection].insert(seen.target.substr(0, seen.target.rfind('/')));
  }
  for (const auto& [connection, prefixes] : prefixes_by_connection) CHECK(prefixes.size() == 1);
}

TEST_CASE("sequences are safe when several threads run the io_context", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    if (request.target().ends_with("/hang")) return {"", false, true};
    return EchoTarget(request);
  });
  net::io_context ioc;
  HttpFetcher fetcher(ioc, TestOptions());
  constexpr int kSequences = 20;
  // One vector per sequence: callbacks of one sequence never overlap.
  std::vector<std::vector<FetchResult>> results(kSequences);
  std::atomic<int> done{0};
  for (int s = 0; s < kSequences; ++s) {
    std::vector<std::string> urls;
    for (int i = 0; i < 3; ++i)
      urls.push_back(server.base() + "/s" + std::to_string(s) + "/" + std::to_string(i));
    if (s % 4 == 0) urls.push_back(server.base() + "/s" + std::to_string(s) + "/hang");
    fetcher.FetchSequence(
        urls, [&results, s](FetchResult r) { results[s].push_back(std::move(r)); }, [&] { ++done; });
  }
  // The hanging sequences end only through CancelAll, sent once everything
  // else is over.
  net::steady_timer poll(ioc);
  std::function<void()> cancel_when_hung = [&] {
    int hung = 0;
    for (const auto& seen : server.requests()) hung += seen.target.ends_with("/hang") ? 1 : 0;
    if (hung == kSequences / 4 && done == kSequences - kSequences / 4) return fetcher.CancelAll();
    poll.expires_after(5ms);
    poll.async_wait([&](beast::error_code) { cancel_when_hung(); });
  };
  cancel_when_hung();
  std::thread other([&] { ioc.run(); });
  ioc.run();
  other.join();
  CHECK(done == kSequences);
  for (int s = 0; s < kSequences; ++s) {
    REQUIRE(results[s].size() == (s % 4 == 0 ? 4u : 3u));
    for (int i = 0; i < 3; ++i) CHECK(results[s][i].status == 200);
    if (s % 4 == 0) CHECK(results[s][3].status == crawl::kCancelled);
  }
}

TEST_CASE("delay_between spaces requests and drops idle connections past the idle timeout", "[unit]") {
  TestServer server(EchoTarget);
  FetcherOptions options = TestOptions();
  auto results = FetchAll(options, {server.base() + "/1", server.base() + "/2"}, 20ms);
  CHECK(results[1].status == 200);
  CHECK(server.connections() == 1);

  options.idle_timeout = 10ms;
  results = FetchAll(options, {server.base() + "/3", server.base() + "/4"}, 30ms);
  CHECK(results[1].status == 200);
  CHECK(server.connections() == 3);
}

TEST_CASE("CancelAll reports the remaining URLs as cancelled", "[unit]") {
  TestServer server([](const Request&) -> Reply { return {"", false, true}; });
  net::io_context ioc;
  FetcherOptions options = TestOptions();
  options.request_timeout = 60'000ms;  // only cancellation can end this
  HttpFetcher fetcher(ioc, options);
  std::vector<FetchResult> results;
  bool done = false;
  fetcher.FetchSequence(
      {server.base() + "/1", server.base() + "/2", server.base() + "/3"},
      [&](FetchResult r) { results.push_back(std::move(r)); }, [&] { done = true; });
  CHECK(fetcher.active_sequences() == 1);
  // Cancel once the request is on the wire.
  net::steady_timer poll(ioc);
  std::function<void()> wait_for_request = [&] {
    if (!server.requests().empty()) return fetcher.CancelAll();
    poll.expires_after(5ms);
    poll.async_wait([&](beast::error_code) { wait_for_request(); });
  };
  wait_for_request();
  ioc.run();
  CHECK(done);
  REQUIRE(results.size() == 3);
  for (const auto& r : results) CHECK(r.status == crawl::kCancelled);
  CHECK(fetcher.active_sequences() == 0);
}

TEST_CASE("fetch error names are stable", "[unit]") {
  CHECK(std::string(crawl::FetchErrorName(crawl::kDnsError)) == "dns_error");
  CHECK(std::string(crawl::FetchErrorName(crawl::kConnectError)) == "connect_error");
  CHECK(std::string(crawl::FetchErrorName(crawl::kTimeout)) == "timeout");
  CHECK(std::string(crawl::FetchErrorName(crawl::kTlsError)) == "tls_error");
  CHECK(std::string(crawl::FetchErrorName(crawl::kProtocolError)) == "protocol_error");
  CHECK(std::string(crawl::FetchErrorName(crawl::kBlockedAddress)) == "blocked_address");
  CHECK(std::string(crawl::FetchErrorName(crawl::kBodyError)) == "body_error");
  CHECK(std::string(crawl::FetchErrorName(crawl::kCancelled)) == "cancelled");
  CHECK(std::string(crawl::FetchErrorName(crawl::kBadUrl)) == "bad_url");
  CHECK(std::string(crawl::FetchErrorName(404)) == "http");
  CHECK(std::string(crawl::FetchErrorName(-100)) == "unknown");
}

// ---- https ----
