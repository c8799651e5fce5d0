// Tests for the HTTP engine through a forward proxy (fetcher/http/http_fetcher.h
// "Forward proxy"): absolute-form requests with Proxy-Authorization, CONNECT
// tunnels then TLS, a refused CONNECT, no_proxy, names only the proxy knows,
// and remote_address naming the target, not the proxy.
#include "fetcher/http/dns_resolver.h"
#include "fetcher/http/http_fetcher.h"
#include "fetcher/http/proxy_config.h"
#include "tests/unit/fetcher/dns_test_server.h"
#include "tests/unit/fetcher/fetch_test_util.h"
#include "tests/unit/fetcher/test_http_server.h"
#include "tests/unit/fetcher/test_proxy.h"

// GCC 12 with -fsanitize=address reports a false -Wmaybe-uninitialized in
// Beast's request parser (boost::optional in basic_parser.hpp), used here by
// the test server only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/crawl/fetch_error.h"
#include "common/net/hosts_file.h"

namespace {

using namespace std::chrono_literals;
using crawl::fetcher::FetcherOptions;
using crawl::fetcher::FetchResult;
using crawl::fetcher::HttpFetcher;
using crawl::fetcher::NoProxyList;
using crawl::fetcher::ProxyEndpoint;

using namespace crawl::fetcher::testing;  // NOLINT: test helpers

// "Basic " + base64("user:s3cret").
constexpr const char* kAuthorization = "Basic dXNlcjpzM2NyZXQ=";

Reply EchoTarget(const Request& request) {
  return {Response(200, "page " + std::string(request.target())), false, false};
}

// Options that send http and https through `proxy` with the credentials.
FetcherOptions ProxiedOptions(const TestProxy& proxy) {
  FetcherOptions options = TestOptions();
  ProxyEndpoint endpoint{"127.0.0.1", proxy.port(), kAuthorization};
  options.proxy.http = endpoint;
  options.proxy.https = endpoint;
  return options;
}

// Fetches `urls` with a resolver that asks `dns` (loopback only).
std::vector<FetchResult> FetchWithDns(const FetcherOptions& base_options, const DnsTestServer& dns,
                                      const std::vector<std::string>& urls) {
  boost::asio::io_context ioc;
  crawl::fetcher::DnsOptions dns_options;
  dns_options.servers = dns.servers();
  dns_options.try_timeout = 500ms;
  dns_options.tries = 1;
  auto resolver = crawl::fetcher::DnsResolver::Create(ioc, dns_options);
  REQUIRE(resolver.ok());
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

}  // namespace

TEST_CASE("http through a proxy: absolute-form target, the URL's Host, Proxy-Authorization",
          "[unit][proxy]") {
  TestServer server(EchoTarget);
  TestProxy proxy(server.port(), kAuthorization);
  const std::string up = std::to_string(server.port());
  auto hosts = crawl::HostsFile::Parse("127.0.0.1:" + up + " www.a.test\n");
  REQUIRE(hosts.ok());
  FetcherOptions options = ProxiedOptions(proxy);
  options.hosts_file = &*hosts;
  auto results = FetchAll(options, {"http://www.a.test/a?q=1", "http://www.a.test/b"});
  INFO(results[0].error);
  CHECK(results[0].status == 200);
  CHECK(results[1].status == 200);
  // The hosts file placed the host: the proxy is asked for that address.
  CHECK(results[0].body == "page http://127.0.0.1:" + up + "/a?q=1");
  CHECK(results[1].body == "page http://127.0.0.1:" + up + "/b");
  // One proxy connection for the host, kept alive.
  REQUIRE(proxy.seen().size() == 1);
  CHECK(proxy.seen()[0].method == "GET");
  CHECK(proxy.seen()[0].target == "http://127.0.0.1:" + up + "/a?q=1");
  CHECK(proxy.seen()[0].host == "www.a.test");
  CHECK(proxy.seen()[0].authorization == kAuthorization);
  CHECK(server.requests()[0].host == "www.a.test");
  // Politeness counts the target's address, not the proxy's.
  CHECK(results[0].remote_address == "127.0.0.1:" + up);
}

TEST_CASE("http through a proxy: a name resolved by DNS is asked by name", "[unit][proxy]") {
  TestServer server(EchoTarget);
  TestProxy proxy(server.port());
  DnsTestServer dns;
  dns.Set("named.test", {{"127.0.0.9"}, 60});
  auto results = FetchWithDns(ProxiedOptions(proxy), dns, {"http://named.test:8080/x"});
  INFO(results[0].error);
  CHECK(results[0].status == 200);
  REQUIRE(proxy.seen().size() == 1);
  CHECK(proxy.seen()[0].target == "http://named.test:8080/x");
  CHECK(proxy.seen()[0].host == "named.test:8080");
  CHECK(results[0].remote_address == "127.0.0.9:8080");
}

TEST_CASE("http through a proxy: a name the fetcher cannot resolve goes on by name", "[unit][proxy]") {
  TestServer server(EchoTarget);
  TestProxy proxy(server.port());
  DnsTestServer dns;  // knows nothing: NXDOMAIN
  auto results =
      FetchWithDns(ProxiedOptions(proxy), dns, {"http://only.proxy.test/p", "http://only.proxy.test/q"});
  INFO(results[0].error);
  CHECK(results[0].status == 200);
  CHECK(results[1].status == 200);
  CHECK(results[0].body == "page http://only.proxy.test/p");
  CHECK(results[0].remote_address == "only.proxy.test:80");

  // Without a proxy the same is a DNS error.
  auto direct = FetchWithDns(TestOptions(), dns, {"http://only.proxy.test/p"});
  CHECK(direct[0].status == crawl::kDnsError);
}

TEST_CASE("through a proxy the address policy still applies to the target", "[unit][proxy]") {
  TestServer server(EchoTarget);
  TestProxy proxy(server.port());
  DnsTestServer dns;
  dns.Set("inside.test", {{"10.1.2.3"}, 60});
  FetcherOptions options = ProxiedOptions(proxy);
  options.allow_private = false;
  auto results = FetchWithDns(options, dns, {"http://inside.test/"});
  CHECK(results[0].status == crawl::kBlockedAddress);
  CHECK(proxy.seen().empty());
}

TEST_CASE("http through a proxy never speaks h2 prior knowledge", "[unit][proxy]") {
  TestServer server(EchoTarget);  // HTTP/1.1 only
  TestProxy proxy(server.port());
  FetcherOptions options = ProxiedOptions(proxy);
  options.h2_prior_knowledge = true;
  auto results = FetchAll(options, {"http://127.0.0.1:" + std::to_string(server.port()) + "/h"});
  INFO(results[0].error);
  CHECK(results[0].status == 200);
  REQUIRE(proxy.seen().size() == 1);
  CHECK(proxy.seen()[0].method == "GET");
}

TEST_CASE("no_proxy hosts go direct", "[unit][proxy]") {
  TestServer server(EchoTarget);
  TestProxy proxy(server.port());
  auto hosts = crawl::HostsFile::Parse("127.0.0.1:" + std::to_string(server.port()) + " www.a.test\n");
  REQUIRE(hosts.ok());
  FetcherOptions options = ProxiedOptions(proxy);
  options.hosts_file = &*hosts;
  options.proxy.no_proxy = NoProxyList::Parse(".a.test");
  auto results = FetchAll(options, {"http://www.a.test/d"});
  CHECK(results[0].status == 200);
  CHECK(results[0].body == "page /d");
  CHECK(proxy.seen().empty());
}

TEST_CASE("https through a proxy: CONNECT with credentials, then TLS in the tunnel", "[unit][proxy]") {
  const Certificate certificate = MakeSelfSigned("www.tls.test");
  auto context = ServerContext(certificate);
  TestServer server(EchoTarget, context.get());
  TestProxy proxy(server.port(), kAuthorization);
  const std::string up = std::to_string(server.port());
  auto hosts = crawl::HostsFile::Parse("127.0.0.1:" + up + " www.tls.test\n");
  REQUIRE(hosts.ok());
  FetcherOptions options = ProxiedOptions(proxy);
  options.hosts_file = &*hosts;
  options.accept_self_signed = true;
  auto results = FetchAll(options, {"https://www.tls.test/a", "https://www.tls.test/b"});
  INFO(results[0].error);
  CHECK(results[0].status == 200);
  CHECK(results[0].body == "page /a");  // origin-form inside the tunnel
  CHECK(results[1].body == "page /b");
  REQUIRE(proxy.seen().size() == 1);
  CHECK(proxy.seen()[0].method == "CONNECT");
  CHECK(proxy.seen()[0].target == "127.0.0.1:" + up);
  CHECK(proxy.seen()[0].host == "127.0.0.1:" + up);
  CHECK(proxy.seen()[0].authorization == kAuthorization);
  CHECK(server.requests()[0].host == "www.tls.test");
  CHECK(server.connections() == 1);
  CHECK(results[0].remote_address == "127.0.0.1:" + up);
}

TEST_CASE("https through a proxy: the certificate is still verified", "[unit][proxy]") {
  const Certificate certificate = MakeSelfSigned("www.tls.test");
  auto context = ServerContext(certificate);
  TestServer server(EchoTarget, context.get());
  TestProxy proxy(server.port());
  auto hosts = crawl::HostsFile::Parse("127.0.0.1:" + std::to_string(server.port()) + " www.tls.test\n");
  REQUIRE(hosts.ok());
  FetcherOptions options = ProxiedOptions(proxy);
  options.hosts_file = &*hosts;
  auto results = FetchAll(options, {"https://www.tls.test/a"});
  CHECK(results[0].status == crawl::kTlsError);
  REQUIRE(proxy.seen().size() == 1);
  CHECK(proxy.seen()[0].method == "CONNECT");
}

TEST_CASE("a CONNECT refused with 407 fails the URL without the credentials in the error", "[unit][proxy]") {
  const Certificate certificate = MakeSelfSigned("www.tls.test");
  auto context = ServerContext(certificate);
  TestServer server(EchoTarget, context.get());
  TestProxy proxy(server.port(), "Basic b3RoZXI6Y3JlZHM=");  // wants other credentials
  auto hosts = crawl::HostsFile::Parse("127.0.0.1:" + std::to_string(server.port()) + " www.tls.test\n");
  REQUIRE(hosts.ok());
  FetcherOptions options = ProxiedOptions(proxy);
  options.hosts_file = &*hosts;
  options.accept_self_signed = true;
  auto results = FetchAll(options, {"https://www.tls.test/a", "https://www.tls.test/b"});
  for (const auto& r : results) {
    CHECK(r.status == crawl::kProxyError);
    CHECK(r.error.find("proxy refused CONNECT: 407 Proxy Authentication Required") != std::string::npos);
    CHECK(r.error.find("dXNlcjpzM2NyZXQ") == std::string::npos);
    CHECK(r.error.find("s3cret") == std::string::npos);
    CHECK(r.error.find("Basic") == std::string::npos);
  }
  CHECK(server.connections() == 0);
  CHECK(std::string(crawl::FetchErrorName(crawl::kProxyError)) == "proxy_error");
}

TEST_CASE("a proxy that does not answer is a proxy error naming it", "[unit][proxy]") {
  FetcherOptions options = TestOptions();
  const uint16_t closed = ClosedPort();
  options.proxy.http = ProxyEndpoint{"127.0.0.1", closed, kAuthorization};
  auto results = FetchAll(options, {"http://127.0.0.1:1/x"});
  CHECK(results[0].status == crawl::kProxyError);
  CHECK(results[0].error.find("proxy 127.0.0.1:" + std::to_string(closed)) != std::string::npos);
  CHECK(results[0].error.find("Basic") == std::string::npos);
}
