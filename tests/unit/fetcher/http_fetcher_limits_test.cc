// Tests for the HTTP engine (fetcher/http/http_fetcher.h), continued from
// http_fetcher_test.cc: https, time limits (connect, first byte, total),
// Retry-After answers, body decoding, redirects, DNS and the hosts
// file, the per-IP connection limit and the result budget.
#include "fetcher/http/content_decoding.h"
#include "fetcher/http/dns_resolver.h"
#include "fetcher/http/http_fetcher.h"
#include "fetcher/http/ip_connection_limiter.h"
#include "tests/unit/fetcher/dns_test_server.h"
#include "tests/unit/fetcher/fetch_test_util.h"
#include "tests/unit/fetcher/test_http_server.h"

// GCC 12 with -fsanitize=address reports a false -Wmaybe-uninitialized in
// Beast's request parser (boost::optional in basic_parser.hpp), used here by
// the test server only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "common/crawl/fetch_error.h"
#include "common/net/hosts_file.h"

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;
using crawl::fetcher::FetcherOptions;
using crawl::fetcher::FetchResult;
using crawl::fetcher::HttpFetcher;
namespace fe = crawl::fetcher;

using namespace crawl::fetcher::testing;  // NOLINT: test helpers

Reply EchoTarget(const Request& request) {
  return {Response(200, "page " + std::string(request.target())), false, false};
}

}  // namespace

namespace {

struct TempFile {
  explicit TempFile(const std::string& text) {
    path = (std::filesystem::temp_directory_path() /
            ("http_fetcher_test_" + std::to_string(::getpid()) + ".pem"))
               .string();
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};

}  // namespace

TEST_CASE("https works with a self-signed certificate when accepted", "[unit]") {
  const Certificate certificate = MakeSelfSigned("www.tls.test");
  auto context = ServerContext(certificate);
  TestServer server(
      [](const Request& request) -> Reply {
        if (request.target() == "/eof") {
          return {"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nclose-delimited",
                  true};
        }
        return EchoTarget(request);
      },
      context.get());
  auto hosts = crawl::HostsFile::Parse("127.0.0.1:" + std::to_string(server.port()) + " www.tls.test\n");
  REQUIRE(hosts.ok());
  FetcherOptions options = TestOptions();
  options.hosts_file = &*hosts;
  options.accept_self_signed = true;
  auto results =
      FetchAll(options, {"https://www.tls.test/a", "https://www.tls.test/b", "https://www.tls.test/eof"});
  CHECK(results[0].status == 200);
  CHECK(results[0].body == "page /a");
  CHECK(results[1].body == "page /b");
  // A close-delimited body ended by a TCP close without close_notify.
  CHECK(results[2].status == 200);
  CHECK(results[2].body == "close-delimited");
  CHECK(server.connections() == 1);
  CHECK(server.requests()[0].host == "www.tls.test");  // default port 443 not written
}

TEST_CASE("https verifies the peer by default", "[unit]") {
  const Certificate certificate = MakeSelfSigned("www.tls.test");
  auto context = ServerContext(certificate);
  TestServer server(EchoTarget, context.get());
  auto hosts =
      crawl::HostsFile::Parse("127.0.0.1:" + std::to_string(server.port()) + " www.tls.test other.test\n");
  REQUIRE(hosts.ok());
  FetcherOptions options = TestOptions();
  options.hosts_file = &*hosts;

  SECTION("an unknown issuer is a TLS error") {
    auto results = FetchAll(options, {"https://www.tls.test/a"});
    CHECK(results[0].status == crawl::kTlsError);
    CHECK(results[0].error.find("certificate") != std::string::npos);
  }
  SECTION("a trusted certificate passes, for its own name only") {
    TempFile ca(certificate.cert_pem);
    options.ca_file = ca.path;
    auto results = FetchAll(options, {"https://www.tls.test/a", "https://other.test/b"});
    INFO(results[0].error);
    CHECK(results[0].status == 200);
    CHECK(results[1].status == crawl::kTlsError);
  }
  SECTION("a missing ca_file makes https fail clearly") {
    options.ca_file = "/nonexistent/ca.pem";
    net::io_context ioc;
    HttpFetcher fetcher(ioc, options);
    CHECK(fetcher.tls_setup_error().find("/nonexistent/ca.pem") != std::string::npos);
    auto results = FetchAll(options, {"https://www.tls.test/a"});
    CHECK(results[0].status == crawl::kTlsError);
  }
}

// ---- acquisition limits and misbehaving hosts ----

TEST_CASE("a server slow to send its first byte hits the first-byte timeout", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    Reply reply{Response(200, "late"), false, false};
    if (request.target() == "/slow") reply.delay = 3000ms;
    return reply;
  });
  FetcherOptions options = TestOptions();
  options.first_byte_timeout = 200ms;
  options.request_timeout = 10'000ms;
  auto results = FetchAll(options, {server.base() + "/slow", server.base() + "/fast"});
  CHECK(results[0].status == crawl::kTimeout);
  CHECK(results[0].error.find("first-byte timeout") != std::string::npos);
  CHECK(results[0].fetch_ms < 3000);
  CHECK(results[1].status == 200);
}

