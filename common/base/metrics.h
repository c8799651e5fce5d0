// Prometheus metrics of one process (prometheus-cpp core): one registry per
// process, text exposition served by common/net/admin_http.h at /metrics. Metric
// names follow Prometheus conventions: crawl_<process>_<what>_<unit>,
// counters end in _total.
//
// Every family a process exports is registered when the process starts,
// before /metrics answers, so an idle process already shows each series at
// zero (rate() and absent() alerts see the series from the first scrape, not
// from the first event):
//   - unlabelled families export their one series;
//   - labelled families export every label combination known up front
//     (status classes, outcomes, events, rpc names), each at zero;
//   - families whose labels are only known later (a tier number, a crawl)
//     export the series known at start (e.g. tier 0) and add the others as
//     they are seen.
// Each process keeps its families in one struct built on a registry
// (fetcher/fetcher_metrics.h, queueserver/queueserver_metrics.h,
// nameserver/nameserver_metrics.h): the process builds it on Registry() at
// start; a test builds it on a fresh registry and reads Exposition() of it.
#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <initializer_list>
#include <string>

namespace crawl::metrics {

// The process-wide registry (created on first use, never destroyed).
[[nodiscard]] prometheus::Registry& Registry();

// A registry in Prometheus text format 0.0.4 (the process's by default).
[[nodiscard]] std::string Exposition();
[[nodiscard]] std::string Exposition(const prometheus::Registry& registry);

// Shorthands for families in a registry (the process's by default).
[[nodiscard]] prometheus::Family<prometheus::Counter>& CounterFamily(const std::string& name,
                                                                     const std::string& help);
[[nodiscard]] prometheus::Family<prometheus::Gauge>& GaugeFamily(const std::string& name,
                                                                 const std::string& help);
[[nodiscard]] prometheus::Family<prometheus::Histogram>& HistogramFamily(const std::string& name,
                                                                         const std::string& help);
[[nodiscard]] prometheus::Family<prometheus::Counter>& CounterFamily(prometheus::Registry& registry,
                                                                     const std::string& name,
                                                                     const std::string& help);
[[nodiscard]] prometheus::Family<prometheus::Gauge>& GaugeFamily(prometheus::Registry& registry,
                                                                 const std::string& name,
                                                                 const std::string& help);
[[nodiscard]] prometheus::Family<prometheus::Histogram>& HistogramFamily(prometheus::Registry& registry,
                                                                         const std::string& name,
                                                                         const std::string& help);

// Creates the series label=value for each of `values` (at zero), so a
// labelled family is exported before its first event.
template <typename T>
void AddSeries(prometheus::Family<T>& family, const std::string& label,
               std::initializer_list<const char*> values) {
  for (const char* value : values) (void)family.Add({{label, value}});
}

// Bucket boundaries for latencies in seconds, 1 ms to about 60 s.
[[nodiscard]] prometheus::Histogram::BucketBoundaries LatencyBuckets();

}  // namespace crawl::metrics
