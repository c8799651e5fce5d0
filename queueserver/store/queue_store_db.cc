// The queue store's RocksDB side shared by its files (queue_store_db.h).
#include "queueserver/store/queue_store_db.h"

#include "queueserver/store/queue_store_codec.h"

namespace crawl::queueserver::store_internal {

const char* const kCfNames[kCfCount] = {
    "meta", "seen", "queue",   "waiting",  "origins", "leases",    "log",   "batches",     "clds",
    "opic", "docs", "doc_map", "postings", "terms",   "structure", "tiers", "fetch_state", "warc_loc"};
Cf IndexCf(IndexFamily f) {
  switch (f) {
    case IndexFamily::kDocs:
      return kDocs;
    case IndexFamily::kDocMap:
      return kDocMap;
    case IndexFamily::kPostings:
      return kPostings;
    case IndexFamily::kTerms:
      return kTerms;
  }
  return kDocs;
}

Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::Ok();
  return Status::IoError(what + ": " + s.ToString());
}

std::string Prefix(uint64_t crawl_id) {
  std::string p;
  PutU64(&p, crawl_id);
  return p;
}

Status Corrupt(const char* what, std::string_view key) {
  return Status::Internal(std::string("corrupt ") + what + " record (key of " + std::to_string(key.size()) +
                          " bytes)");
}

}  // namespace crawl::queueserver::store_internal
