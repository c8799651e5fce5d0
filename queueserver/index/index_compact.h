// Compaction of dead documents (SearchIndex::Compact, search_index.h): the
// page documents whose URL's liveness record names another version lose
// their postings, summaries and doc map entries, at their partition's merge
// (PartitionMerger asks KeptPlaces which stay) and, once enough of them
// wait (Due), in every merged partition.
//
// Not thread-safe: whatever serialises calls to its SearchIndex (the
// service lock) guards it.
#pragma once

#include <cstdint>
#include <vector>

#include "common/base/status.h"
#include "queueserver/index/index_journal.h"
#include "queueserver/index/index_memory.h"
#include "queueserver/index/index_options.h"
#include "queueserver/index/page_liveness.h"

namespace crawl::queueserver {

class IndexCompactor {
 public:
  // Everything must outlive the compactor.
  IndexCompactor(const IndexOptions& options, IndexJournal* journal, IndexMemory* memory,
                 LivenessTracker* liveness)
      : options_(options), journal_(journal), memory_(memory), liveness_(liveness) {}

  // Compacts every merged partition (one atomic write a partition), then
  // zeroes the garbage count.
  [[nodiscard]] Status Compact();
  // The dead documents awaiting compaction reach options.compact_share of
  // the live ones (and some partition is merged).
  [[nodiscard]] bool Due() const;
  // Of closed partition `part`: which places hold a document to keep (a
  // doc map entry, not dead), and the records of the dead ones still
  // stored (appended to `deletes`, counted in `dropped`).
  [[nodiscard]] Status KeptPlaces(uint32_t part, std::vector<bool>* keep,
                                  std::vector<IndexJournal::Key>* deletes, uint64_t* dropped);

 private:
  Status CompactPartition(uint32_t part);

  const IndexOptions& options_;
  IndexJournal* journal_;
  IndexMemory* memory_;
  LivenessTracker* liveness_;
};

}  // namespace crawl::queueserver
