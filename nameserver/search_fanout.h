// Search across a crawl's queue servers (docs/DESIGN.md §8): with S queue
// servers the name server asks each for ceil(n * alpha / S) matches, groups
// what comes back by URL hash and text hash, and returns the best k.
//
// Grouping (pure, MergeResults): results sharing a URL hash (a page and the
// link documents of that URL) become one result with the group's highest doc
// rank; the page's title and snippet are shown when the page is among them.
// A page naming another canonical URL (rel=canonical) arrives with that
// URL's hash and canonical_url set: it groups under the canonical; the
// group shows the canonical page's own result when present, else the
// copy's with url = canonical_url. Nothing is followed transitively.
// Then pages sharing a text hash (the same text under several URLs) keep
// only the one with the highest doc rank; then pages of one near-duplicate
// cluster fold into the best of them (nameserver/near_duplicate_merge.h,
// SearchResult.similar_pages). Scores are the queue servers'
// parts with the doc rank replaced by the group's; best total first.
#pragma once

#include <cstdint>
#include <vector>

#include "proto/crawl.pb.h"

namespace crawl::nameserver {

// ceil(n * alpha / servers), at least 1 (servers 0 counts as 1).
[[nodiscard]] uint32_t PerServerMatches(uint32_t n, double alpha, size_t servers);

// Groups and orders the results of every queue server; at most `k`.
[[nodiscard]] std::vector<v1::SearchResult> MergeResults(std::vector<v1::SearchResult> results, uint32_t k);

}  // namespace crawl::nameserver
