// URL canonicalisation and resolution (common/url/url.h), including the RFC 3986
// section 5.4 reference-resolution examples from tests/data/conformance.
#include "common/url/url.h"

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <sstream>

using crawl::url::Canonicalize;
using crawl::url::Resolve;

namespace {
std::string Canon(const std::string& in) {
  auto r = Canonicalize(in);
  return r.ok() ? *r : "ERROR";
}
}  // namespace

TEST_CASE("canonical form lower-cases, drops default ports and fragments", "[unit]") {
  CHECK(Canon("HTTP://Www.Example.TEST:80/a/./b/../c?q=1#frag") == "http://www.example.test/a/c?q=1");
  CHECK(Canon("https://example.test:443") == "https://example.test/");
  CHECK(Canon("http://example.test:8080/") == "http://example.test:8080/");
  CHECK(Canon("http://example.test/%7euser/%41") == "http://example.test/~user/A");
  CHECK(Canon("  http://example.test/a b\n") == "http://example.test/a%20b");
  CHECK(Canon("http://user:pw@example.test/") == "http://example.test/");
  CHECK(Canon("http://example.test/../../x") == "http://example.test/x");
}

TEST_CASE("only absolute http and https urls with a host are accepted", "[unit]") {
  CHECK_FALSE(Canonicalize("ftp://example.test/").ok());
  CHECK_FALSE(Canonicalize("mailto:someone@example.test").ok());
  CHECK_FALSE(Canonicalize("/relative/path").ok());
  CHECK_FALSE(Canonicalize("http://").ok());
  CHECK_FALSE(Canonicalize("http://user@/path").ok());
  CHECK_FALSE(Canonicalize("").ok());
  CHECK_FALSE(Canonicalize("http://example.test:99999/").ok());
}

// WHATWG (section 4.4, "special authority ignore slashes state"): any number
// of slashes or backslashes may precede the host of an http(s) URL. Before the
// WHATWG parser, "http:///nohost" was rejected as having an empty host.
TEST_CASE("extra slashes before the host are skipped as browsers do", "[unit]") {
  CHECK(Canon("http:///nohost") == "http://nohost/");
  CHECK(Canon("http:\\\\a.test\\b") == "http://a.test/b");
  CHECK(Canon("https:a.test/x") == "https://a.test/x");
}

TEST_CASE("hosts are mapped to ascii and ip literals normalised", "[unit]") {
  CHECK(Canon("http://B\xC3\xBC"
              "cher.Example/") == "http://xn--bcher-kva.example/");
  CHECK(Canon("http://0x7f.1/") == "http://127.0.0.1/");
  CHECK(Canon("http://[0:0:0:0:0:0:0:1]:8080/") == "http://[::1]:8080/");
  CHECK(Canon("http://a%2Eb.test/") == "http://a.b.test/");
  CHECK_FALSE(Canonicalize("http://a b.test/").ok());
  CHECK_FALSE(Canonicalize("http://a<b.test/").ok());
  CHECK_FALSE(Canonicalize("http://1.2.3.4.5/").ok());
  CHECK_FALSE(Canonicalize("http://example.test:8a/").ok());
}

TEST_CASE("percent-encoding is normalised without breaking the fixed point", "[unit]") {
  CHECK(Canon("http://a.test/%7e%2f%c3%a9?%41%3d") == "http://a.test/~%2F%C3%A9?A%3D");
  // A '%' that starts no triplet is a literal percent sign.
  CHECK(Canon("http://a.test/%zz%") == "http://a.test/%25zz%25");
  CHECK(Canon("http://a.test/operator%.html?a=5%") == "http://a.test/operator%25.html?a=5%25");
  CHECK(Canon("http://a.test/%%341") == "http://a.test/%2541");
  CHECK(Canon("http://a.test/.%2E/x/%2e") == "http://a.test/x/");
  for (const char* u : {"http://a.test/%%341", "http://a.test/%4%31?%%34%31"}) {
    const std::string once = Canon(u);
    CHECK(Canon(once) == once);
  }
}

