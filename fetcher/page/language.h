// The language of a page (docs/DESIGN.md §6), in this order: the HTML's
// own declaration (<html lang>, xml:lang, <meta http-equiv=
// "content-language">, found by fetcher/page/html_links.h), else the country TLD
// of the URL's host, else the language whose ~100 most frequent words
// (fetcher/page/frequent_words.h) "remove the most text": the one whose list
// covers the most bytes of the page's tokens. The word guess needs at least
// kMinWordShare of the text covered, so a page of numbers or names is "".
//
// Pure and reentrant.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace crawl::fetcher {

inline constexpr double kMinWordShare = 0.10;
// Only the first tokens are looked at by the word guess (enough to decide).
inline constexpr std::size_t kLanguageSampleTokens = 2000;

struct LanguageGuess {
  std::string language;  // ISO 639-1, lower-case; "" if unknown
  std::string source;    // "html", "tld", "words" or ""
};

// Language of a country-code TLD whose country has one dominant language
// ("de" -> "de", "at" -> "de", "br" -> "pt", "uk" -> "en"); "" for generic
// TLDs (.com, .org, .test) and multilingual countries (.ch, .be, .ca).
[[nodiscard]] std::string LanguageFromHost(std::string_view host);

// The frequent-word guess on UTF-8 `text`; "" if no list covers
// kMinWordShare of it.
[[nodiscard]] std::string LanguageFromWords(std::string_view text);

// The frequent-word guess from counted words: (lower-case token, number of
// occurrences) pairs, each word once.
[[nodiscard]] std::string LanguageFromWordCounts(
    const std::vector<std::pair<std::string_view, uint32_t>>& counts);

// `declared` is the HTML declaration ("" if none), `host` the page's host.
[[nodiscard]] LanguageGuess DetectLanguage(std::string_view declared, std::string_view host,
                                           std::string_view text);
// The same, with the words of the text already counted (the first
// kLanguageSampleTokens tokens).
[[nodiscard]] LanguageGuess DetectLanguage(std::string_view declared, std::string_view host,
                                           const std::vector<std::pair<std::string_view, uint32_t>>& counts);

// Whether `word` (lower-case token) is among the frequent words of
// `language` (used as stop words by the description scorer).
[[nodiscard]] bool IsFrequentWord(std::string_view language, std::string_view word);
// The same, given the word's ShortStringHash (common/base/string_hash.h).
[[nodiscard]] bool IsFrequentWord(std::string_view language, std::string_view word, uint64_t word_hash);

}  // namespace crawl::fetcher
