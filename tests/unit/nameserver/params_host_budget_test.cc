// The name server's check of host_budget's crawl parameters (CrawlParams
// 90-95 and 116-119, nameserver/service.h NormalizeParams): a bad CLD rule from any
// client is refused with a clear error before a queue server sees it.
#include <catch2/catch.hpp>

#include "nameserver/service.h"

using crawl::nameserver::NormalizeParams;

TEST_CASE("cld_rule is psl, simple or empty, anything else is refused by name", "[unit]") {
  for (const char* ok : {"", "psl", "simple"}) {
    crawl::v1::CrawlParams p;
    p.set_cld_rule(ok);
    CHECK(NormalizeParams(&p).ok());
  }
  crawl::v1::CrawlParams p;
  p.set_cld_rule("registrable");
  const auto st = NormalizeParams(&p);
  REQUIRE_FALSE(st.ok());
  CHECK(st.message().find("cld_rule") != std::string::npos);
}

TEST_CASE("cld_budget_rule is in-clds, win or empty, anything else is refused by name", "[unit]") {
  for (const char* ok : {"", "in-clds", "win"}) {
    crawl::v1::CrawlParams p;
    p.set_cld_budget_rule(ok);
    CHECK(NormalizeParams(&p).ok());
  }
  crawl::v1::CrawlParams p;
  p.set_cld_budget_rule("pagerank");
  const auto st = NormalizeParams(&p);
  REQUIRE_FALSE(st.ok());
  CHECK(st.message().find("cld_budget_rule") != std::string::npos);
}

TEST_CASE("tier_rule is yioop, beast or empty, anything else is refused by name", "[unit]") {
  for (const char* ok : {"", "yioop", "beast"}) {
    crawl::v1::CrawlParams p;
    p.set_tier_rule(ok);
    CHECK(NormalizeParams(&p).ok());
  }
  crawl::v1::CrawlParams p;
  p.set_tier_rule("irlbot");
  const auto st = NormalizeParams(&p);
  REQUIRE_FALSE(st.ok());
  CHECK(st.message().find("tier_rule") != std::string::npos);
}
