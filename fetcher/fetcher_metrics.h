// The fetcher's Prometheus metrics (names as deploy/grafana's dashboard
// expects), all registered at start with their known series at zero (the
// rule is in common/base/metrics.h).
#pragma once

#include "common/base/metrics.h"

namespace crawl::fetcher {

struct FetcherMetrics {
  // Registers every family in `registry`. The registry must outlive this.
  explicit FetcherMetrics(prometheus::Registry& registry);

  // Counts one fetch: its status (negative: a FetchError), body bytes and
  // duration. Thread-safe (prometheus-cpp metrics are atomic).
  void Fetched(int status, double body_bytes, double seconds);
  // Counts one request's pacing gap (FetchResult.pace_ms) and whether its
  // result made the host's pacing back off. Thread-safe.
  void Paced(double gap_seconds, bool backed_off);

  prometheus::Family<prometheus::Counter>& pages;  // class: 1xx..5xx, error
  prometheus::Counter& bytes;
  prometheus::Histogram& fetch_duration;
  prometheus::Gauge& in_flight;
  // The pacing gap chosen before each request (fetcher/http/host_pacer.h),
  // and the back-offs of adaptive pacing after a 5xx, 429, timeout or
  // network error. No per-host labels.
  prometheus::Histogram& pace;
  prometheus::Counter& pace_backoffs;
  // Fingerprint look-ups before shipping (fetcher/near_duplicate_probe.h),
  // by outcome: matched (a near-duplicate), unmatched, unreachable (the
  // owner did not answer: the page ships without a cluster).
  prometheus::Family<prometheus::Counter>& near_duplicate_probes;
};

// The process's metrics, on metrics::Registry(); built on first use.
[[nodiscard]] FetcherMetrics& Metrics();

}  // namespace crawl::fetcher
