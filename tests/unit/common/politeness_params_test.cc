// Politeness defaults by scope and their checks (common/crawl/politeness_params.h).
#include "common/crawl/politeness_params.h"

#include <catch2/catch.hpp>

namespace crawl {
namespace {

TEST_CASE("an unscoped crawl gets address limits and adaptive pacing by default", "[unit][politeness]") {
  v1::CrawlParams p;
  REQUIRE(NormalizePoliteness(&p).ok());
  CHECK(p.max_connections_per_address() == 4);
  CHECK(p.address_gap_ms() == 10);
  CHECK(p.pacing() == "adaptive");
  CHECK(AdaptivePacing(p));
  CHECK(p.pace_factor_percent() == 200);
  CHECK(p.pace_floor_ms() == 10);
  CHECK(p.pace_ceiling_ms() == 30'000);
}

TEST_CASE("a crawl scoped to hosts keeps full speed unless asked", "[unit][politeness]") {
  v1::CrawlParams p;
  p.add_include_hosts("docs.example.org");
  REQUIRE(NormalizePoliteness(&p).ok());
  CHECK(p.max_connections_per_address() == 4);
  CHECK(p.address_gap_ms() == 0);
  CHECK(p.pacing() == "fixed");
  v1::CrawlParams asked;
  asked.add_include_hosts("docs.example.org");
  asked.set_pacing("adaptive");
  asked.set_address_gap_ms(25);
  REQUIRE(NormalizePoliteness(&asked).ok());
  CHECK(asked.pacing() == "adaptive");
  CHECK(asked.address_gap_ms() == 25);
}

TEST_CASE("an explicit zero gap or floor is kept, not defaulted", "[unit][politeness]") {
  v1::CrawlParams p;
  p.set_address_gap_ms(0);
  p.set_pace_floor_ms(0);
  REQUIRE(NormalizePoliteness(&p).ok());
  CHECK(p.address_gap_ms() == 0);
  CHECK(p.pace_floor_ms() == 0);
  v1::CrawlParams again = p;
  REQUIRE(NormalizePoliteness(&again).ok());
  CHECK(again.SerializeAsString() == p.SerializeAsString());
}

TEST_CASE("politeness settings out of range are refused with their name", "[unit][politeness]") {
  v1::CrawlParams pacing;
  pacing.set_pacing("fast");
  Status s = NormalizePoliteness(&pacing);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message().find("pacing") != std::string::npos);
  v1::CrawlParams floor;
  floor.set_pace_floor_ms(500);
  floor.set_pace_ceiling_ms(100);
  CHECK(NormalizePoliteness(&floor).message().find("pace_floor_ms") != std::string::npos);
  v1::CrawlParams conns;
  conns.set_max_connections_per_address(5000);
  CHECK(NormalizePoliteness(&conns).message().find("max_connections_per_address") != std::string::npos);
  v1::CrawlParams gap;
  gap.set_address_gap_ms(60'001);
  CHECK(!NormalizePoliteness(&gap).ok());
}

}  // namespace
}  // namespace crawl
