// The name server's check of the recrawl parameters (CrawlParams 120-124,
// nameserver/service.h NormalizeParams): a bad policy, share or bounds from
// any client is refused with a clear error before a queue server sees it.
#include <catch2/catch.hpp>

#include "nameserver/service.h"

using crawl::nameserver::NormalizeParams;

TEST_CASE("revisit_policy is fixed, expires, adaptive, optimal or empty, anything else is refused by name",
          "[unit]") {
  for (const char* ok : {"", "fixed", "expires", "adaptive", "optimal"}) {
    crawl::v1::CrawlParams p;
    p.set_recrawl(true);
    p.set_revisit_policy(ok);
    CHECK(NormalizeParams(&p).ok());
  }
  crawl::v1::CrawlParams p;
  p.set_revisit_policy("sometimes");
  const auto st = NormalizeParams(&p);
  REQUIRE_FALSE(st.ok());
  CHECK(st.message().find("revisit_policy") != std::string::npos);
}

TEST_CASE("recrawl share, interval and bounds are checked", "[unit]") {
  crawl::v1::CrawlParams p;
  p.set_recrawl(true);
  p.set_recrawl_share_percent(100);
  p.set_revisit_interval_s(3600);
  p.set_revisit_bounds("60:86400");
  CHECK(NormalizeParams(&p).ok());
  crawl::v1::CrawlParams share;
  share.set_recrawl_share_percent(101);
  CHECK(NormalizeParams(&share).message().find("recrawl_share_percent") != std::string::npos);
  crawl::v1::CrawlParams interval;
  interval.set_revisit_interval_s(400 * 86'400);
  CHECK(NormalizeParams(&interval).message().find("revisit_interval_s") != std::string::npos);
  for (const char* bad : {"60", "0:10", "10:5", "a:b", "10:", ":10", "1:2:3", "-1:5"}) {
    crawl::v1::CrawlParams b;
    b.set_revisit_bounds(bad);
    const auto st = NormalizeParams(&b);
    REQUIRE_FALSE(st.ok());
    CHECK(st.message().find("revisit_bounds") != std::string::npos);
  }
}
