// The name server exports every metric at zero before its first event
// (common/base/metrics.h's rule).
#include "nameserver/nameserver_metrics.h"

#include <catch2/catch.hpp>

#include "tests/unit/metrics_text.h"

using crawl::testing::Samples;

TEST_CASE("name server metrics are exported at zero before any event", "[unit][metrics]") {
  prometheus::Registry registry;
  crawl::nameserver::NameServerMetrics metrics(registry);
  const auto samples = Samples(crawl::metrics::Exposition(registry));
  for (const char* series :
       {"crawl_nameserver_queue_servers_up", "crawl_nameserver_fetchers_up",
        "crawl_nameserver_crawl_pages_fetched", "crawl_nameserver_crawl_frontier_urls",
        "crawl_nameserver_query_duration_seconds_count", "crawl_nameserver_query_duration_seconds_sum"}) {
    INFO(series);
    REQUIRE(samples.count(series) == 1);
    CHECK(samples.at(series) == "0");
  }
}
