// A page's description (docs/DESIGN.md §6): the text is cut into
// sentences, each sentence is scored, and the best ones are kept, in page
// order, up to a character budget (2,000 by default). Each kept sentence's
// score is the weight of its region in the index.
//
// Score of a sentence (a centroid summariser, after Yioop's
// ScrapeSummarizer): the sum over its distinct content words of their
// frequency in the whole text, divided by the square root of its number of
// words, so that long sentences do not win by length alone. Content words
// are the words that are not among the page language's frequent words and
// have at least 2 bytes. Sentences of fewer than kMinSentenceWords words
// (menus, buttons, captions) are not candidates. Weights are scores scaled
// so that the best kept sentence has 1.0.
//
// Pure and reentrant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace crawl::fetcher {

inline constexpr std::size_t kMinSentenceWords = 3;

// Splits whitespace-collapsed text into sentences: at line breaks, and after
// '.', '!', '?' (and their full-width forms) followed by a space. Empty
// pieces are dropped; the views point into `text`.
[[nodiscard]] std::vector<std::string_view> SplitSentences(std::string_view text);

struct SentenceWords {
  std::string_view text;
  // Ids of its words, in order: a dense numbering shared by all sentences
  // of the page (fetcher/page/mini_index.h word ids).
  std::span<const uint32_t> words;
};

struct DescriptionPick {
  std::size_t sentence;  // index into the input
  float weight;          // (0, 1]
};

// The chosen sentences in page order; their texts plus one separator each
// fit in `max_chars` characters (UTF-8 code points). `is_content[w]` says
// whether word id w is a content word (ids past its end are not).
[[nodiscard]] std::vector<DescriptionPick> Summarize(const std::vector<SentenceWords>& sentences,
                                                     const std::vector<uint8_t>& is_content,
                                                     std::size_t max_chars);

// Number of UTF-8 code points in `s`.
[[nodiscard]] std::size_t Utf8Length(std::string_view s);

}  // namespace crawl::fetcher