TEST_CASE("a resolver parses its base once and resolves like resolve", "[unit]") {
  auto r = crawl::url::Resolver::ForBase("http://a.test/dir/page.html?x#f");
  REQUIRE(r.ok());
  CHECK(*r->Resolve("../up?q") == "http://a.test/up?q");
  CHECK(*r->Resolve("#top") == "http://a.test/dir/page.html?x");
  CHECK(*r->Resolve("//B.test") == "http://b.test/");
  CHECK_FALSE(r->Resolve("mailto:x@a.test").ok());
  CHECK_FALSE(crawl::url::Resolver::ForBase("/relative").ok());
}

TEST_CASE("canonical form is a fixed point", "[unit]") {
  for (const char* u : {"http://a.test/", "http://a.test/x/y.html?b=2&a=1", "https://a.test:8443/%C3%A9"}) {
    const std::string once = Canon(u);
    CHECK(Canon(once) == once);
  }
}

TEST_CASE("split gives the request target and effective port", "[unit]") {
  auto parts = crawl::url::Split("https://Example.test/a?b#c");
  REQUIRE(parts.ok());
  CHECK(parts->scheme == "https");
  CHECK(parts->host == "example.test");
  CHECK(parts->port == 443);
  CHECK(parts->target == "/a?b");
  CHECK(*crawl::url::RobotsUrlFor("http://a.test:81/x/y") == "http://a.test:81/robots.txt");
  auto v6 = crawl::url::Split("http://[::1]:8080?q");
  REQUIRE(v6.ok());
  CHECK(v6->host == "::1");
  CHECK(v6->port == 8080);
  CHECK(v6->target == "/?q");
  CHECK(*crawl::url::OriginOf("HTTPS://A.test:443/x") == "https://a.test");
}

// RFC 3986 section 5.4; "http:g" uses the WHATWG / backward-compatible
// answer because a crawler resolves hrefs the way browsers do.
TEST_CASE("rfc 3986 reference resolution examples", "[unit][rfc3986]") {
  std::ifstream in(std::string(CRAWL_CONFORMANCE_DIR) + "/url/rfc3986_resolution.json");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const auto doc = boost::json::parse(ss.str()).as_object();
  const std::string base(doc.at("base").as_string());
  int checked = 0;
  for (const char* section : {"normal", "abnormal"}) {
    for (const auto& v : doc.at(section).as_array()) {
      const auto& c = v.as_object();
      const std::string ref(c.at("ref").as_string());
      std::string expected(c.at("expected").as_string());
      if (c.contains("expected_backward_compatible"))
        expected = std::string(c.at("expected_backward_compatible").as_string());
      auto got = Resolve(base, ref);
      INFO("ref " << ref);
      if (expected.rfind("http:", 0) != 0) {
        CHECK_FALSE(got.ok());  // a crawler resolves only to http(s) URLs
      } else {
        REQUIRE(got.ok());
        CHECK(*got == *Canonicalize(expected));  // fragment dropped, "/" for an empty path
      }
      ++checked;
    }
  }
  CHECK(checked == 42);
}

// ---- tracking parameters (the list is justified in url.h) ----

namespace {
std::string Strip(const std::string& in,
                  const crawl::url::TrackingParams& tracking = crawl::url::TrackingParams::Default()) {
  auto r = Canonicalize(in, tracking);
  return r.ok() ? *r : "ERROR";
}
}  // namespace

