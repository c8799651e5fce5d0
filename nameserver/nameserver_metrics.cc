#include "nameserver/nameserver_metrics.h"

namespace crawl::nameserver {

NameServerMetrics::NameServerMetrics(prometheus::Registry& r)
    : queue_servers_up(metrics::GaugeFamily(r, "crawl_nameserver_queue_servers_up",
                                            "Queue servers heard from within the member timeout")
                           .Add({})),
      fetchers_up(metrics::GaugeFamily(r, "crawl_nameserver_fetchers_up",
                                       "Fetchers that polled within the member timeout")
                      .Add({})),
      crawl_pages_fetched(
          metrics::GaugeFamily(r, "crawl_nameserver_crawl_pages_fetched", "Pages fetched by the active crawl")
              .Add({})),
      crawl_frontier_urls(
          metrics::GaugeFamily(r, "crawl_nameserver_crawl_frontier_urls", "Frontier size of the active crawl")
              .Add({})),
      query_duration(
          metrics::HistogramFamily(r, "crawl_nameserver_query_duration_seconds",
                                   "Time to answer a Search: fan-out to the queue servers and merge")
              .Add({}, metrics::LatencyBuckets())) {}

NameServerMetrics& Metrics() {
  static auto* m = new NameServerMetrics(metrics::Registry());
  return *m;
}

}  // namespace crawl::nameserver
