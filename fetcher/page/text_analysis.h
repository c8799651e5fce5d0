// What the fetcher derives from a page's text, for HTML and plain text alike
// (docs/DESIGN.md §6, after the markup is gone): language, description
// with sentence weights, content hash, and the mini inverted index. Fills
// the FetchRecord fields 20-30 (proto/crawl.proto).
//
// Pure (no I/O); not thread-safe only through the StemmerCache it is given.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/text/stemmer.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

struct TextInput {
  std::string_view title;
  // Visible text, whitespace-collapsed, "\n" between blocks (see
  // html::PageLinks::text).
  std::string_view body;
  // Language the document declares ("" if none).
  std::string_view declared_language;
  // Host of the page URL (for the country TLD rule).
  std::string_view host;
  // Anchor texts of the page's links (the index's anchor region).
  std::vector<std::string_view> anchors;
};

struct TextOptions {
  std::size_t max_description_chars = 2000;  // docs/DESIGN.md §6
  uint32_t max_index_positions = 50'000;     // positions past this are not stored
};

// Sets record->language, language_source, description, text_hash, simhash
// (of the body's words, fetcher/page/simhash.h) and mini_index.
void AnalyzeText(const TextInput& input, const TextOptions& options, text::StemmerCache& stemmers,
                 v1::FetchRecord* record);

// The content hash of docs/DESIGN.md §6: hash::PageTextHash of the tokens
// of `text` (common/text/tokenizer.h) joined by single spaces.
[[nodiscard]] uint64_t TextHash(std::string_view text);

}  // namespace crawl::fetcher
