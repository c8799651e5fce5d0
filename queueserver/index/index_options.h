// The tuning of a SearchIndex (search_index.h): partition size, score
// weights and when compaction is due.
#pragma once

#include <cstdint>

#include "queueserver/index/search_scoring.h"

namespace crawl::queueserver {

struct IndexOptions {
  uint32_t partition_docs = 100'000;  // docs/DESIGN.md §7
  // The active partition's postings are held in memory until it closes.
  // With partition_bytes set (the queue server sets it from its memory
  // budget) it also closes once they hold an eighth of the postings its
  // crawl closed before in this process, at least min_partition_bytes and
  // at most partition_bytes: a small crawl's partitions stay small, a large
  // one's grow geometrically to the bound (docs/OPERATIONS.md "Memory").
  uint64_t partition_bytes = 0;
  uint64_t min_partition_bytes = uint64_t{8} << 20;
  BonusWeights bonus;
  double proximity_weight = 1.0;
  // Region weights of an occurrence in the term frequency f: title, body;
  // a description occurrence adds its sentence's weight to the body's.
  double title_weight = 2.0;
  double body_weight = 1.0;
  // Merged partitions are compacted again (SearchIndex::Compact) once the
  // dead documents awaiting it reach this share of the live ones.
  double compact_share = 0.25;
};

}  // namespace crawl::queueserver
