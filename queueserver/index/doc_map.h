// The doc map of one index partition (docs/DESIGN.md §7): the order in
// which a partition's documents are walked, and so their doc rank.
//
// Documents are numbered by arrival (0 = first). Entries sharing a URL hash
// (a page and the link documents of that URL) form a group, split into
// subgroups by text hash. A member scores (documents in partition - its
// arrival number); a group or subgroup scores the sum of its members'.
// Groups are ordered by score (ties: earliest member first), subgroups
// likewise inside their group, members by arrival inside their subgroup.
// Doc rank of the document at place i of n = DocRank(n - 1 - i + the
// documents of the later partitions) (search_scoring.h). Pure.
#pragma once

#include <cstdint>
#include <vector>

namespace crawl::queueserver {

struct DocMapKey {
  uint64_t url_hash = 0;
  uint64_t text_hash = 0;
};

// Arrival numbers of `docs` in doc-map order.
[[nodiscard]] std::vector<uint32_t> OrderDocMap(const std::vector<DocMapKey>& docs);

}  // namespace crawl::queueserver
