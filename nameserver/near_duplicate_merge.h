// The name server's near-duplicate merges (docs/ARCHITECTURE.md
// "Near-duplicates"): search results of one near-duplicate cluster fold
// into the best of them, and the queue servers' cluster counts add up.
//
// A result's cluster key is its near_duplicate_cluster, or its own URL hash
// when that is 0: the first page of a cluster (whose URL hash is the
// cluster) and its copies share a key. Pure.
#pragma once

#include <cstdint>
#include <vector>

#include "proto/crawl.pb.h"

namespace crawl::nameserver {

// Keeps the first result of every cluster key in `best_first` (results
// sorted best first), its similar_pages raised by the others folded into it
// (and theirs). Link-only results are never folded. Order is kept.
[[nodiscard]] std::vector<v1::SearchResult> FoldNearDuplicates(std::vector<v1::SearchResult> best_first);

// Adds up the clusters of several queue servers: every server counts its
// own pages of a cluster plus the first page, so the sum is the pages less
// one per extra server; the first page's URL and up to 5 sample URLs are
// kept. Largest first (equal sizes: lower key), at most `limit`.
[[nodiscard]] std::vector<v1::NearDuplicateCluster> MergeClusters(
    const std::vector<v1::NearDuplicateClustersResponse>& answers, uint32_t limit);

}  // namespace crawl::nameserver
