// The tuning of a SearchIndex (search_index.h): partition size, score
// weights and when compaction is due.
#pragma once

#include <cstdint>

#include "queueserver/index/search_scoring.h"

namespace crawl::queueserver {

struct IndexOptions {
  uint32_t partition_docs = 100'000;  // docs/DESIGN.md §7
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
