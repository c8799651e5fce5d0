// Forward proxy settings: proxy URLs, credentials, no_proxy matching and the
// environment as curl reads it (fetcher/http/proxy_config.h).
#include "fetcher/http/proxy_config.h"

#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "fetcher/fetcher_flags.h"

using crawl::fetcher::BasicProxyAuthorization;
using crawl::fetcher::LoadProxyAuthorization;
using crawl::fetcher::NoProxyList;
using crawl::fetcher::ParseProxyUrl;
using crawl::fetcher::ProxyFlags;
using crawl::fetcher::ProxyName;
using crawl::fetcher::ResolveProxySettings;

namespace {

// A fake environment.
struct Env {
  std::map<std::string, std::string> vars;
  const char* operator()(const char* name) const {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  }
};

std::string TempFile(const std::string& name, const std::string& content) {
  auto path = std::filesystem::temp_directory_path() / ("proxy_config_test_" + name);
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

}  // namespace

TEST_CASE("proxy url: host and port of http://HOST:PORT", "[unit][proxy]") {
  auto p = ParseProxyUrl("http://Proxy.Example:3128", "--proxy", false);
  REQUIRE(p.ok());
  CHECK(p->host == "proxy.example");
  CHECK(p->port == 3128);
  CHECK(p->authorization.empty());
  auto slash = ParseProxyUrl("http://10.1.2.3:8080/", "--proxy", false);
  REQUIRE(slash.ok());
  CHECK(slash->host == "10.1.2.3");
  auto v6 = ParseProxyUrl("http://[::1]:3128", "--proxy", false);
  REQUIRE(v6.ok());
  CHECK(v6->host == "::1");
  CHECK(ProxyName(*v6) == "[::1]:3128");
}

TEST_CASE("proxy url: the port defaults to 1080 as in curl", "[unit][proxy]") {
  auto p = ParseProxyUrl("http://proxy.example", "--proxy", false);
  REQUIRE(p.ok());
  CHECK(p->port == 1080);
}

TEST_CASE("proxy url: other schemes are refused", "[unit][proxy]") {
  for (const char* url : {"https://proxy:443", "socks5://proxy:1080", "socks5h://proxy:1080", "ftp://p:21"}) {
    auto p = ParseProxyUrl(url, "--proxy", false);
    REQUIRE_FALSE(p.ok());
    CHECK(p.status().message().find("not supported") != std::string::npos);
  }
}

TEST_CASE("proxy url: credentials in it are refused, pointing at the auth file, not echoed",
          "[unit][proxy]") {
  auto p = ParseProxyUrl("http://alice:s3cret@proxy:3128", "--proxy", false);
  REQUIRE_FALSE(p.ok());
  CHECK(p.status().message().find("--proxy-auth-file") != std::string::npos);
  CHECK(p.status().message().find("s3cret") == std::string::npos);
  CHECK(p.status().message().find("alice") == std::string::npos);
}

TEST_CASE("proxy url: --proxy needs the scheme, the environment may leave it out", "[unit][proxy]") {
  CHECK_FALSE(ParseProxyUrl("proxy:3128", "--proxy", false).ok());
  auto env = ParseProxyUrl("proxy:3128", "http_proxy", true);
  REQUIRE(env.ok());
  CHECK(env->host == "proxy");
  CHECK(env->port == 3128);
}

TEST_CASE("proxy url: bad ports, paths and hosts are errors naming the source", "[unit][proxy]") {
  for (const char* url :
       {"http://proxy:0", "http://proxy:65536", "http://proxy:12x", "http://proxy:", "http://proxy:3128/path",
        "http://", "http://[::1", "http://pro xy:1", "http://[nope]:1"}) {
    auto p = ParseProxyUrl(url, "https_proxy", true);
    INFO(url);
    REQUIRE_FALSE(p.ok());
    CHECK(p.status().message().rfind("https_proxy: ", 0) == 0);
  }
}

TEST_CASE("proxy credentials: Basic of user:password (RFC 7617)", "[unit][proxy]") {
  // RFC 7617 2's example.
  auto a = BasicProxyAuthorization("Aladdin:open sesame");
  REQUIRE(a.ok());
  CHECK(*a == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
  CHECK(*BasicProxyAuthorization("a:b") == "Basic YTpi");
  CHECK(*BasicProxyAuthorization("ab:") == "Basic YWI6");
  CHECK_FALSE(BasicProxyAuthorization("nocolon").ok());
  CHECK_FALSE(BasicProxyAuthorization(":password").ok());
  CHECK_FALSE(BasicProxyAuthorization("user:pa\x01ss").ok());
}

TEST_CASE("proxy auth file: one line, newline allowed; errors never show the content", "[unit][proxy]") {
  auto ok = LoadProxyAuthorization(TempFile("ok", "alice:s3cret\n"));
  REQUIRE(ok.ok());
  CHECK(*ok == "Basic YWxpY2U6czNjcmV0");
  auto crlf = LoadProxyAuthorization(TempFile("crlf", "alice:s3cret\r\n"));
  REQUIRE(crlf.ok());
  CHECK(*crlf == *ok);

  auto empty = LoadProxyAuthorization(TempFile("empty", ""));
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().message().find("empty") != std::string::npos);
  auto lines = LoadProxyAuthorization(TempFile("lines", "alice:s3cret\nbob:other\n"));
  REQUIRE_FALSE(lines.ok());
  CHECK(lines.status().message().find("s3cret") == std::string::npos);
  auto nocolon = LoadProxyAuthorization(TempFile("nocolon", "s3cret\n"));
  REQUIRE_FALSE(nocolon.ok());
  CHECK(nocolon.status().message().find("s3cret") == std::string::npos);
  auto missing = LoadProxyAuthorization("/nonexistent/proxy-auth");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message().find("cannot be read") != std::string::npos);
}

