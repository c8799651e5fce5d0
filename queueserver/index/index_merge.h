// A closed partition's postings merge (SearchIndex::MergeClosed): its
// chunks rewritten as one blocked list per term in doc-map order, without
// the dead documents (IndexCompactor::KeptPlaces), with the term
// statistics of the merged partitions; then a compaction when one is due.
//
// Not thread-safe: whatever serialises calls to its SearchIndex (the
// service lock) guards it.
#pragma once

#include <cstdint>
#include <vector>

#include "common/base/status.h"
#include "queueserver/index/index_compact.h"
#include "queueserver/index/index_journal.h"
#include "queueserver/index/index_memory.h"
#include "queueserver/index/postings_buffer.h"

namespace crawl::queueserver {

class PartitionMerger {
 public:
  // Everything must outlive the merger. `pending`: the postings not
  // flushed yet, which the stored term statistics leave out.
  PartitionMerger(IndexJournal* journal, IndexMemory* memory, IndexCompactor* compactor,
                  const PostingsBuffer* pending)
      : journal_(journal), memory_(memory), compactor_(compactor), pending_(pending) {}

  // SearchIndex::MergeClosed and merge_pending.
  [[nodiscard]] Status MergeClosed();
  [[nodiscard]] bool Pending() const;

 private:
  Status MergePartition(uint32_t part);
  void MergedTermStats(uint32_t part, const IndexMemory::Closing& closing,
                       std::vector<IndexJournal::Put>* puts);

  IndexJournal* journal_;
  IndexMemory* memory_;
  IndexCompactor* compactor_;
  const PostingsBuffer* pending_;
};

}  // namespace crawl::queueserver
