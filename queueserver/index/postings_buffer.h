// The postings of the current request (IndexBuilder): per term, a
// self-contained chunk of the documents added since the last flush, written
// at the flush as one postings segment of the active partition (the
// segment's key is its first document) and appended to the partition's
// lists in memory. Slots are reused across requests, so their buffers keep
// their capacity.
//
// Not thread-safe: owned by an IndexBuilder, under its SearchIndex's
// serialisation (the service lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "queueserver/index/index_journal.h"
#include "queueserver/index/index_memory.h"

namespace crawl::queueserver {

class PostingsBuffer {
 public:
  // Adds document `doc`'s posting of `term_id` (whose statistics are
  // `stats`, counted here). `gaps`, when not empty, is `positions` already
  // written as gap varints (PackedTermReader::shortest_gaps): copied, not
  // encoded again.
  void Add(uint64_t term_id, TermStats& stats, uint32_t doc, double frequency, const uint32_t* positions,
           size_t n, uint64_t occurrences, std::string_view gaps = {});
  // The term's postings pending (null when it has none), `terms` being the
  // statistics Add was given.
  [[nodiscard]] const TermList* Find(uint64_t term_id,
                                     const std::unordered_map<uint64_t, TermStats>& terms) const;
  // Writes what is pending as one segment of partition `part`
  // (IndexJournal::AppendSegment) and appends each term's chunk to its list
  // in `active_lists`; then nothing is pending. Returns the bytes the lists
  // grew by in memory (their capacity, and TermList::kOverheadBytes for each
  // list it started).
  uint64_t Flush(uint32_t part, TermLists* active_lists, IndexJournal* journal);
  // Drops what is pending and the buffers.
  void Clear();

 private:
  struct PendingList {
    uint64_t term_id = 0;
    TermStats* stats = nullptr;  // into IndexMemory::terms
    TermList list;
  };
  // Only pending_[0, used_) are this request's.
  std::vector<PendingList> pending_;
  size_t used_ = 0;
  uint32_t segment_first_ = 0;
};

}  // namespace crawl::queueserver