TEST_CASE("no_proxy: a name matches itself and its subdomains, with or without a dot", "[unit][proxy]") {
  auto list = NoProxyList::Parse("example.com, .internal.test ,Other.Org");
  CHECK(list.Matches("example.com"));
  CHECK(list.Matches("www.example.com"));
  CHECK(list.Matches("a.b.example.com"));
  CHECK(list.Matches("WWW.EXAMPLE.COM"));
  CHECK(list.Matches("example.com."));
  CHECK_FALSE(list.Matches("badexample.com"));
  CHECK_FALSE(list.Matches("example.com.evil"));
  CHECK(list.Matches("internal.test"));
  CHECK(list.Matches("db.internal.test"));
  CHECK(list.Matches("x.other.org"));
  CHECK_FALSE(list.Matches("example.org"));
}

TEST_CASE("no_proxy: '*' alone matches everything, empty matches nothing", "[unit][proxy]") {
  CHECK(NoProxyList::Parse("*").Matches("anything.example"));
  CHECK(NoProxyList::Parse("*").Matches("10.0.0.1"));
  CHECK(NoProxyList::Parse("").empty());
  CHECK_FALSE(NoProxyList::Parse("").Matches("example.com"));
  CHECK_FALSE(NoProxyList::Parse(" , ,").Matches("example.com"));
}

