// The name server's check of the ScoringFilter settings at StartCrawl:
// the form filter.key=value, for a filter of the chain.
// Filter names, keys and values are the queue servers' to check.
#include <catch2/catch.hpp>

#include "nameserver/service.h"

namespace v1 = crawl::v1;

TEST_CASE("scoring params must be filter.key=value for a filter of the chain", "[unit]") {
  v1::CrawlParams p;
  p.set_order("bfs");
  p.set_scoring_filters("depth, link-kind");
  p.add_scoring_params("depth.weight=0.5");
  p.add_scoring_params("link-kind.nav=0.25");
  CHECK(crawl::nameserver::NormalizeParams(&p).ok());
  // Every order takes a chain now.
  p.set_order("structure");
  CHECK(crawl::nameserver::NormalizeParams(&p).ok());
  p.add_scoring_params("opic.score_power=0.5");
  auto s = crawl::nameserver::NormalizeParams(&p);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find("not in the scoring filter chain") != std::string::npos);
  // The opic order's default chain is opic.
  v1::CrawlParams o;
  o.set_order("opic");
  o.add_scoring_params("opic.score_power=0.5");
  CHECK(crawl::nameserver::NormalizeParams(&o).ok());
  o.add_scoring_params("score_power=1");
  CHECK(crawl::nameserver::NormalizeParams(&o).message().find("filter.key=value") != std::string::npos);
}
