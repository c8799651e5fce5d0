// Tests for the generated robots.txt rules (tests/testweb/robots_rules.h).
#include "tests/testweb/robots_rules.h"

#include <catch2/catch.hpp>

namespace crawl::testweb {
namespace {

// RFC 9309 section 2.2.1: a crawler obeys the group naming it, else "*".
TEST_CASE("the group naming the agent wins over the star group", "[unit][rfc9309]") {
  const RobotsRules rules({{{"ExampleBot"}, {"/"}}, {{"*"}, {"/private/"}}});
  CHECK_FALSE(rules.Allows("ExampleBot", "/"));
  CHECK_FALSE(rules.Allows("examplebot", "/a.html"));
  CHECK(rules.Allows("*", "/a.html"));
  CHECK(rules.Allows("OtherBot", "/a.html"));
  CHECK_FALSE(rules.Allows("OtherBot", "/private/p1.html"));
}

// RFC 9309 section 2.2.2: rules match path prefixes; an empty Disallow allows all.
TEST_CASE("disallow is a prefix match and an empty disallow allows everything", "[unit][rfc9309]") {
  const RobotsRules rules({{{"*"}, {"/private/"}}});
  CHECK(rules.Allows("*", "/"));
  CHECK(rules.Allows("*", "/private"));
  CHECK_FALSE(rules.Allows("*", "/private/"));
  CHECK_FALSE(rules.Allows("*", "/private/a/p3.html"));
  const RobotsRules open({{{"*"}, {""}}});
  CHECK(open.Allows("*", "/private/x"));
  CHECK(RobotsRules().Allows("*", "/anything"));
}

TEST_CASE("rules render as robots.txt text", "[unit]") {
  CHECK(RobotsRules({{{"*"}, {"/private/"}}}).Render() == "User-agent: *\nDisallow: /private/\n");
  CHECK(RobotsRules({{{"*"}, {""}}}).Render() == "User-agent: *\nDisallow:\n");
  CHECK(RobotsRules({{{"ExampleBot"}, {"/"}}, {{"*"}, {"/private/"}}}).Render() ==
        "User-agent: ExampleBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n");
}

// RFC 9309 section 2.2.3: "*" matches any characters, "$" ends the pattern.
TEST_CASE("wildcards and end anchors match as RFC 9309 says", "[unit][rfc9309]") {
  CHECK(RobotsRules::Matches("/*?sessionid=", "/a/p1.html?sessionid=abc"));
  CHECK_FALSE(RobotsRules::Matches("/*?sessionid=", "/a/p1.html?utm_source=x"));
  CHECK(RobotsRules::Matches("/files/*.pdf$", "/files/3.pdf"));
  CHECK_FALSE(RobotsRules::Matches("/files/*.pdf$", "/files/3.pdf?x=1"));
  CHECK_FALSE(RobotsRules::Matches("/files/*.pdf$", "/files/3.png"));
  CHECK(RobotsRules::Matches("/", "/anything"));
  CHECK(RobotsRules::Matches("/a*b*c", "/axxbyyc/zz"));
  CHECK_FALSE(RobotsRules::Matches("/a*b*c$", "/axxbyyc/zz"));
  CHECK(RobotsRules::Matches("*", ""));
}

// RFC 9309 section 2.2.2: the longest match wins; Allow wins a tie.
TEST_CASE("the most specific rule wins and allow wins ties", "[unit][rfc9309]") {
  const RobotsRules rules(
      {{{"*"}, {"/calendar/", "/files/*.pdf$", "/same"}, {"/calendar/2026/", "/files/1.pdf$", "/same"}}});
  CHECK_FALSE(rules.Allows("*", "/calendar/2025/01/"));
  CHECK(rules.Allows("*", "/calendar/2026/01/"));
  CHECK_FALSE(rules.Allows("*", "/files/2.pdf"));
  CHECK(rules.Allows("*", "/files/1.pdf"));
  CHECK(rules.Allows("*", "/same"));
  CHECK(rules.Allows("*", "/robots.txt"));
}

// Crawl-delay is an extension (not RFC 9309): rendered after the group's rules.
TEST_CASE("allow lines and crawl-delay render and are read back per group", "[unit][policy]") {
  const RobotsRules rules({{{"ExampleBot"}, {"/"}}, {{"*"}, {"/private/"}, {"/private/open/"}, 1.5}});
  CHECK(rules.Render() ==
        "User-agent: ExampleBot\nDisallow: /\n\nUser-agent: *\nAllow: /private/open/\nDisallow: /private/\n"
        "Crawl-delay: 1.5\n");
  CHECK(rules.CrawlDelay("*") == 1.5);
  CHECK(rules.CrawlDelay("ExampleBot") == 0);
  CHECK(rules.CrawlDelay("other") == 1.5);
  CHECK(RobotsRules().CrawlDelay("*") == 0);
}

}  // namespace
}  // namespace crawl::testweb