TEST_CASE("no_proxy: addresses and CIDR match address literals", "[unit][proxy]") {
  auto list = NoProxyList::Parse("127.0.0.1,10.0.0.0/8,192.168.1.0/24,::1,fd00::/8,[2001:db8::1]:443");
  CHECK(list.Matches("127.0.0.1"));
  CHECK_FALSE(list.Matches("127.0.0.2"));
  CHECK(list.Matches("10.200.3.4"));
  CHECK_FALSE(list.Matches("11.0.0.1"));
  CHECK(list.Matches("192.168.1.77"));
  CHECK_FALSE(list.Matches("192.168.2.1"));
  CHECK(list.Matches("::1"));
  CHECK(list.Matches("[::1]"));
  CHECK(list.Matches("fd12:3456::1"));
  CHECK_FALSE(list.Matches("fe80::1"));
  CHECK(list.Matches("2001:db8::1"));
  // Names are not resolved to match, and an IPv4 network holds no IPv6.
  CHECK_FALSE(list.Matches("localhost"));
  // A prefix of 0 holds every address of its family.
  CHECK(NoProxyList::Parse("0.0.0.0/0").Matches("203.0.113.9"));
  CHECK_FALSE(NoProxyList::Parse("0.0.0.0/0").Matches("2001:db8::9"));
}

TEST_CASE("no_proxy: ports are ignored, nonsense entries skipped", "[unit][proxy]") {
  auto list = NoProxyList::Parse("example.com:8080 10.0.0.1:80 10.0.0.0/99 name/8");
  CHECK(list.Matches("example.com"));
  CHECK(list.Matches("www.example.com"));
  CHECK(list.Matches("10.0.0.1"));
  CHECK_FALSE(list.Matches("10.0.0.2"));
  CHECK_FALSE(list.Matches("name"));
}

TEST_CASE("proxy settings: --proxy serves http and https and overrides the environment", "[unit][proxy]") {
  Env env{{{"http_proxy", "http://envproxy:1"}, {"https_proxy", "http://envproxy:2"}}};
  ProxyFlags flags;
  flags.proxy = "http://flagproxy:3128";
  auto s = ResolveProxySettings(flags, env);
  REQUIRE(s.ok());
  REQUIRE(s->For("http", "a.example"));
  CHECK(s->For("http", "a.example")->host == "flagproxy");
  CHECK(s->For("https", "a.example")->host == "flagproxy");
}

TEST_CASE("proxy settings: the environment as curl reads it", "[unit][proxy]") {
  SECTION("http_proxy for http, https_proxy for https") {
    Env env{{{"http_proxy", "http://h:1"}, {"https_proxy", "s:2"}}};
    auto s = ResolveProxySettings({}, env);
    REQUIRE(s.ok());
    CHECK(s->For("http", "x")->port == 1);
    CHECK(s->For("https", "x")->port == 2);
  }
  SECTION("HTTP_PROXY in upper case is not read (httpoxy), HTTPS_PROXY is") {
    Env env{{{"HTTP_PROXY", "http://h:1"}, {"HTTPS_PROXY", "http://s:2"}}};
    auto s = ResolveProxySettings({}, env);
    REQUIRE(s.ok());
    CHECK(s->For("http", "x") == nullptr);
    REQUIRE(s->For("https", "x") != nullptr);
    CHECK(s->For("https", "x")->port == 2);
  }
  SECTION("lower case wins over upper case") {
    Env env{{{"https_proxy", "http://lower:1"}, {"HTTPS_PROXY", "http://upper:2"}}};
    CHECK(ResolveProxySettings({}, env)->For("https", "x")->host == "lower");
  }
  SECTION("all_proxy for a scheme without its own") {
    Env env{{{"ALL_PROXY", "http://all:9"}, {"http_proxy", "http://h:1"}}};
    auto s = ResolveProxySettings({}, env);
    REQUIRE(s.ok());
    CHECK(s->For("http", "x")->host == "h");
    CHECK(s->For("https", "x")->host == "all");
  }
  SECTION("empty variables count as unset") {
    Env env{{{"http_proxy", ""}, {"all_proxy", ""}}};
    auto s = ResolveProxySettings({}, env);
    REQUIRE(s.ok());
    CHECK_FALSE(s->any());
  }
  SECTION("a bad variable is an error naming it") {
    Env env{{{"https_proxy", "socks5://s:1080"}}};
    auto s = ResolveProxySettings({}, env);
    REQUIRE_FALSE(s.ok());
    CHECK(s.status().message().rfind("https_proxy:", 0) == 0);
  }
}

