// URL canonicalisation and resolution (common/url.h), including the RFC 3986
// section 5.4 reference-resolution examples from ../shared/conformance.
#include "common/url.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <boost/json.hpp>

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
  CHECK_FALSE(Canonicalize("http:///nohost").ok());
  CHECK_FALSE(Canonicalize("").ok());
  CHECK_FALSE(Canonicalize("http://example.test:99999/").ok());
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
}

// RFC 3986 section 5.4; "http:g" uses the WHATWG / backward-compatible
// answer because a crawler resolves hrefs the way browsers do.
TEST_CASE("rfc 3986 reference resolution examples", "[unit][rfc3986]") {
  std::ifstream in(std::string(CRAWL_SHARED_DIR) + "/conformance/url/rfc3986_resolution.json");
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
