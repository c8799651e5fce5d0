// The glob matcher shared by host globs (scope) and URL globs (structure
// order control rules).
#include "common/url/glob.h"

#include <catch2/catch.hpp>
#include <cctype>
#include <string>

#include "common/url/host_glob.h"
#include "common/url/url_glob.h"

TEST_CASE("glob: '*' matches any run, the rest itself, over the whole text", "[unit]") {
  CHECK(crawl::GlobMatch("*/calendar/*", "http://a.test/calendar/2026/", false));
  CHECK_FALSE(crawl::GlobMatch("*/calendar/*", "http://a.test/calendars", false));
  CHECK(crawl::GlobMatch("a*b*c", "aXXbYYc", false));
  CHECK_FALSE(crawl::GlobMatch("a*b*c", "aXXbYY", false));
  CHECK(crawl::GlobMatch("**", "", false));
  CHECK_FALSE(crawl::GlobMatch("", "x", false));
  // Many stars against a long miss stays fast (no exponential backtracking).
  CHECK_FALSE(crawl::GlobMatch("*a*a*a*a*a*a*a*a*b", std::string(5000, 'a'), false));
}

TEST_CASE("glob: hosts fold case, URLs do not", "[unit]") {
  CHECK(crawl::HostGlobMatch("*.Example.TEST", "www.example.test"));
  CHECK_FALSE(crawl::HostGlobMatch("*.example.test", "example.test"));
  CHECK(crawl::UrlGlobMatch("*/Docs/*", "http://a.test/Docs/x"));
  CHECK_FALSE(crawl::UrlGlobMatch("*/Docs/*", "http://a.test/docs/x"));
}

TEST_CASE("glob: case folding is ASCII's, for every pair of bytes", "[unit]") {
  // As std::tolower in the "C" locale: A-Z against a-z, every other byte
  // (0x80-0xFF included) only itself.
  int mismatches = 0;
  for (int a = 1; a < 256; ++a) {
    for (int b = 1; b < 256; ++b) {
      if (a == '*' || b == '*') continue;
      const std::string pa(1, static_cast<char>(a)), tb(1, static_cast<char>(b));
      const bool expected = std::tolower(a) == std::tolower(b);
      if (crawl::GlobMatch(pa, tb, true) != expected) ++mismatches;
      if (crawl::GlobMatch(pa, tb, false) != (a == b)) ++mismatches;
    }
  }
  CHECK(mismatches == 0);
}
