// The name server's Prometheus metrics (names as deploy/grafana's dashboard
// expects), all registered at start at zero (the rule is in
// common/base/metrics.h).
#pragma once

#include "common/base/metrics.h"

namespace crawl::nameserver {

struct NameServerMetrics {
  // Registers every family in `registry`. The registry must outlive this.
  explicit NameServerMetrics(prometheus::Registry& registry);

  prometheus::Gauge& queue_servers_up;
  prometheus::Gauge& fetchers_up;
  prometheus::Gauge& crawl_pages_fetched;  // the active crawl's
  prometheus::Gauge& crawl_frontier_urls;  // the active crawl's
  prometheus::Histogram& query_duration;
};

// The process's metrics, on metrics::Registry(); built on first use.
[[nodiscard]] NameServerMetrics& Metrics();

}  // namespace crawl::nameserver
