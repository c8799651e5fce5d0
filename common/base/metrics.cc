#include "common/base/metrics.h"

#include <prometheus/text_serializer.h>

namespace crawl::metrics {

prometheus::Registry& Registry() {
  static auto* registry = new prometheus::Registry();
  return *registry;
}

std::string Exposition() { return Exposition(Registry()); }

std::string Exposition(const prometheus::Registry& registry) {
  prometheus::TextSerializer serializer;
  return serializer.Serialize(registry.Collect());
}

prometheus::Family<prometheus::Counter>& CounterFamily(const std::string& name, const std::string& help) {
  return CounterFamily(Registry(), name, help);
}

prometheus::Family<prometheus::Gauge>& GaugeFamily(const std::string& name, const std::string& help) {
  return GaugeFamily(Registry(), name, help);
}

prometheus::Family<prometheus::Histogram>& HistogramFamily(const std::string& name, const std::string& help) {
  return HistogramFamily(Registry(), name, help);
}

prometheus::Family<prometheus::Counter>& CounterFamily(prometheus::Registry& registry,
                                                       const std::string& name, const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}

prometheus::Family<prometheus::Gauge>& GaugeFamily(prometheus::Registry& registry, const std::string& name,
                                                   const std::string& help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(registry);
}

prometheus::Family<prometheus::Histogram>& HistogramFamily(prometheus::Registry& registry,
                                                           const std::string& name, const std::string& help) {
  return prometheus::BuildHistogram().Name(name).Help(help).Register(registry);
}

prometheus::Histogram::BucketBoundaries LatencyBuckets() {
  return {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
}

}  // namespace crawl::metrics
