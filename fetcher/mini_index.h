// Builds a page's mini inverted index (DESIGN.md section 6; the message is
// v1::MiniIndex in proto/crawl.proto): every token of the page gets the next
// position; tokens are stemmed with the page language's Snowball stemmer
// into terms; each term keeps its positions and its count per region
// (title, description, body, anchor). Term id = 8-byte hash of the term
// (DESIGN.md section 4).
//
// Each distinct word is stemmed once (words are interned to dense ids, which
// the description scorer reuses). Positions past `max_positions` are
// counted but not stored (MiniIndex.truncated).
//
// Not thread-safe; one builder per page.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fetcher/stemmer.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

class MiniIndexBuilder {
 public:
  // `stemmer` may be null or !ok(): terms are then the words themselves.
  // REQUIRES: `stemmer` outlives the builder.
  MiniIndexBuilder(Stemmer* stemmer, uint32_t max_positions);

  // The dense id of a lower-cased token (see fetcher/tokenizer.h).
  [[nodiscard]] uint32_t Intern(std::string_view word);
  // The word of an id.
  [[nodiscard]] std::string_view word(uint32_t id) const { return words_[id]; }

  // Gives `word_id` the next position and returns it.
  uint32_t AddPosition(uint32_t word_id);
  // Positions so far.
  [[nodiscard]] uint32_t positions() const { return next_position_; }
  // Positions added so far are the title region.
  void EndTitle() { title_tokens_ = next_position_; }
  // Positions [first, end) are a description sentence.
  void MarkDescription(uint32_t first, uint32_t end);
  // One occurrence of the word in a link's anchor text on this page.
  void AddAnchorWord(uint32_t word_id);

  // Writes the index (terms in order of first occurrence).
  void Finish(v1::MiniIndex* out) const;

 private:
  struct Term {
    std::string text;
    std::vector<uint32_t> positions;
    uint32_t title = 0, description = 0, body = 0, anchor = 0;
  };
  uint32_t TermOf(uint32_t word_id);

  Stemmer* stemmer_;
  uint32_t max_positions_;
  std::unordered_map<std::string, uint32_t> word_ids_;
  std::vector<std::string> words_;
  std::vector<int32_t> word_term_;  // word id -> term index, -1 until needed
  std::unordered_map<std::string, uint32_t> term_ids_;
  std::vector<Term> terms_;
  std::vector<uint32_t> position_terms_;  // stored position -> term index
  uint32_t next_position_ = 0;
  uint32_t title_tokens_ = 0;
};

}  // namespace crawl::fetcher
