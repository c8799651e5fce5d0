// The queue server's Prometheus families are there from the start: the
// Grafana dashboard (deploy/grafana) queries them, and a small crawl can end
// before the name server's first stats poll fills them.
#include <catch2/catch.hpp>

#include "common/base/clock.h"
#include "common/base/metrics.h"
#include "queueserver/service.h"

TEST_CASE("queue server exports its dashboard metrics before any crawl", "[queueserver][metrics]") {
  crawl::SystemClock clock;
  crawl::queueserver::QueueServerServiceImpl service("qs-metrics", &clock, nullptr);
  const std::string text = crawl::metrics::Exposition();
  CHECK(text.find("crawl_queueserver_frontier_urls{tier=\"0\"} 0") != std::string::npos);
  // Set by any queue server of the process (others run before this test
  // when the test binary runs whole): there, with some value.
  CHECK(text.find("\ncrawl_queueserver_urls_seen ") != std::string::npos);
  CHECK(text.find("crawl_queueserver_index_documents 0") != std::string::npos);
  CHECK(text.find("crawl_queueserver_index_documents_compacted 0") != std::string::npos);
  CHECK(text.find("crawl_queueserver_refused_urls{reason=\"cld_budget\"} 0") != std::string::npos);
  CHECK(text.find("crawl_queueserver_refused_urls{reason=\"trap_rules\"} 0") != std::string::npos);
}