TEST_CASE("a server that trickles its answer hits the total time limit", "[unit]") {
  const std::string body(2000, 'x');
  TestServer server([&body](const Request&) -> Reply {
    Reply reply{Response(200, body), false, false};
    reply.trickle = 5ms;  // a byte every 5 ms: each read succeeds, the whole takes > 10 s
    return reply;
  });
  FetcherOptions options = TestOptions();
  options.first_byte_timeout = 2000ms;
  options.request_timeout = 400ms;
  auto results = FetchAll(options, {server.base() + "/trickle"});
  CHECK(results[0].status == crawl::kTimeout);
  CHECK(results[0].error.find("total time limit") != std::string::npos);
  CHECK(results[0].body.empty());
}

// Slowloris: the first byte comes at once, then the header
// trickles and never ends; the total limit ends it while the header is read.
TEST_CASE("a header that trickles forever (slowloris) hits the total time limit", "[unit]") {
  TestServer server([](const Request&) -> Reply {
    Reply reply{"HTTP/1.1 200 OK\r\nX-Slowloris: " + std::string(20'000, 'a'), false, false};
    reply.trickle = 5ms;  // 100 s for the whole header
    return reply;
  });
  FetcherOptions options = TestOptions();
  options.first_byte_timeout = 2000ms;
  options.request_timeout = 400ms;
  auto results = FetchAll(options, {server.base() + "/slow", server.base() + "/slow2"});
  for (const auto& r : results) {
    CHECK(r.status == crawl::kTimeout);
    CHECK(r.error.find("reading response header") != std::string::npos);
    CHECK(r.error.find("total time limit") != std::string::npos);
  }
}

TEST_CASE("a connect that does not complete hits the connect timeout", "[unit]") {
  // A listening socket whose backlog is full never completes the handshake
  // of further connections: the SYN is dropped.
  net::io_context ioc;
  tcp::acceptor acceptor(ioc);
  acceptor.open(tcp::v4());
  acceptor.bind(tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  acceptor.listen(0);
  const uint16_t port = acceptor.local_endpoint().port();
  // Raw non-blocking connects (Asio's connect would wait for the handshake).
  std::vector<int> fillers;
  for (int i = 0; i < 8; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    REQUIRE(fd >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    (void)::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    fillers.push_back(fd);
  }
  struct CloseAll {
    std::vector<int>& fds;
    ~CloseAll() {
      for (int fd : fds) ::close(fd);
    }
  } close_fillers{fillers};
  FetcherOptions options = TestOptions();
  options.connect_timeout = 300ms;
  options.request_timeout = 10'000ms;
  auto results = FetchAll(options, {"http://127.0.0.1:" + std::to_string(port) + "/"});
  CHECK(results[0].status == crawl::kTimeout);
  CHECK(results[0].error.find("connect timeout") != std::string::npos);
}

TEST_CASE("a close-delimited body over the range is cut and flagged", "[unit]") {
  const std::string body(2'500'000, 'b');
  TestServer server([&body](const Request&) -> Reply {
    return {"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n" + body, true, false};
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/big"});
  CHECK(results[0].status == 200);
  CHECK(results[0].truncated);
  CHECK(results[0].body.size() == 1'000'000);
}

TEST_CASE("a body of exactly the range size is not flagged truncated", "[unit]") {
  const std::string body(1'000'000, 'e');
  TestServer server([&body](const Request&) -> Reply { return {Response(200, body), false, false}; });
  auto results = FetchAll(TestOptions(), {server.base() + "/exact"});
  CHECK(results[0].status == 200);
  CHECK_FALSE(results[0].truncated);
  CHECK(results[0].body.size() == 1'000'000);
}

TEST_CASE("429 and 503 answers carry Retry-After in seconds", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    if (request.target() == "/429") return {Response(429, "slow down", "Retry-After: 120\r\n"), false, false};
    if (request.target() == "/503") {
      return {Response(503, "maintenance", "Retry-After: Fri, 31 Dec 2100 23:59:59 GMT\r\n"), false, false};
    }
    if (request.target() == "/bad") return {Response(503, "x", "Retry-After: soon\r\n"), false, false};
    // Retry-After on other statuses is not this field's business.
    return {Response(200, "ok", "Retry-After: 30\r\n"), false, false};
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/429", server.base() + "/503",
                                          server.base() + "/bad", server.base() + "/ok"});
  CHECK(results[0].status == 429);
  CHECK(results[0].retry_after_seconds == 120);
  CHECK(results[1].status == 503);
  CHECK(results[1].retry_after_seconds > 2'000'000'000u);  // about 74 years ahead
  CHECK(results[2].retry_after_seconds == 0);
  CHECK(results[3].retry_after_seconds == 0);
}

namespace {

// DecodeBody on `raw` sent with Content-Encoding `coding` and status 200.
FetchResult Decoded(std::string raw, std::string coding, uint64_t cap = 1'000'000) {
  FetchResult result;
  result.status = 200;
  result.content_encoding = std::move(coding);
  fe::DecodeBody(std::move(raw), cap, result);
  return result;
}

}  // namespace

TEST_CASE("DecodeBody keeps an identity body and decodes gzip, zlib and raw deflate", "[unit]") {
  const std::string text = "hello, hello, hello, decoded world";
  CHECK(Decoded(text, "").body == text);
  CHECK(Decoded(text, "identity").body == text);
  for (const char* coding : {"gzip", "x-gzip", " GZip "}) {
    auto r = Decoded(Compress(text, 15 + 16), coding);
    CHECK(r.status == 200);
    CHECK(r.body == text);
    CHECK_FALSE(r.truncated);
    CHECK(r.error.empty());
  }
  CHECK(Decoded(Compress(text, 15), "deflate").body == text);
  CHECK(Decoded(Compress(text, -15), "deflate").body == text);  // raw, as some servers send it
  // Concatenated gzip members (RFC 1952 2.2) are all decoded.
  CHECK(Decoded(Compress("one ", 15 + 16) + Compress("two", 15 + 16), "gzip").body == "one two");
}

TEST_CASE("DecodeBody cuts the decoded body at the cap and flags a short body", "[unit][policy]") {
  const std::string text(10'000, 'a');
  auto capped = Decoded(Compress(text, 15 + 16), "gzip", 100);
  CHECK(capped.status == 200);
  CHECK(capped.body == std::string(100, 'a'));
  CHECK(capped.truncated);
  CHECK(capped.error.find("cut at 100 bytes") != std::string::npos);
  // One byte over the cap, the stream ending on it, is still over the cap.
  auto one_over = Decoded(Compress(std::string(101, 'c'), 15 + 16), "gzip", 100);
  CHECK(one_over.body == std::string(100, 'c'));
  CHECK(one_over.truncated);
  auto exact = Decoded(Compress(std::string(100, 'c'), 15 + 16), "gzip", 100);
  CHECK(exact.body == std::string(100, 'c'));
  CHECK_FALSE(exact.truncated);

  const std::string gz = Compress(std::string(5000, 'b') + "tail", 15 + 16);
  auto early = Decoded(gz.substr(0, gz.size() / 2), "gzip");
  CHECK(early.status == 200);
  CHECK(early.truncated);
  CHECK(early.error == "compressed body ends early");
}

TEST_CASE("DecodeBody makes an unknown coding or corrupt data a body error", "[unit]") {
  auto unknown = Decoded("data", "br");
  CHECK(unknown.status == crawl::kBodyError);
  CHECK(unknown.error == "unsupported content-encoding 'br' (HTTP 200)");
  auto corrupt = Decoded("this is not gzip at all", "gzip");
  CHECK(corrupt.status == crawl::kBodyError);
  CHECK(corrupt.error.find("decoding gzip body (HTTP 200)") == 0);
}

TEST_CASE("the per-IP limiter grants slots in order as connections close", "[unit][policy]") {
  fe::IpConnectionLimiter limiter(2);
  const auto a = net::ip::make_address("192.0.2.1");
  const auto b = net::ip::make_address("192.0.2.2");
  std::vector<int> granted;
  CHECK(limiter.Acquire(a, [] {}));
  CHECK(limiter.Acquire(a, [] {}));
  CHECK_FALSE(limiter.Acquire(a, [&] { granted.push_back(1); }));
  CHECK_FALSE(limiter.Acquire(a, [&] { granted.push_back(2); }));
  CHECK(limiter.Acquire(b, [] {}));  // another address has its own slots
  limiter.Release(a);
  CHECK(granted == std::vector<int>{1});
  limiter.Release(a);
  CHECK(granted == std::vector<int>{1, 2});
  // The two granted slots close: a has room again.
  limiter.Release(a);
  limiter.Release(a);
  CHECK(limiter.Acquire(a, [] {}));
  limiter.Release(net::ip::make_address("192.0.2.3"));  // never acquired: ignored
}

TEST_CASE("a redirect is reported with its Location and never followed", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    if (request.target() == "/a") return {Response(301, "", "Location: /b\r\n"), false, false};
    if (request.target() == "/b") return {Response(302, "", "Location: /a\r\n"), false, false};  // a loop
    return EchoTarget(request);
  });
  auto results = FetchAll(TestOptions(), {server.base() + "/a", server.base() + "/b"});
  CHECK(results[0].status == 301);
  CHECK(results[0].location == "/b");
  CHECK(results[1].status == 302);
  CHECK(results[1].location == "/a");
  CHECK(server.requests().size() == 2);  // nothing followed: the loop is the queue's (URL-seen) business
}

// ---- DNS through c-ares (fetcher/http/dns_resolver.h) ----

// Fetches `urls` with a resolver that asks `dns` (loopback only).
static std::vector<FetchResult> FetchWithDns(const FetcherOptions& base_options, const DnsTestServer& dns,
                                             const std::vector<std::string>& urls) {
  net::io_context ioc;
  crawl::fetcher::DnsOptions dns_options;
  dns_options.servers = dns.servers();
  dns_options.try_timeout = 500ms;
  dns_options.tries = 1;
  auto resolver = crawl::fetcher::DnsResolver::Create(ioc, dns_options);
  REQUIRE(resolver.ok());
  // Declared after ioc: the resolver (timer, descriptors) goes before it.
  FetcherOptions options = base_options;
  options.resolver = *resolver;
  HttpFetcher fetcher(ioc, options);
  std::vector<FetchResult> results;
  fetcher.FetchSequence(
      urls, [&](FetchResult r) { results.push_back(std::move(r)); }, [] {});
  ioc.run();
  REQUIRE(results.size() == urls.size());
  return results;
}

TEST_CASE("a name resolved by DNS to a private address is refused unless allowed", "[unit][policy]") {
  TestServer server(EchoTarget);
  DnsTestServer dns;
  dns.Set("inside.test", {{"127.0.0.1"}, 60});
  dns.Set("mixed.test", {{"10.1.2.3", "169.254.0.1"}, 60});
  const std::string port = std::to_string(server.port());
  FetcherOptions options = TestOptions();
  options.allow_private = false;
  auto results =
      FetchWithDns(options, dns, {"http://inside.test:" + port + "/", "http://mixed.test:" + port + "/"});
  CHECK(results[0].status == crawl::kBlockedAddress);
  CHECK(results[0].error.find("127.0.0.1") != std::string::npos);
  CHECK(results[1].status == crawl::kBlockedAddress);
  CHECK(server.connections() == 0);

  options.allow_private = true;
  results = FetchWithDns(options, dns, {"http://inside.test:" + port + "/page"});
  CHECK(results[0].status == 200);
  CHECK(results[0].body == "page /page");
  CHECK(server.requests().back().host == "inside.test:" + port);
}

TEST_CASE("an unknown name is a DNS error for every URL of the host, asked once", "[unit]") {
  DnsTestServer dns;
  auto results = FetchWithDns(TestOptions(), dns, {"http://nowhere.test/a", "http://nowhere.test/b"});
  for (const auto& r : results) {
    CHECK(r.status == crawl::kDnsError);
    CHECK(r.error.find("nowhere.test") != std::string::npos);
  }
  CHECK(dns.Queries("nowhere.test") == 1);
}

TEST_CASE("the hosts file is consulted before DNS", "[unit]") {
  TestServer server(EchoTarget);
  DnsTestServer dns;
  dns.Set("override.test", {{"93.184.216.34"}, 60});  // would leave loopback: must not be used
  auto hosts = crawl::HostsFile::Parse("127.0.0.1:" + std::to_string(server.port()) + " override.test\n");
  REQUIRE(hosts.ok());
  FetcherOptions options = TestOptions();
  options.hosts_file = &*hosts;
  auto results = FetchWithDns(options, dns, {"http://override.test/x"});
  CHECK(results[0].status == 200);
  CHECK(dns.Queries("override.test") == 0);
}

TEST_CASE("max_connections_per_ip keeps hosts on one address from connecting at once", "[unit][policy]") {
  TestServer server([](const Request& request) -> Reply {
    Reply reply = EchoTarget(request);
    reply.delay = 100ms;  // long enough for requests of several hosts to interleave
    return reply;
  });
  const std::string port = std::to_string(server.port());
  auto hosts = crawl::HostsFile::Parse("127.0.0.1:" + port + " one.test\n127.0.0.1:" + port + " two.test\n" +
                                       "127.0.0.1:" + port + " three.test\n");
  REQUIRE(hosts.ok());
  auto run = [&](size_t per_ip) {
    net::io_context ioc;
    FetcherOptions options = TestOptions();
    options.hosts_file = &*hosts;
    options.max_connections_per_ip = per_ip;
    // Shorter than the wait of the third host for its turn (2 x 4 x 100 ms):
    // the wait for a slot must not count against the host's time limit.
    options.request_timeout = 600ms;
    HttpFetcher fetcher(ioc, options);
    int results = 0;
    for (const char* host : {"one", "two", "three"}) {
      std::vector<std::string> urls;
      for (int i = 0; i < 4; ++i)
        urls.push_back("http://" + std::string(host) + ".test/" + std::to_string(i));
      fetcher.FetchSequence(
          urls, [&](FetchResult r) { results += r.status == 200 ? 1 : 0; }, [] {});
    }
    ioc.run();
    CHECK(results == 12);
  };
  auto interleaved = [&](size_t first_request) {
    const auto requests = server.requests();
    // Connection ids in request order: without interleaving they never go
    // back to an earlier connection.
    for (size_t i = first_request + 1; i < requests.size(); ++i) {
      if (requests[i].connection != requests[i - 1].connection) {
        for (size_t j = i + 1; j < requests.size(); ++j) {
          if (requests[j].connection == requests[i - 1].connection) return true;
        }
      }
    }
    return false;
  };
  run(0);
  CHECK(interleaved(0));  // the control: three hosts, three connections at once
  const size_t before = server.requests().size();
  run(1);
  CHECK_FALSE(interleaved(before));
  CHECK(server.requests().size() == before + 12);
}

TEST_CASE("requests_in_flight counts requests between start and result", "[unit]") {
  TestServer server([](const Request& request) -> Reply {
    Reply reply = EchoTarget(request);
    reply.delay = 300ms;
    return reply;
  });
  net::io_context ioc;
  HttpFetcher fetcher(ioc, TestOptions());
  size_t max_seen = 0;
  int done = 0;
  for (int s = 0; s < 20; ++s) {
    fetcher.FetchSequence(
        {server.base() + "/" + std::to_string(s)},
        [&](FetchResult) { max_seen = std::max(max_seen, fetcher.requests_in_flight()); }, [&] { ++done; });
  }
  ioc.run();
  CHECK(done == 20);
  CHECK(max_seen >= 10);  // most were still out when the first answers came
  CHECK(fetcher.requests_in_flight() == 0);
}

TEST_CASE("a full result budget holds new requests until the consumer releases bodies", "[unit]") {
  TestServer server(EchoTarget);
  std::vector<std::string> urls;
  for (int i = 0; i < 5; ++i) urls.push_back(server.base() + "/p" + std::to_string(i));  // bodies of 8 bytes
  net::io_context ioc;
  HttpFetcher fetcher(ioc, TestOptions());
  auto budget = std::make_shared<fe::ResultBudget>(10);
  std::vector<FetchResult> results;
  int done = 0;
  fetcher.FetchSequence(
      urls, [&](FetchResult r) { results.push_back(std::move(r)); }, [&] { ++done; }, 0ms, budget);
  // 8 bytes held: under 10, a second request goes; 16 held: the third waits.
  ioc.run_for(500ms);
  REQUIRE(results.size() == 2);
  CHECK(results[1].body == "page /p1");
  CHECK(server.requests().size() == 2);
  CHECK(budget->held_bytes() == 16);
  CHECK(budget->waiting() == 1);
  CHECK(done == 0);
  // Releasing one body is not enough (8 < 10 lets one more start, then 16
  // again); releasing as they come lets the sequence finish.
  budget->Release(8);
  ioc.restart();
  ioc.run_for(500ms);
  REQUIRE(results.size() == 3);
  CHECK(budget->waiting() == 1);
  while (done == 0) {
    budget->Release(budget->held_bytes());
    ioc.restart();
    ioc.run_for(200ms);
  }
  REQUIRE(results.size() == 5);
  for (size_t i = 0; i < results.size(); ++i) CHECK(results[i].body == "page /p" + std::to_string(i));
  CHECK(server.requests().size() == 5);
  CHECK(server.connections() == 1);  // pausing kept the keep-alive connection
}

TEST_CASE("a sequence waiting for the result budget is cancelled at once", "[unit]") {
  TestServer server(EchoTarget);
  std::vector<std::string> urls;
  for (int i = 0; i < 4; ++i) urls.push_back(server.base() + "/p" + std::to_string(i));
  net::io_context ioc;
  HttpFetcher fetcher(ioc, TestOptions());
  auto budget = std::make_shared<fe::ResultBudget>(1);
  std::vector<FetchResult> results;
  int done = 0;
  fetcher.FetchSequence(
      urls, [&](FetchResult r) { results.push_back(std::move(r)); }, [&] { ++done; }, 0ms, budget);
  ioc.run_for(500ms);
  REQUIRE(results.size() == 1);
  REQUIRE(budget->waiting() == 1);
  fetcher.CancelAll();
  ioc.restart();
  ioc.run_for(500ms);
  CHECK(done == 1);
  REQUIRE(results.size() == 4);
  CHECK(results[0].status == 200);
  for (size_t i = 1; i < 4; ++i) CHECK(results[i].status == crawl::kCancelled);
  CHECK(server.requests().size() == 1);
  // The stale resume finds the sequence finished and does nothing.
  budget->Release(budget->held_bytes());
  ioc.restart();
  ioc.run_for(100ms);
  CHECK(results.size() == 4);
  CHECK(fetcher.active_sequences() == 0);
}
