// Pages of near-duplicate clusters this queue server ingested, for the
// NearDuplicateClusters rpc (docs/ARCHITECTURE.md "Near-duplicates").
//
// A page that joined a cluster (FetchRecord.near_duplicate_cluster set by
// its fetcher) is kept under
//   crawl(8) 'c' cluster(8) url_hash(8) -> cluster_url '\0' url
// in the KvStore (kv_store.h), so a refetch counts once. The cluster's
// first page is not kept (it may be another server's): a cluster's pages
// here are its members plus one, and the name server's merge adds the
// members of every server to one first page.
//
// Not thread-safe: the caller (near_duplicates.h) holds the lock.
#pragma once

#include <cstdint>

#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/neardup/kv_store.h"

namespace crawl::queueserver::neardup {

inline constexpr uint32_t kDefaultClusterLimit = 20;
inline constexpr uint32_t kMaxClusterLimit = 10'000;
inline constexpr int kClusterSampleUrls = 5;

// Keeps the records of a SubmitResults batch that joined a cluster.
[[nodiscard]] Status AddClusterMembers(KvStore& store, uint64_t crawl_id,
                                       const google::protobuf::RepeatedPtrField<v1::FetchRecord>& records);

// The `limit` (0: 20, at most 10,000) largest clusters of crawl_id, largest
// first (equal sizes: lower cluster key first); pages = members + 1.
[[nodiscard]] Status LargestClusters(KvStore& store, uint64_t crawl_id, uint32_t limit,
                                     v1::NearDuplicateClustersResponse* resp);

// Drops the crawl's clusters.
[[nodiscard]] Status DeleteClusters(KvStore& store, uint64_t crawl_id);

}  // namespace crawl::queueserver::neardup