TEST_CASE("default tracking parameters are removed, others kept in order", "[unit][policy]") {
  CHECK(Strip("http://a.test/p?utm_source=x&id=7&UTM_Medium=y&gclid=1&b=2") == "http://a.test/p?id=7&b=2");
  CHECK(Strip("http://a.test/p?fbclid=abc") == "http://a.test/p");  // nothing left: no '?'
  CHECK(Strip("http://a.test/p?msclkid=1&mc_cid=2&mc_eid=3&_ga=4&yclid=5&igshid=6") == "http://a.test/p");
  CHECK(Strip("http://a.test/p?PHPSESSID=1&jsessionid=2&q=x") == "http://a.test/p?q=x");
  CHECK(Strip("http://a.test/p5.html?sessionid=156e36640fab4cfc") == "http://a.test/p5.html");
  // Session ids in the path (Java servlets), any case.
  CHECK(Strip("http://a.test/shop;JSESSIONID=0AB12?item=4") == "http://a.test/shop?item=4");
  CHECK(Strip("http://a.test/a;jsessionid=1/b;v=2") == "http://a.test/a/b;v=2");
  // Percent-encoded names match after normalisation.
  CHECK(Strip("http://a.test/p?utm%5Fsource=x&k=1") == "http://a.test/p?k=1");
  // Generic names are deliberately kept, and a name is matched whole.
  CHECK(Strip("http://a.test/p?sid=1&ref=2&source=3&utm=4&xutm_source=5") ==
        "http://a.test/p?sid=1&ref=2&source=3&utm=4&xutm_source=5");
  // Values never match, only names; flags without '=' are names too.
  CHECK(Strip("http://a.test/p?q=utm_source&gclid") == "http://a.test/p?q=utm_source");
  // Untouched when nothing matches, even odd queries.
  CHECK(Strip("http://a.test/p?") == "http://a.test/p?");
  CHECK(Strip("http://a.test/p?a&&b") == "http://a.test/p?a&&b");
  CHECK(Strip("http://a.test/p?a&&utm_id=1&") == "http://a.test/p?a");
  CHECK(Strip("not a url") == "ERROR");
}

TEST_CASE("tracking removal is a fixed point and agrees with RemoveTrackingParams", "[unit]") {
  const auto& tracking = crawl::url::TrackingParams::Default();
  for (const char* in : {"http://a.test/p?utm_source=x&id=7", "http://a.test/;jsessionid=1?fbclid=2",
                         "http://a.test/p?a&&utm_id=1&", "https://B.test:443/x?gclid=1#frag"}) {
    const std::string once = Strip(in);
    CHECK(Strip(once) == once);
    auto canonical = Canonicalize(in);
    REQUIRE(canonical.ok());
    CHECK(crawl::url::RemoveTrackingParams(*canonical, tracking) == once);
  }
  // The one-argument form removes nothing.
  CHECK(Canon("http://a.test/p?utm_source=x") == "http://a.test/p?utm_source=x");
}

TEST_CASE("a crawl's own tracking list replaces the default", "[unit][policy]") {
  auto list = crawl::url::TrackingParams::FromList({"ref", "sess*"});
  REQUIRE(list.ok());
  CHECK(Strip("http://a.test/p?ref=1&utm_source=2&SESSION=3&sessid=4", *list) ==
        "http://a.test/p?utm_source=2");
  CHECK(Strip("http://a.test/p?utm_source=2", crawl::url::TrackingParams()) ==
        "http://a.test/p?utm_source=2");
  CHECK_FALSE(crawl::url::TrackingParams::FromList({""}).ok());
  CHECK_FALSE(crawl::url::TrackingParams::FromList({"*"}).ok());
  CHECK_FALSE(crawl::url::TrackingParams::FromList({"a=b"}).ok());
  CHECK_FALSE(crawl::url::TrackingParams::FromList({"u*m"}).ok());
}

