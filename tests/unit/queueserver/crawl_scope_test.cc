#include "queueserver/frontier/crawl_scope.h"

#include <catch2/catch.hpp>

#include "common/url/host_glob.h"

using crawl::HostGlobMatch;
using crawl::queueserver::CrawlScope;

TEST_CASE("host globs match whole hosts, star spans any run", "[unit]") {
  CHECK(HostGlobMatch("example.test", "example.test"));
  CHECK(HostGlobMatch("example.test", "EXAMPLE.test"));
  CHECK_FALSE(HostGlobMatch("example.test", "www.example.test"));
  CHECK(HostGlobMatch("*.example.test", "www.example.test"));
  CHECK(HostGlobMatch("*.example.test", "a.b.example.test"));
  CHECK_FALSE(HostGlobMatch("*.example.test", "example.test"));
  CHECK(HostGlobMatch("www.site*.test", "www.site12.test"));
  CHECK(HostGlobMatch("*", "anything"));
  CHECK_FALSE(HostGlobMatch("a*b*c", "aXbY"));
  // Pathological pattern stays fast (no exponential backtracking).
  CHECK_FALSE(HostGlobMatch("*a*a*a*a*a*a*a*a*b", std::string(200, 'a')));
}

TEST_CASE("crawl scope applies depth, include and exclude", "[unit]") {
  CrawlScope all;
  CHECK(all.unlimited());
  CHECK(all.Keeps("x.test", 1000));

  CrawlScope scope(3, {"*.site1.test", "site1.test"}, {"blog.site1.test"});
  CHECK(scope.Keeps("www.site1.test", 3));
  CHECK_FALSE(scope.Keeps("www.site1.test", 4));   // too deep
  CHECK_FALSE(scope.Keeps("www.site2.test", 1));   // not included
  CHECK_FALSE(scope.Keeps("blog.site1.test", 1));  // excluded wins
  CHECK(scope.Keeps("SITE1.test", 0));

  CrawlScope exclude_only(0, {}, {"*.ads.test"});
  CHECK(exclude_only.Keeps("www.site.test", 50));
  CHECK_FALSE(exclude_only.Keeps("x.ads.test", 1));
}

TEST_CASE("host patterns are checked", "[unit]") {
  using crawl::ValidateHostPatterns;
  CHECK(ValidateHostPatterns({"*.example.test", "a-b_c.test"}, "include_hosts").ok());
  CHECK_FALSE(ValidateHostPatterns({""}, "include_hosts").ok());
  CHECK_FALSE(ValidateHostPatterns({"http://x.test/"}, "include_hosts").ok());
  CHECK_FALSE(ValidateHostPatterns({std::string(300, 'a')}, "include_hosts").ok());
}
