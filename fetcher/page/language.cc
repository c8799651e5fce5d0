// Page language (language.h).
#include "fetcher/page/language.h"

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/flat_string_map.h"
#include "common/base/string_hash.h"
#include "common/text/tokenizer.h"
#include "fetcher/page/frequent_words.h"

namespace crawl::fetcher {
namespace {

// word -> bit i set if it is in FrequentWordLists()[i], by ShortStringHash.
const FlatStringMap<uint32_t>& WordMasks() {
  static const auto* masks = [] {
    auto* m = new FlatStringMap<uint32_t>();
    const auto lists = FrequentWordLists();
    for (std::size_t i = 0; i < lists.size(); ++i) {
      for (std::string_view w : lists[i].words) *m->Insert(w, ShortStringHash(w)).first |= 1u << i;
    }
    return m;
  }();
  return *masks;
}

}  // namespace

std::string LanguageFromHost(std::string_view host) {
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  const std::size_t dot = host.rfind('.');
  if (dot == std::string_view::npos) return {};
  const std::string_view tld = host.substr(dot + 1);
  static constexpr std::pair<std::string_view, std::string_view> kTlds[] = {
      {"de", "de"}, {"at", "de"}, {"li", "de"}, {"fr", "fr"}, {"es", "es"}, {"mx", "es"}, {"ar", "es"},
      {"cl", "es"}, {"co", "es"}, {"pe", "es"}, {"ve", "es"}, {"uy", "es"}, {"it", "it"}, {"sm", "it"},
      {"nl", "nl"}, {"pt", "pt"}, {"br", "pt"}, {"ao", "pt"}, {"mz", "pt"}, {"ru", "ru"}, {"su", "ru"},
      {"by", "ru"}, {"uk", "en"}, {"us", "en"}, {"au", "en"}, {"nz", "en"}, {"ie", "en"}, {"se", "sv"},
      {"dk", "da"}, {"no", "no"}, {"fi", "fi"}, {"hu", "hu"}, {"ro", "ro"}, {"tr", "tr"}, {"gr", "el"},
      {"pl", "pl"}, {"cz", "cs"}, {"jp", "ja"}, {"cn", "zh"}, {"kr", "ko"}, {"lt", "lt"}, {"id", "id"},
  };
  for (const auto& [t, lang] : kTlds) {
    if (tld.size() == t.size() && (tld[0] | 0x20) == t[0] && (tld[1] | 0x20) == t[1])
      return std::string(lang);
  }
  return {};
}

std::string LanguageFromWordCounts(const std::vector<std::pair<std::string_view, uint32_t>>& counts) {
  const auto& masks = WordMasks();
  const auto lists = FrequentWordLists();
  std::vector<std::size_t> covered(lists.size(), 0);
  std::size_t total = 0;
  for (const auto& [word, n] : counts) {
    const std::size_t bytes = word.size() * n;
    total += bytes;
    const uint32_t* mask = masks.Find(word, ShortStringHash(word));
    if (mask == nullptr) continue;
    for (std::size_t i = 0; i < lists.size(); ++i) {
      if (*mask & (1u << i)) covered[i] += bytes;
    }
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < lists.size(); ++i) {
    if (covered[i] > covered[best]) best = i;
  }
  if (total == 0 || static_cast<double>(covered[best]) < kMinWordShare * static_cast<double>(total))
    return {};
  return std::string(lists[best].language);
}

std::string LanguageFromWords(std::string_view text) {
  std::unordered_map<std::string, uint32_t> counted;
  std::size_t tokens = 0;
  std::string token;
  std::size_t pos = 0;
  while (tokens < kLanguageSampleTokens && text::NextToken(text, &pos, &token)) {
    ++tokens;
    ++counted[token];
  }
  std::vector<std::pair<std::string_view, uint32_t>> counts(counted.begin(), counted.end());
  return LanguageFromWordCounts(counts);
}

namespace {
template <typename Guess>
LanguageGuess Detect(std::string_view declared, std::string_view host, Guess&& guess) {
  if (!declared.empty()) return {std::string(declared), "html"};
  if (std::string from_tld = LanguageFromHost(host); !from_tld.empty()) return {std::move(from_tld), "tld"};
  if (std::string from_words = guess(); !from_words.empty()) return {std::move(from_words), "words"};
  return {};
}
}  // namespace

LanguageGuess DetectLanguage(std::string_view declared, std::string_view host, std::string_view text) {
  return Detect(declared, host, [&] { return LanguageFromWords(text); });
}

LanguageGuess DetectLanguage(std::string_view declared, std::string_view host,
                             const std::vector<std::pair<std::string_view, uint32_t>>& counts) {
  return Detect(declared, host, [&] { return LanguageFromWordCounts(counts); });
}

bool IsFrequentWord(std::string_view language, std::string_view word) {
  return IsFrequentWord(language, word, ShortStringHash(word));
}

bool IsFrequentWord(std::string_view language, std::string_view word, uint64_t word_hash) {
  const uint32_t* mask = WordMasks().Find(word, word_hash);
  if (mask == nullptr) return false;
  const auto lists = FrequentWordLists();
  for (std::size_t i = 0; i < lists.size(); ++i) {
    if (lists[i].language == language) return (*mask & (1u << i)) != 0;
  }
  return false;
}

}  // namespace crawl::fetcher
