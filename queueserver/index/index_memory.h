// What a SearchIndex holds in memory (search_index.h): its partitions, the
// active partition's doc map keys and walking order, the postings of the
// partitions not merged yet, the term statistics, the totals and the
// compaction counters. Postings of merged partitions, summaries and the
// doc map itself stay in the journal.
//
// The index's parts share it: IndexBuilder adds documents, IndexLoader
// fills it from the journal, PartitionMerger and IndexCompactor retire
// closed partitions and dead documents, SearchPreparer copies what a search
// needs. Not thread-safe: whatever serialises calls to the SearchIndex (the
// service lock) guards it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/base/status.h"
#include "queueserver/index/doc_map.h"
#include "queueserver/index/index_journal.h"

namespace crawl::queueserver {

// A term's postings in one unmerged partition (EncodePostings form,
// arrival order) and their share of the term statistics.
struct TermList {
  std::string bytes;
  int64_t last = -1;
  uint32_t docs = 0;
  uint64_t occurrences = 0;

  // Appends a self-contained chunk (first doc delta from -1) whose last doc
  // is `last_doc`, re-coding its first doc delta against this list's last
  // doc. REQUIRES: a chunk whose first varint reads.
  void AppendChunk(std::string_view chunk, uint32_t last_doc, uint32_t chunk_docs,
                   uint64_t chunk_occurrences);
  // What a list costs in memory besides its bytes: its map node and
  // string header.
  static constexpr uint64_t kOverheadBytes = 96;
};
using TermLists = std::unordered_map<uint64_t, TermList>;

struct TermStats {
  uint64_t docs = 0;
  uint64_t occurrences = 0;
  // This term's slot in the PostingsBuffer when that slot holds this term
  // (else it has no postings pending).
  uint32_t pending = UINT32_MAX;
  // The term's list in IndexMemory::active_lists when active_part is the
  // active partition (saves a flush a lookup per term; active_lists only
  // grows until the partition closes).
  uint32_t active_part = UINT32_MAX;
  TermList* active = nullptr;
};

struct IndexMemory {
  struct Partition {
    uint32_t docs = 0;
    bool closed = false;
    bool merged = false;
  };
  // The active partition's doc map keys (arrival order) and, computed when
  // needed, the place of each document and the document at each place.
  struct Active {
    std::vector<DocMapKey> keys;
    bool order_valid = false;
    std::vector<uint32_t> place;
    // Shared with prepared searches (PreparedSearch::active_at); replaced,
    // never changed, when the order is recomputed.
    std::shared_ptr<const std::vector<uint32_t>> at;
  };
  // A closed partition waiting for its merge.
  struct Closing {
    TermLists lists;
    std::vector<uint32_t> place;  // arrival -> place
  };

  // Computes the active partition's order (place, at) if documents came
  // since it was last computed.
  void EnsureOrder();
  // Place -> arrival (or, with `inverse`, arrival -> place) of closed
  // partition `part`, from its 'r' records.
  [[nodiscard]] Status ClosedOrder(IndexJournal* journal, uint32_t part, bool inverse,
                                   std::vector<uint32_t>* out) const;
  // The compaction counters record 'g' (garbage, compacted).
  [[nodiscard]] IndexJournal::Put GarbagePut() const;

  // The last partition is the active one.
  std::vector<Partition> partitions;
  Active active;
  // The active partition's postings (bounded by the partition size), and
  // closed partitions not merged yet (between a close and the commit after
  // it, or after a failed merge).
  TermLists active_lists;
  // What active_lists holds, in bytes (postings and a list's overhead);
  // IndexOptions::partition_bytes bounds it.
  uint64_t active_bytes = 0;
  // The active_bytes of the partitions closed since this process loaded
  // the index.
  uint64_t closed_bytes = 0;
  std::map<uint32_t, Closing> closing;
  // Statistics of every term; nodes stay put (IndexBuilder keeps pointers
  // to them until the next Load).
  std::unordered_map<uint64_t, TermStats> terms;
  uint64_t documents = 0;
  uint64_t total_length = 0;
  bool totals_changed = false;
  // Dead documents counted since the last Compact (an upper bound of those
  // in merged partitions), and documents compacted so far.
  uint64_t garbage = 0, compacted = 0;
  bool garbage_changed = false;
  // Bytes of postings segments the last Load could not read back.
  uint64_t segment_bytes_lost = 0;
};

}  // namespace crawl::queueserver
