// Prometheus metrics of one process (prometheus-cpp core): one registry per
// process, families created where they are counted, text exposition served
// by common/admin_http.h at /metrics. Metric names follow Prometheus
// conventions: crawl_<process>_<what>_<unit>, counters end in _total.
#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <string>

namespace crawl::metrics {

// The process-wide registry (created on first use, never destroyed).
[[nodiscard]] prometheus::Registry& Registry();

// The registry in Prometheus text format 0.0.4.
[[nodiscard]] std::string Exposition();

// Shorthands for families in the process registry.
[[nodiscard]] prometheus::Family<prometheus::Counter>& CounterFamily(const std::string& name,
                                                                     const std::string& help);
[[nodiscard]] prometheus::Family<prometheus::Gauge>& GaugeFamily(const std::string& name, const std::string& help);
[[nodiscard]] prometheus::Family<prometheus::Histogram>& HistogramFamily(const std::string& name,
                                                                         const std::string& help);

// Bucket boundaries for latencies in seconds, 1 ms to about 60 s.
[[nodiscard]] prometheus::Histogram::BucketBoundaries LatencyBuckets();

}  // namespace crawl::metrics
