// The index build (docs/DESIGN.md §7): pages and links into documents,
// their summaries and doc map entries, postings per request (Flush) and
// partitions closed when full (search_index.h has the document rules).
// Adds to the IndexMemory its SearchIndex shares with the index's other
// parts; a page's terms and weights come from a PageWeigher, its postings
// wait in a PostingsBuffer until Flush.
//
// Not thread-safe: whatever serialises calls to its SearchIndex (the
// service lock) guards it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/flat_string_map.h"
#include "common/base/flat_u64_set.h"
#include "common/base/string_hash.h"
#include "common/text/stemmer.h"
#include "proto/crawl.pb.h"
#include "queueserver/index/doc_summary.h"
#include "queueserver/index/index_journal.h"
#include "queueserver/index/index_memory.h"
#include "queueserver/index/index_options.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/page_liveness.h"
#include "queueserver/index/page_weigher.h"
#include "queueserver/index/postings_buffer.h"

namespace crawl::queueserver {

class IndexBuilder {
 public:
  // Everything must outlive the builder.
  IndexBuilder(const IndexOptions& options, IndexJournal* journal, IndexMemory* memory,
               LivenessTracker* liveness);

  // SearchIndex::AddPage, AddLink and Flush.
  bool AddPage(const v1::FetchRecord& record, double boost);
  bool AddLink(const v1::DiscoveredLink& link, std::string_view iso_language);
  void Flush();
  // Forgets the postings not flushed and the word cache (its pointers are
  // into IndexMemory::terms): before a Load.
  void Reset();

  // The postings not flushed yet.
  [[nodiscard]] const PostingsBuffer& postings() const { return postings_; }
  [[nodiscard]] text::Stemmer& StemmerFor(const std::string& iso_language) {
    return stemmers_.For(iso_language);
  }
  [[nodiscard]] uint64_t pages_rejected() const { return pages_rejected_; }
  [[nodiscard]] static bool IsAnchorStopWord(std::string_view word);

 private:
  // What indexing a word needs, found with one hash lookup of the word
  // (word_ids_): its term id (an MD5-based Hash8 of the word), its title
  // key, and both terms' statistics. The pointers are into
  // IndexMemory::terms, whose nodes stay put (it only grows; Reset and
  // Load clear both).
  struct WordIds {
    uint64_t id = 0, title_id = 0;
    TermStats* stats = nullptr;
    TermStats* title_stats = nullptr;
    uint64_t last_doc = UINT64_MAX;  // stamp of the last document that listed the word
  };

  bool DocExists(const std::array<uint8_t, 24>& id);
  WordIds& IdsOf(std::string_view word) { return IdsOf(word, ShortStringHash(word)); }
  // `hash`: ShortStringHash(word).
  WordIds& IdsOf(std::string_view word, uint64_t hash);
  // ShortStringHash of each of `terms`, in scratch_hashes_.
  const std::vector<uint64_t>& HashTerms(const std::vector<std::string_view>& terms);
  // Prefetches the word-id lookups of the terms ahead of `i` (AddPage).
  void PrefetchWordIds(const std::vector<uint64_t>& hashes, size_t i) const;
  void FinishDocument(const IndexedDoc& doc, const DocSummary& summary);
  void ClosePartition();
  void FlushPostings();
  // The active partition is full: partition_docs documents, or its
  // postings past partition_bytes (counted at each flush).
  [[nodiscard]] bool PartitionFull() const;

  const IndexOptions& options_;
  IndexJournal* journal_;
  IndexMemory* memory_;
  LivenessTracker* liveness_;
  PageWeigher weigher_;
  PostingsBuffer postings_;
  // Hashes of (target, anchor text, language) already turned into link
  // documents by this process: repeated links (navigation) skip the
  // tokenising and stemming. Bounded (cleared when full); the doc id check
  // stays the authority.
  FlatU64Set links_seen_;
  // AddLink's scratch: the anchor's (stem, position) pairs, and the last
  // link host with its hash.
  std::vector<std::pair<std::string, uint32_t>> scratch_link_stems_;
  std::string last_link_host_;
  uint64_t last_link_host_hash_ = 0;
  // Word -> ids and statistics (WordIds), so that a word costs no MD5 after
  // its first document. Bounded (cleared when full, between documents).
  FlatStringMap<WordIds> word_ids_;
  uint64_t document_stamp_ = 0;  // counts AddPage calls, for WordIds::last_doc
  uint64_t pages_rejected_ = 0;
  std::vector<uint32_t> scratch_positions_;
  std::vector<uint64_t> scratch_hashes_;  // of the page's terms (AddPage)
  text::StemmerCache stemmers_;
};

}  // namespace crawl::queueserver
