// A queue server's near-duplicate state (docs/ARCHITECTURE.md
// "Near-duplicates"): the fingerprint tables it owns
// (fingerprint_table.h) and the clusters of the pages it ingested
// (cluster_counts.h), in one KvStore: DATA/neardup (RocksDB) or memory.
// What the service's MatchFingerprints, NearDuplicateClusters,
// SubmitResults and DeleteCrawl call; independent of the service's lock.
//
// Thread-safe.
#pragma once

#include <memory>
#include <string>

#include "common/base/mutex.h"
#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/neardup/fingerprint_table.h"
#include "queueserver/neardup/kv_store.h"

namespace crawl::queueserver::neardup {

class NearDuplicates {
 public:
  // A RocksDB database in `dir`, or memory when `dir` is "".
  [[nodiscard]] static Result<std::unique_ptr<NearDuplicates>> Open(const std::string& dir);
  explicit NearDuplicates(std::unique_ptr<KvStore> store) : store_(std::move(store)), table_(store_.get()) {}

  [[nodiscard]] Status Match(const v1::MatchFingerprintsRequest& req, v1::MatchFingerprintsResponse* resp) {
    return table_.Match(req, resp);
  }
  // Keeps the batch's pages that joined a cluster (call once per applied batch).
  [[nodiscard]] Status Ingest(uint64_t crawl_id,
                              const google::protobuf::RepeatedPtrField<v1::FetchRecord>& records)
      EXCLUDES(mu_);
  [[nodiscard]] Status Clusters(const v1::NearDuplicateClustersRequest& req,
                                v1::NearDuplicateClustersResponse* resp) EXCLUDES(mu_);
  [[nodiscard]] Status DeleteCrawl(uint64_t crawl_id) EXCLUDES(mu_);

 private:
  std::unique_ptr<KvStore> store_;
  FingerprintTable table_;
  Mutex mu_;  // the cluster keys (the table locks its own)
};

}  // namespace crawl::queueserver::neardup
