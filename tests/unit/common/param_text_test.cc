#include "common/crawl/param_text.h"

#include <catch2/catch.hpp>

using crawl::SetParamFromText;

TEST_CASE("set-param parses values by the parameter's type", "[unit]") {
  crawl::v1::CrawlParams p;
  REQUIRE(SetParamFromText(&p, "max_pages", "12345").ok());
  CHECK(p.max_pages() == 12345);
  REQUIRE(SetParamFromText(&p, "fetch_timeout_ms", "2500").ok());
  CHECK(p.fetch_timeout_ms() == 2500);
  REQUIRE(SetParamFromText(&p, "allow_private_addresses", "yes").ok());
  CHECK(p.allow_private_addresses());
  REQUIRE(SetParamFromText(&p, "allow_private_addresses", "off").ok());
  CHECK_FALSE(p.allow_private_addresses());
  REQUIRE(SetParamFromText(&p, "user_agent", "mybot").ok());
  CHECK(p.user_agent() == "mybot");
}

TEST_CASE("set-param rejects unknown names and bad values clearly", "[unit]") {
  crawl::v1::CrawlParams p;
  auto s = SetParamFromText(&p, "no_such_param", "1");
  REQUIRE_FALSE(s.ok());
  CHECK(s.message() == "no crawl parameter 'no_such_param'");
  CHECK_FALSE(SetParamFromText(&p, "max_pages", "12x").ok());
  CHECK_FALSE(SetParamFromText(&p, "max_pages", "-1").ok());
  CHECK_FALSE(SetParamFromText(&p, "max_pages", "").ok());
  CHECK_FALSE(SetParamFromText(&p, "schedule_size", "99999999999").ok());  // over uint32
  CHECK_FALSE(SetParamFromText(&p, "allow_private_addresses", "maybe").ok());
  CHECK(p.max_pages() == 0);  // nothing half-set
}
