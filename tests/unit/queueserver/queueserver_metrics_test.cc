// The queue server exports every metric at zero before its first event
// (common/base/metrics.h's rule): each labelled family with the labels known up
// front, the frontier with tier 0.
#include "queueserver/queueserver_metrics.h"

#include <catch2/catch.hpp>

#include "tests/unit/metrics_text.h"

using crawl::testing::Samples;

TEST_CASE("queue server metrics are exported at zero before any event", "[unit][metrics]") {
  prometheus::Registry registry;
  crawl::queueserver::QueueServerMetrics metrics(registry);
  const auto samples = Samples(crawl::metrics::Exposition(registry));
  for (const char* series : {
           "crawl_queueserver_schedules_total{event=\"leased\"}",
           "crawl_queueserver_schedules_total{event=\"expired\"}",
           "crawl_queueserver_leased_urls_total",
           "crawl_queueserver_batches_total{result=\"applied\",rpc=\"submit_results\"}",
           "crawl_queueserver_batches_total{result=\"duplicate\",rpc=\"submit_results\"}",
           "crawl_queueserver_batches_total{result=\"error\",rpc=\"submit_results\"}",
           "crawl_queueserver_batches_total{result=\"applied\",rpc=\"add_urls\"}",
           "crawl_queueserver_batches_total{result=\"duplicate\",rpc=\"add_urls\"}",
           "crawl_queueserver_batches_total{result=\"error\",rpc=\"add_urls\"}",
           "crawl_queueserver_frontier_urls{tier=\"0\"}",
           "crawl_queueserver_urls_seen",
           "crawl_queueserver_refused_urls{reason=\"cld_budget\"}",
           "crawl_queueserver_refused_urls{reason=\"trap_rules\"}",
           "crawl_queueserver_due_pages",
           "crawl_queueserver_revisits{event=\"entered\"}",
           "crawl_queueserver_revisits{event=\"unchanged\"}",
           "crawl_queueserver_revisits{event=\"changed\"}",
           "crawl_queueserver_index_documents",
           "crawl_queueserver_index_pages{event=\"replaced\"}",
           "crawl_queueserver_index_pages{event=\"removed\"}",
           "crawl_queueserver_index_documents_compacted",
       }) {
    INFO(series);
    REQUIRE(samples.count(series) == 1);
    CHECK(samples.at(series) == "0");
  }
}

TEST_CASE("a batch is counted under its rpc and result", "[unit][metrics]") {
  prometheus::Registry registry;
  crawl::queueserver::QueueServerMetrics metrics(registry);
  metrics.Batch("add_urls", grpc::Status::OK, true);
  const auto samples = Samples(crawl::metrics::Exposition(registry));
  CHECK(samples.at("crawl_queueserver_batches_total{result=\"duplicate\",rpc=\"add_urls\"}") == "1");
  CHECK(samples.at("crawl_queueserver_batches_total{result=\"applied\",rpc=\"add_urls\"}") == "0");
}
