// The fetcher's near-duplicate look-up before a batch ships
// (docs/ARCHITECTURE.md "Near-duplicates"): every record with a simhash is
// probed in the 4 block tables (common/crawl/fingerprint_blocks.h), each at
// the queue server owning its bucket (MatchFingerprints); the earliest
// cluster any table answers becomes the record's near_duplicate_cluster
// and near_duplicate_of. Which page leads a cluster is decided by the
// owners' order of probes (the first probed leads), so a match is taken
// even when its first page's fetch started after this one's.
//
// An owner that does not answer within the deadline costs its tables'
// answers only: the batch ships, those pages maybe without their cluster.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "proto/crawl.grpc.pb.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

// One MatchFingerprints request per queue server of the crawl (empty when
// it owns none of the batch's buckets); probe p of server s stands for
// record record_of[s][p]. Pure.
struct FingerprintPlan {
  std::vector<v1::MatchFingerprintsRequest> requests;
  std::vector<std::vector<int>> record_of;
};
[[nodiscard]] FingerprintPlan PlanFingerprintProbes(
    const v1::CrawlInfo& info, const google::protobuf::RepeatedPtrField<v1::FetchRecord>& records);

// The answers of the servers that answered (answers[s] null: none) applied
// to `records`: each record takes its earliest-fetched match (ties: the
// lower cluster key) unless that match is the record itself. Pure.
// Returns the number of records marked.
size_t ApplyFingerprintMatches(const FingerprintPlan& plan,
                               const std::vector<const v1::MatchFingerprintsResponse*>& answers,
                               google::protobuf::RepeatedPtrField<v1::FetchRecord>* records);

// Calls a server: its stub's MatchFingerprints with a deadline.
using MatchCall =
    std::function<bool(size_t server, const v1::MatchFingerprintsRequest&, v1::MatchFingerprintsResponse*)>;

// Plans, calls every owner (all at once, each on its own thread and bounded
// by its call's deadline: `call` must be thread-safe) and applies the
// answers; counts outcomes in the fetcher's metrics. Nothing when the crawl
// turned near-duplicates off.
void MarkNearDuplicates(const v1::CrawlInfo& info, const MatchCall& call,
                        google::protobuf::RepeatedPtrField<v1::FetchRecord>* records);

}  // namespace crawl::fetcher
