// Compiled-in lists of about the 100 most frequent words of eight languages,
// the description scorer's stop words (fetcher/page/language.h
// IsFrequentWord). They once also guessed the page language (docs/DESIGN.md
// §6: "the language whose 100 most frequent words remove the most text");
// CLD2 does that now (common/text/language_id.h). The words are lower-case
// and tokenised as common/text/tokenizer.h does (so French "l'" appears as
// "l"). Lists are from general-corpus frequency rankings (Wiktionary
// frequency lists and the Leipzig corpora), trimmed to words of that one
// language.
#pragma once

#include <span>
#include <string_view>

namespace crawl::fetcher {

struct FrequentWords {
  std::string_view language;  // ISO 639-1
  std::span<const std::string_view> words;
};

// Every list, in a fixed order.
[[nodiscard]] std::span<const FrequentWords> FrequentWordLists();

}  // namespace crawl::fetcher
