// Builds a page's mini inverted index (docs/DESIGN.md §6; the message is
// v1::MiniIndex in proto/crawl.proto): every token of the page gets the next
// position; at the end, words are stemmed with the page language's Snowball
// stemmer into terms; each term keeps its positions and its count per
// region (title, description, body, anchor). Term id = 8-byte hash of the
// term (docs/DESIGN.md §4).
//
// Words are interned to dense ids in order of first occurrence (the
// description scorer and the language guess reuse them), the position
// stream is kept as word ids, and each distinct word is stemmed once, in
// Finish(), when the language is known. Positions past `max_positions` are
// counted but not written (MiniIndex.truncated).
//
// Speed (tests/bench/processing.sh): words live in one byte arena with an
// open-addressing table (no allocation per word), and a per-thread cache
// maps (stemmer, word) to (term, term id) across pages, so the Snowball
// stemmer and the MD5 of the term id run once per word per thread, not per
// page. The cache is bounded (emptied at kMaxCachedTerms).
//
// Not thread-safe; one builder per page.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/text/stemmer.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

class MiniIndexBuilder {
 public:
  explicit MiniIndexBuilder(uint32_t max_positions);

  static constexpr std::size_t kMaxCachedTerms = 100'000;

  // The dense id of a lower-cased token (see common/text/tokenizer.h).
  [[nodiscard]] uint32_t Intern(std::string_view word);
  // The word of an id; the view is valid until the next Intern().
  [[nodiscard]] std::string_view word(uint32_t id) const {
    return std::string_view(arena_.data() + word_start_[id], word_start_[id + 1] - word_start_[id]);
  }
  [[nodiscard]] std::size_t word_count() const { return word_start_.size() - 1; }
  // The low 32 bits of the word's ShortStringHash (common/base/string_hash.h).
  [[nodiscard]] uint32_t word_hash(uint32_t id) const { return word_hash_[id]; }

  // Gives `word_id` the next position and returns it.
  uint32_t AddPosition(uint32_t word_id) {
    position_words_.push_back(word_id);
    return static_cast<uint32_t>(position_words_.size() - 1);
  }
  // Positions so far.
  [[nodiscard]] uint32_t positions() const { return static_cast<uint32_t>(position_words_.size()); }
  // The word id at each position.
  [[nodiscard]] const std::vector<uint32_t>& position_words() const { return position_words_; }
  // Positions added so far are the title region.
  void EndTitle() { title_tokens_ = positions(); }
  // Positions [first, end) are a description sentence.
  void MarkDescription(uint32_t first, uint32_t end) { description_.emplace_back(first, end); }
  // One occurrence of the word in a link's anchor text on this page.
  void AddAnchorWord(uint32_t word_id);

  // (word, occurrences) over the first `limit` positions, for the language
  // guess. Views are valid until the next Intern().
  [[nodiscard]] std::vector<std::pair<std::string_view, uint32_t>> CountWords(uint32_t limit) const;

  // Stems every word with `stemmer` (null or !ok(): terms are the words)
  // and writes the index (terms in order of first occurrence).
  void Finish(text::Stemmer* stemmer, v1::MiniIndex* out) const;

 private:
  void Grow();

  uint32_t max_positions_;
  std::string arena_;                    // every word, back to back
  std::vector<uint32_t> word_start_{0};  // word id -> offset in arena_; one past the last
  std::vector<uint32_t> word_hash_;      // word id -> its hash (for rehashing)
  // Open addressing: the word's hash (high 32 bits) and id + 1 (low 32), so
  // a probe reads one slot; 0 = empty.
  static uint64_t SlotOf(uint32_t hash, uint32_t id) { return (uint64_t{hash} << 32) | (id + 1); }
  std::vector<uint64_t> slots_;
  std::vector<uint32_t> anchor_counts_;   // by word id
  std::vector<uint32_t> position_words_;  // position -> word id
  std::vector<std::pair<uint32_t, uint32_t>> description_;
  uint32_t title_tokens_ = 0;
};

}  // namespace crawl::fetcher
