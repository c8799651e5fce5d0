// Company level domains (common/url/cld.h).
#include "common/url/cld.h"

#include <catch2/catch.hpp>

using crawl::CldRule;
using crawl::CompanyLevelDomain;

namespace {
std::string Cld(const std::string& host, CldRule rule = CldRule::kPublicSuffixList) {
  auto r = CompanyLevelDomain(host, rule);
  return r.ok() ? *r : "ERROR";
}
}  // namespace

TEST_CASE("the public suffix list gives the registrable domain", "[unit]") {
  CHECK(Cld("www.example.com") == "example.com");
  CHECK(Cld("a.b.example.co.uk") == "example.co.uk");
  CHECK(Cld("WWW.Example.COM.") == "example.com");
  CHECK(Cld("blog.x.test") == "x.test");  // unlisted TLD: the default "*" rule
  CHECK(Cld("www.site17.test") == "site17.test");
  CHECK(Cld("co.uk") == "co.uk");                  // a public suffix is its own CLD
  CHECK(Cld("foo.github.io") == "foo.github.io");  // private-section suffix
}

TEST_CASE("the simple rule keeps three labels after two two-letter labels", "[unit]") {
  CHECK(Cld("www.y.co.uk", CldRule::kSimple) == "y.co.uk");
  CHECK(Cld("a.b.example.com", CldRule::kSimple) == "example.com");
  CHECK(Cld("www.y.co.test", CldRule::kSimple) == "co.test");  // "test" is not two letters
  CHECK(Cld("example.com", CldRule::kSimple) == "example.com");
  CHECK(Cld("localhost", CldRule::kSimple) == "localhost");
}

TEST_CASE("ip literals are their own cld; bad hosts are errors", "[unit]") {
  CHECK(Cld("127.0.0.1") == "127.0.0.1");
  CHECK(Cld("[::1]") == "[::1]");
  CHECK_FALSE(CompanyLevelDomain("").ok());
  CHECK_FALSE(CompanyLevelDomain("a..b").ok());
  CHECK(crawl::ParseCldRule("simple").ok());
  CHECK_FALSE(crawl::ParseCldRule("nope").ok());
}
