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

}  // namespace
}  // namespace crawl::testweb
