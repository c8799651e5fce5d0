// The document worker's metrics (worker_metrics.h).
#include "fetcher/document/worker_metrics.h"

namespace crawl::fetcher {

DocumentWorkerMetrics::DocumentWorkerMetrics(prometheus::Registry& registry)
    : documents(metrics::CounterFamily(registry, "crawl_fetcher_documents_total",
                                       "Documents sent to the document worker, by outcome")),
      restarts(metrics::CounterFamily(registry, "crawl_fetcher_document_worker_restarts_total",
                                      "Document workers lost (crash, time or memory limit) and replaced")
                   .Add({})),
      cpu_seconds(metrics::CounterFamily(registry, "crawl_fetcher_document_worker_cpu_seconds_total",
                                         "CPU time of the document workers that have ended")
                      .Add({})),
      rss_bytes(metrics::GaugeFamily(registry, "crawl_fetcher_document_worker_rss_bytes",
                                     "Resident set of the last document worker to answer")
                    .Add({})) {
  metrics::AddSeries(documents, "outcome", {"parsed", "rejected", "failed"});
}

DocumentWorkerMetrics& WorkerMetrics() {
  static auto* m = new DocumentWorkerMetrics(metrics::Registry());
  return *m;
}

}  // namespace crawl::fetcher
