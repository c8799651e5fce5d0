// Which page document of a URL answers searches (search_index.h "The index
// follows the web", index_records.h PageLiveness): the doc map's 'u'
// records, written in the request's batch beside the documents they name.
// A version a record stops naming is counted as garbage for compaction
// (IndexMemory::garbage).
//
// Not thread-safe: whatever serialises calls to its SearchIndex (the
// service lock) guards it.
#pragma once

#include <cstdint>
#include <string>

#include "queueserver/index/index_journal.h"
#include "queueserver/index/index_memory.h"
#include "queueserver/index/index_records.h"

namespace crawl::queueserver {

class LivenessTracker {
 public:
  // Both must outlive the tracker.
  LivenessTracker(IndexJournal* journal, IndexMemory* memory) : journal_(journal), memory_(memory) {}

  // The URL's liveness record: false when it has none (or a corrupt one,
  // which the next write replaces).
  bool Read(uint64_t url_hash, PageLiveness* out);
  // Makes the page document (url_hash, text_hash) the URL's live one.
  void MakeLive(uint64_t url_hash, uint64_t text_hash);
  // SearchIndex::RemovePage and RevivePage: whether they changed anything.
  bool Remove(const std::string& url);
  bool Revive(const std::string& url);

  [[nodiscard]] uint64_t pages_replaced() const { return pages_replaced_; }
  [[nodiscard]] uint64_t pages_removed() const { return pages_removed_; }

 private:
  IndexJournal* journal_;
  IndexMemory* memory_;
  uint64_t pages_replaced_ = 0, pages_removed_ = 0;
};

}  // namespace crawl::queueserver
