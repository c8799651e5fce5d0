#include "fetcher/fetcher_metrics.h"

namespace crawl::fetcher {

FetcherMetrics::FetcherMetrics(prometheus::Registry& registry)
    : pages(metrics::CounterFamily(registry, "crawl_fetcher_pages_total", "Fetches by status class")),
      bytes(metrics::CounterFamily(registry, "crawl_fetcher_bytes_total", "Body bytes received").Add({})),
      fetch_duration(metrics::HistogramFamily(registry, "crawl_fetcher_fetch_duration_seconds",
                                              "Time from request start to result")
                         .Add({}, metrics::LatencyBuckets())),
      in_flight(metrics::GaugeFamily(registry, "crawl_fetcher_in_flight", "Requests in flight").Add({})),
      pace(metrics::HistogramFamily(registry, "crawl_fetcher_pace_seconds",
                                    "Pacing gap chosen before each request to a host")
               .Add({}, metrics::LatencyBuckets())),
      pace_backoffs(
          metrics::CounterFamily(registry, "crawl_fetcher_pace_backoffs_total",
                                 "Slow-downs of a host's pacing caused by errors (5xx, 429, timeouts)")
              .Add({})),
      near_duplicate_probes(metrics::CounterFamily(registry, "crawl_fetcher_near_duplicate_probes_total",
                                                   "Fingerprint look-ups of shipped pages by outcome")) {
  metrics::AddSeries(pages, "class", {"1xx", "2xx", "3xx", "4xx", "5xx", "error"});
  metrics::AddSeries(near_duplicate_probes, "outcome", {"matched", "unmatched", "unreachable"});
}

void FetcherMetrics::Fetched(int status, double body_bytes, double seconds) {
  const char* klass = status < 0     ? "error"
                      : status < 200 ? "1xx"
                      : status < 300 ? "2xx"
                      : status < 400 ? "3xx"
                      : status < 500 ? "4xx"
                                     : "5xx";
  pages.Add({{"class", klass}}).Increment();
  bytes.Increment(body_bytes);
  fetch_duration.Observe(seconds);
}

void FetcherMetrics::Paced(double gap_seconds, bool backed_off) {
  pace.Observe(gap_seconds);
  if (backed_off) pace_backoffs.Increment();
}

FetcherMetrics& Metrics() {
  static auto* m = new FetcherMetrics(metrics::Registry());
  return *m;
}

}  // namespace crawl::fetcher