TEST_CASE("proxy settings: no_proxy, NO_PROXY, and --no-proxy overriding both", "[unit][proxy]") {
  Env env{{{"http_proxy", "http://h:1"}, {"no_proxy", "intra.test"}, {"NO_PROXY", "other.test"}}};
  auto s = ResolveProxySettings({}, env);
  REQUIRE(s.ok());
  CHECK(s->For("http", "www.intra.test") == nullptr);
  CHECK(s->For("http", "www.other.test") != nullptr);

  Env upper{{{"http_proxy", "http://h:1"}, {"NO_PROXY", "other.test"}}};
  CHECK(ResolveProxySettings({}, upper)->For("http", "www.other.test") == nullptr);

  ProxyFlags flags;
  flags.no_proxy = "flag.test";
  auto f = ResolveProxySettings(flags, env);
  REQUIRE(f.ok());
  CHECK(f->For("http", "www.intra.test") != nullptr);
  CHECK(f->For("http", "www.flag.test") == nullptr);
  flags.no_proxy = "";  // given empty: nothing bypasses
  CHECK(ResolveProxySettings(flags, env)->For("http", "www.intra.test") != nullptr);
}

TEST_CASE("proxy settings: the auth file goes to every proxy and needs one", "[unit][proxy]") {
  ProxyFlags flags;
  flags.proxy = "http://p:3128";
  flags.auth_file = TempFile("settings", "u:p\n");
  auto s = ResolveProxySettings(flags, Env{});
  REQUIRE(s.ok());
  CHECK(s->http->authorization == "Basic dTpw");
  CHECK(s->https->authorization == "Basic dTpw");

  ProxyFlags no_proxy_at_all;
  no_proxy_at_all.auth_file = flags.auth_file;
  auto refused = ResolveProxySettings(no_proxy_at_all, Env{});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("no proxy") != std::string::npos);

  flags.auth_file = TempFile("settings_empty", "");
  CHECK_FALSE(ResolveProxySettings(flags, Env{}).ok());
}

TEST_CASE("fetcher flags: --proxy, --proxy-auth-file and --no-proxy reach the settings", "[unit][proxy]") {
  const std::string auth = TempFile("flags", "alice:s3cret\n");
  crawl::fetcher::FetcherFlags flags;
  CLI::App app;
  crawl::fetcher::AddFetcherFlags(app, flags);
  const char* argv[] = {
      "fetcher",           "--nameserver", "127.0.0.1:1", "--proxy", "http://p.example:3128",
      "--proxy-auth-file", auth.c_str(),   "--no-proxy",  "a.test"};
  app.parse(static_cast<int>(std::size(argv)), argv);
  Env env{{{"no_proxy", "b.test"}}};
  auto settings = crawl::fetcher::ProxySettingsFromFlags(flags, env);
  REQUIRE(settings.ok());
  REQUIRE(settings->For("https", "www.b.test") != nullptr);
  CHECK(settings->For("https", "www.b.test")->host == "p.example");
  CHECK(settings->For("http", "www.a.test") == nullptr);
  const std::string line = crawl::fetcher::DescribeProxies(*settings);
  CHECK(line ==
        "http via proxy p.example:3128 (with credentials), https via proxy p.example:3128 (with "
        "credentials), some hosts direct (no_proxy)");

  crawl::fetcher::FetcherFlags plain;
  CLI::App app2;
  crawl::fetcher::AddFetcherFlags(app2, plain);
  const char* argv2[] = {"fetcher", "--nameserver", "127.0.0.1:1"};
  app2.parse(static_cast<int>(std::size(argv2)), argv2);
  CHECK_FALSE(plain.proxy.no_proxy.has_value());  // the environment decides
  CHECK(crawl::fetcher::DescribeProxies(*crawl::fetcher::ProxySettingsFromFlags(plain, Env{})) ==
        "http direct, https direct");
}
