// The block tables of near-duplicate detection a queue server owns
// (common/crawl/fingerprint_blocks.h; Manku, Jain, Das Sarma, WWW 2007;
// docs/ARCHITECTURE.md "Near-duplicates"), and the MatchFingerprints rpc's
// logic over them.
//
// Keys in the KvStore (kv_store.h), integers big-endian:
//   crawl(8) 'f' table(1) block(2) fingerprint(8) url_hash(8)
//       -> cluster(8) fetched_unix_us(8) cluster_fetched_unix_us(8)
//          cluster_url                       (an entry; the page's own URL
//                                             when it leads its cluster)
//   crawl(8) 'u' table(1) url_hash(8) -> block(2) fingerprint(8)
//                                     (the URL's entry in that table)
// A probe for table t reads bucket (crawl, t, block t of its fingerprint):
// the entries within max_distance bits; the one fetched earliest gives the
// answer (its cluster), and the probe's own entry joins the bucket with that
// cluster (or its own URL hash when there is none). A URL probed again (a
// refetch) keeps its first entry and gets that entry's cluster.
//
// Thread-safe: one mutex over every probe of the table, so two probes of
// identical pages are ordered (the second finds the first).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/base/mutex.h"
#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/neardup/kv_store.h"

namespace crawl::queueserver::neardup {

// One entry of a bucket, decoded.
struct FingerprintEntry {
  uint64_t fingerprint = 0;
  uint64_t url_hash = 0;
  uint64_t cluster = 0;
  int64_t fetched_unix_us = 0;
  int64_t cluster_fetched_unix_us = 0;
  std::string cluster_url;
};

class FingerprintTable {
 public:
  // `store` must outlive the table.
  explicit FingerprintTable(KvStore* store) : store_(store) {}

  // MatchFingerprints: every probe of `req` looked up, then inserted, in the
  // tables it names (table numbers past 3 are an error: nothing is done).
  // At most one match per probe: the earliest-fetched cluster over its
  // tables; none when the probe leads its cluster.
  [[nodiscard]] Status Match(const v1::MatchFingerprintsRequest& req, v1::MatchFingerprintsResponse* resp)
      EXCLUDES(mu_);

  // Drops every entry of `crawl_id`.
  [[nodiscard]] Status DeleteCrawl(uint64_t crawl_id) EXCLUDES(mu_);

 private:
  // One probe in one table: *best becomes the entry it matches (its own
  // first entry on a refetch) when that is better; *found says whether any.
  Status ProbeTable(uint64_t crawl_id, uint32_t table, uint32_t max_distance,
                    const v1::FingerprintProbe& probe, FingerprintEntry* best, uint32_t* distance,
                    bool* found) REQUIRES(mu_);

  KvStore* const store_;
  Mutex mu_;
};

// Entry encoding (exposed for tests and the benchmark).
[[nodiscard]] std::string EntryKey(uint64_t crawl_id, uint32_t table, const FingerprintEntry& e);
[[nodiscard]] std::string EntryValue(const FingerprintEntry& e);
[[nodiscard]] bool DecodeEntry(std::string_view key, std::string_view value, FingerprintEntry* e);
// The two keys that insert `e` into `table` (its entry and its URL's key).
[[nodiscard]] std::vector<std::pair<std::string, std::string>> EntryWrites(uint64_t crawl_id, uint32_t table,
                                                                           const FingerprintEntry& e);

}  // namespace crawl::queueserver::neardup
