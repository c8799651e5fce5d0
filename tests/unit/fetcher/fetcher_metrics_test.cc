// The fetcher exports every metric at zero before its first fetch
// (common/base/metrics.h's rule), and counts a fetch under its status class.
#include "fetcher/fetcher_metrics.h"

#include <catch2/catch.hpp>

#include "tests/unit/metrics_text.h"

using crawl::testing::Samples;

TEST_CASE("fetcher metrics are exported at zero before any fetch", "[unit][metrics]") {
  prometheus::Registry registry;
  crawl::fetcher::FetcherMetrics metrics(registry);
  const auto samples = Samples(crawl::metrics::Exposition(registry));
  for (const char* series :
       {"crawl_fetcher_pages_total{class=\"1xx\"}", "crawl_fetcher_pages_total{class=\"2xx\"}",
        "crawl_fetcher_pages_total{class=\"3xx\"}", "crawl_fetcher_pages_total{class=\"4xx\"}",
        "crawl_fetcher_pages_total{class=\"5xx\"}", "crawl_fetcher_pages_total{class=\"error\"}",
        "crawl_fetcher_bytes_total", "crawl_fetcher_fetch_duration_seconds_count",
        "crawl_fetcher_fetch_duration_seconds_sum", "crawl_fetcher_in_flight"}) {
    INFO(series);
    REQUIRE(samples.count(series) == 1);
    CHECK(samples.at(series) == "0");
  }
}

TEST_CASE("a fetch is counted under its status class", "[unit][metrics]") {
  prometheus::Registry registry;
  crawl::fetcher::FetcherMetrics metrics(registry);
  metrics.Fetched(404, 512, 0.25);
  metrics.Fetched(-3, 0, 1);
  const auto samples = Samples(crawl::metrics::Exposition(registry));
  CHECK(samples.at("crawl_fetcher_pages_total{class=\"4xx\"}") == "1");
  CHECK(samples.at("crawl_fetcher_pages_total{class=\"error\"}") == "1");
  CHECK(samples.at("crawl_fetcher_pages_total{class=\"2xx\"}") == "0");
  CHECK(samples.at("crawl_fetcher_bytes_total") == "512");
  CHECK(samples.at("crawl_fetcher_fetch_duration_seconds_count") == "2");
}

TEST_CASE("the fetcher process registers its metrics in the process registry", "[unit][metrics]") {
  (void)crawl::fetcher::Metrics();
  const auto samples = Samples(crawl::metrics::Exposition());
  CHECK(samples.count("crawl_fetcher_pages_total{class=\"2xx\"}") == 1);
  CHECK(samples.count("crawl_fetcher_bytes_total") == 1);
}

TEST_CASE("pacing gaps are observed and error back-offs counted", "[unit][metrics]") {
  prometheus::Registry registry;
  crawl::fetcher::FetcherMetrics metrics(registry);
  auto samples = Samples(crawl::metrics::Exposition(registry));
  CHECK(samples.at("crawl_fetcher_pace_seconds_count") == "0");
  CHECK(samples.at("crawl_fetcher_pace_backoffs_total") == "0");
  metrics.Paced(0.2, false);
  metrics.Paced(0.4, true);
  samples = Samples(crawl::metrics::Exposition(registry));
  CHECK(samples.at("crawl_fetcher_pace_seconds_count") == "2");
  CHECK(samples.at("crawl_fetcher_pace_seconds_bucket{le=\"0.25\"}") == "1");
  CHECK(samples.at("crawl_fetcher_pace_backoffs_total") == "1");
}