TEST_CASE("FastOriginOf agrees with OriginOf whenever it answers", "[unit]") {
  using crawl::url::FastOriginOf;
  using crawl::url::OriginOf;
  // Plain canonical URLs take the fast path.
  for (const char* u :
       {"http://a.test/", "https://www.host12.example.test/p3?q=1", "http://a-b.c9.test:8080/x#y",
        "https://h.test:444/", "http://localhost/", "http://127.42.0.1:8080/a", "http://0.0.0.0/",
        "http://255.255.255.255/", "http://10.1.2.3/x", "http://h.test:65535/", "http://h.test:1/"}) {
    INFO(u);
    auto slow = OriginOf(u);
    REQUIRE(slow.ok());
    CHECK(FastOriginOf(u) == *slow);
  }
  // Anything the parser would rewrite or check is left to it.
  for (const char* u : {"http://A.test/",       "http://a.test:80/",   "https://a.test:443/",
                        "http://a.test",        "http://1.2.3/",       "http://01.2.3.4/",
                        "http://1.2.3.256/",    "http://1.2.3.4.5/",   "http://1.2.3.0x4/",
                        "http://1.2..4/",       "http://1234.2.3.4/",  "http://1.2.3.4a/",
                        "http://a.1.2.3/",      "http://a.0x7f/",      "http://xn--nxasmq6b.test/",
                        "http://u:p@a.test/",   "http://a..b/",        "http://a.test./",
                        "http://-a.test/",      "http://a.test:0080/", "http://a.test:99999/",
                        "http://a.test:65536/", "ftp://a.test/",       "http://a%41.test/",
                        "http://[::1]/",        "http://a.test:/"}) {
    INFO(u);
    CHECK(FastOriginOf(u).empty());
  }
  // Random authorities: a fast answer is always the parser's answer.
  std::mt19937 rng(9);
  const std::string chars = "abz09-.:A%@_x";
  int fast = 0;
  for (int k = 0; k < 20000; ++k) {
    std::string auth;
    const int n = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) auth.push_back(chars[rng() % chars.size()]);
    const std::string u = (rng() % 2 ? "http://" : "https://") + auth + "/p";
    const std::string_view f = FastOriginOf(u);
    if (f.empty()) continue;
    ++fast;
    INFO(u);
    auto slow = OriginOf(u);
    REQUIRE(slow.ok());
    CHECK(f == *slow);
  }
  CHECK(fast > 1000);
}

TEST_CASE("OriginMemo answers what FastOriginOf answers, URL after URL", "[unit]") {
  // Runs of one origin, origins that extend another ("a.test" and
  // "a.test.x", a port), and URLs that need a parse, in random order.
  const std::vector<std::string> urls = {"http://a.test/",
                                         "http://a.test/x?y",
                                         "http://a.test.x/",
                                         "http://a.test:8080/",
                                         "http://a.test:80/",
                                         "https://a.test/",
                                         "http://a.tes/",
                                         "http://a.test",
                                         "http://a.test?x/",
                                         "http://a.test#/",
                                         "http://A.test/",
                                         "http://b.test/p",
                                         "http://a.testb/",
                                         "http://127.0.0.1/x",
                                         "http://127.0.0.12/",
                                         "http://a.test:8080x/",
                                         "http://u@a.test/",
                                         "ftp://a.test/",
                                         "",
                                         "h"};
  std::mt19937 rng(4);
  crawl::url::OriginMemo memo;
  int hits = 0;
  std::string previous_origin;
  for (int k = 0; k < 20000; ++k) {
    // Mostly the same URL family as before, as a page's links are.
    const std::string& u = urls[rng() % 4 == 0 ? rng() % urls.size() : rng() % 3];
    INFO(u);
    const std::string_view fast = crawl::url::FastOriginOf(u);
    const std::string_view memo_origin = memo.Origin(u);
    CHECK(memo_origin == fast);
    // A view into the URL itself, as FastOriginOf's is.
    if (!memo_origin.empty()) CHECK(memo_origin.data() == u.data());
    std::string host(fast.empty() ? "" : fast.substr(fast.find("://") + 3));
    host = host.substr(0, host.find(':'));
    CHECK(memo.Host(u) == host);
    if (!fast.empty() && fast == previous_origin) ++hits;
    if (!fast.empty()) previous_origin = fast;
  }
  CHECK(hits > 5000);  // the memo's own path was taken
}

