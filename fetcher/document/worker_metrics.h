// The document worker's Prometheus metrics (common/base/metrics.h rules:
// registered at first use with their series at zero).
#pragma once

#include "common/base/metrics.h"

namespace crawl::fetcher {

struct DocumentWorkerMetrics {
  explicit DocumentWorkerMetrics(prometheus::Registry& registry);

  // crawl_fetcher_documents_total{outcome}: "parsed"; "rejected" (the
  // parser's error: not the type, broken, over a limit); "failed" (the
  // worker died or hit its time limit on it).
  prometheus::Family<prometheus::Counter>& documents;
  // Workers lost (killed, crashed, timed out); each is replaced lazily.
  prometheus::Counter& restarts;
  // CPU seconds (user + system) of the workers that have ended.
  prometheus::Counter& cpu_seconds;
  // Resident set of the last worker to answer, after its answer.
  prometheus::Gauge& rss_bytes;
};

// On metrics::Registry(); built on first use. Thread-safe.
[[nodiscard]] DocumentWorkerMetrics& WorkerMetrics();

}  // namespace crawl::fetcher
