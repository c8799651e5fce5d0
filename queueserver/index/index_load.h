// Loading an index from its journal (SearchIndex::Load): totals,
// compaction counters, partitions, the active partition's doc map, term
// statistics, and the unmerged partitions' postings segments, into an
// IndexMemory.
//
// Not thread-safe: runs under whatever serialises calls to its SearchIndex
// (the service lock).
#pragma once

#include <cstdint>

#include "common/base/status.h"
#include "queueserver/index/index_journal.h"
#include "queueserver/index/index_memory.h"

namespace crawl::queueserver {

class IndexLoader {
 public:
  // Both must outlive the loader.
  IndexLoader(IndexJournal* journal, IndexMemory* memory) : journal_(journal), memory_(memory) {}

  // Replaces what `memory` holds with what the journal holds (postings of
  // merged partitions and summaries stay in the journal). On corrupt
  // records returns an error.
  [[nodiscard]] Status Load();

 private:
  // The doc map's totals and compaction counters.
  Status LoadCounters();
  Status LoadSegments(uint32_t part, TermLists* lists);

  IndexJournal* journal_;
  IndexMemory* memory_;
};

}  // namespace crawl::queueserver