TEST_CASE("IsPlainCanonical says yes only to URLs the full parse leaves unchanged", "[unit]") {
  using crawl::url::IsPlainCanonical;
  // url::Resolve always parses: the oracle for Canonicalize's fast path.
  auto parsed = [](const std::string& u) { return crawl::url::Resolve("http://base.test/", u); };
  for (const char* u : {"http://a.test/", "https://www.host12.example.test/p3?q=1&r=%2F",
                        "http://a.test:8080/a/b;c=d/e.html?x=y?z", "http://a.test/%C3%A9t%E9",
                        "http://a.test/?", "http://a.test/a/.b/..c/", "http://a.test/x?/../y"}) {
    INFO(u);
    CHECK(IsPlainCanonical(u));
    auto slow = parsed(u);
    REQUIRE(slow.ok());
    CHECK(*slow == u);
  }
  for (const char* u :
       {"http://a.test", "http://A.test/", "http://a.test/%7e", "http://a.test/%41", "http://a.test/%2e",
        "http://a.test/%c3%a9", "http://a.test/a/./b", "http://a.test/a/../b", "http://a.test/..",
        "http://a.test/.?q", "http://a.test/a#f", "http://a.test/a b", "http://a.test/a\\b",
        "http://a.test/'", "http://a.test/%", "http://a.test/%4", "http://a.test/\xc3\xa9",
        "http://a.test/{x}", "http://a.test/a|b"}) {
    INFO(u);
    CHECK_FALSE(IsPlainCanonical(u));
  }
  // Random paths and queries over characters the parser treats every way.
  std::mt19937 rng(11);
  const std::string chars = "aZ09-._~!$&'()*+,;=:@/?%%%2e7EfF#\\ \"<>`{}|^[]\x01\x7f\xc3\xa9";
  const char* hosts[] = {"http://a.test", "https://b.c.test:8443", "http://A.test", "http://1.2.3.4",
                         "http://a.test:80"};
  int fast = 0;
  for (int k = 0; k < 40000; ++k) {
    std::string u = hosts[rng() % 5];
    u.push_back('/');
    const int n = static_cast<int>(rng() % 14);
    for (int i = 0; i < n; ++i) u.push_back(chars[rng() % chars.size()]);
    if (!IsPlainCanonical(u)) continue;
    ++fast;
    INFO(u);
    auto slow = parsed(u);
    REQUIRE(slow.ok());
    CHECK(*slow == u);
    CHECK(*crawl::url::Canonicalize(u) == u);
  }
  CHECK(fast > 2000);
}

TEST_CASE("HostOf answers as the full parse does, fast path or not", "[unit]") {
  using crawl::url::HostOf;
  using crawl::url::Split;
  auto parsed_host = [](const std::string& u) {
    auto parts = Split(u);
    return parts.ok() ? parts->host : std::string();
  };
  for (const char* u :
       {"http://a.test/", "https://www.host12.example.test/p3?q=1", "http://a-b.c9.test:8080/x#y",
        "http://A.test/", "http://a.test:80/", "http://1.2.3.4/", "http://a.0x7f/", "http://u:p@a.test/",
        "http://a.test./", "http://[::1]:8080/", "http://a.test/../b/./c", "http://a.test\\b.test/"}) {
    INFO(u);
    CHECK(HostOf(u) == parsed_host(u));
  }
  CHECK(HostOf("http://a-b.c9.test:8080/x#y") == "a-b.c9.test");
  CHECK(HostOf("http://127.42.0.1:8080/x") == "127.42.0.1");
  // Hosts made of number-like parts: dotted quads take the fast path only
  // when the parser would write them the same way.
  std::mt19937 numbers(5);
  const std::vector<std::string> parts{"0", "1", "01", "9", "10", "255", "256", "999", "0x1", "00", "1a", ""};
  int fast = 0;
  for (int k = 0; k < 20000; ++k) {
    std::string host;
    const int n = 1 + static_cast<int>(numbers() % 5);
    for (int i = 0; i < n; ++i) host += (i ? "." : "") + parts[numbers() % parts.size()];
    const std::string u = "http://" + host + "/p";
    INFO(u);
    CHECK(HostOf(u) == parsed_host(u));
    const std::string_view f = crawl::url::FastOriginOf(u);
    if (f.empty()) continue;
    ++fast;
    auto slow = crawl::url::OriginOf(u);
    REQUIRE(slow.ok());
    CHECK(f == *slow);
  }
  CHECK(fast > 100);
  CHECK(HostOf("not a url").empty());
  // Random authorities and paths.
  std::mt19937 rng(11);
  const std::string chars = "abz09-.:A%@_x/\\";
  for (int k = 0; k < 20000; ++k) {
    std::string auth;
    const int n = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) auth.push_back(chars[rng() % chars.size()]);
    const std::string u = (rng() % 2 ? "http://" : "https://") + auth + (rng() % 2 ? "/p/../q" : "/p");
    INFO(u);
    CHECK(HostOf(u) == parsed_host(u));
  }
}
