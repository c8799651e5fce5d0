// Page language (language.h).
#include "fetcher/page/language.h"

#include <cstdint>
#include <utility>

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

// The host's last label ("de" for "www.example.de."), the TLD hint.
std::string_view TopLabel(std::string_view host) {
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  const std::size_t dot = host.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : host.substr(dot + 1);
}

}  // namespace

std::string LanguageFromHost(std::string_view host) {
  const std::string_view tld = TopLabel(host);
  if (tld.size() != 2) return {};
  static constexpr std::pair<std::string_view, std::string_view> kTlds[] = {
      {"de", "de"}, {"at", "de"}, {"li", "de"}, {"fr", "fr"}, {"es", "es"}, {"mx", "es"}, {"ar", "es"},
      {"cl", "es"}, {"co", "es"}, {"pe", "es"}, {"ve", "es"}, {"uy", "es"}, {"it", "it"}, {"sm", "it"},
      {"nl", "nl"}, {"pt", "pt"}, {"br", "pt"}, {"ao", "pt"}, {"mz", "pt"}, {"ru", "ru"}, {"su", "ru"},
      {"by", "ru"}, {"uk", "en"}, {"us", "en"}, {"au", "en"}, {"nz", "en"}, {"ie", "en"}, {"se", "sv"},
      {"dk", "da"}, {"no", "no"}, {"fi", "fi"}, {"hu", "hu"}, {"ro", "ro"}, {"tr", "tr"}, {"gr", "el"},
      {"pl", "pl"}, {"cz", "cs"}, {"jp", "ja"}, {"cn", "zh"}, {"kr", "ko"}, {"lt", "lt"}, {"id", "id"},
      {"tw", "zh"}, {"th", "th"}, {"il", "he"}, {"ua", "uk"}, {"bg", "bg"}, {"rs", "sr"}, {"hr", "hr"},
      {"am", "hy"}, {"np", "ne"}, {"ee", "et"}, {"lv", "lv"}, {"sk", "sk"}, {"si", "sl"}, {"is", "is"},
      {"vn", "vi"}, {"sa", "ar"}, {"eg", "ar"}, {"ir", "fa"}, {"ge", "ka"},
  };
  for (const auto& [t, lang] : kTlds) {
    if (tld.size() == t.size() && (tld[0] | 0x20) == t[0] && (tld[1] | 0x20) == t[1])
      return std::string(lang);
  }
  return {};
}

namespace {

// Pairs CLD2 tells apart poorly: within one, the text never overrules the
// declaration.
bool Confusable(std::string_view a, std::string_view b) {
  static constexpr std::string_view kGroups[][3] = {{"no", "nn", "da"}, {"sr", "hr", "bs"}, {"id", "ms", ""}};
  for (const auto& group : kGroups) {
    bool has_a = false, has_b = false;
    for (std::string_view code : group) {
      has_a |= !code.empty() && code == a;
      has_b |= !code.empty() && code == b;
    }
    if (has_a && has_b) return true;
  }
  return false;
}

// The title, a line break and the body's first `body_bytes` bytes (cut at
// a character boundary).
std::string Sample(std::string_view title, std::string_view body, std::size_t body_bytes) {
  if (body.size() > body_bytes) {
    std::size_t end = body_bytes;
    while (end > 0 && (static_cast<unsigned char>(body[end]) & 0xC0) == 0x80) --end;
    body = body.substr(0, end);
  }
  std::string sample;
  sample.reserve(title.size() + 1 + body.size());
  sample.append(title).push_back('\n');
  sample.append(body);
  return sample;
}

}  // namespace

bool DeclarationOverruled(std::string_view declared, const text::TextLanguage& found) {
  if (!found.reliable || found.language.empty() || found.language == declared) return false;
  const int share = found.PercentOf(found.language);
  if (text::ScriptsDiffer(declared, found.language)) return share >= 50;
  return found.text_bytes >= kOverruleMinTextBytes && share >= kOverruleMinPercent &&
         found.PercentOf(declared) < 10 && !Confusable(declared, found.language);
}

bool ConfirmedByFrequentWords(std::string_view declared, std::string_view title, std::string_view body,
                              double share) {
  const auto lists = FrequentWordLists();
  uint32_t bit = 0;
  for (std::size_t i = 0; i < lists.size(); ++i) {
    if (lists[i].language == declared) bit = 1u << i;
  }
  // Only the lists of Latin-script languages: then the script test below
  // is all that rule A needs.
  if (bit == 0 || declared == "ru") return false;
  const std::string sample = Sample(title, body, kConfirmSampleBytes);
  // Other scripts: lead bytes of U+0340 and up (Greek, Cyrillic, CJK, ...)
  // against Latin letters (ASCII, and the leads of U+00C0-U+024F).
  std::size_t latin = 0, other = 0;
  for (const char c : sample) {
    const auto b = static_cast<unsigned char>(c);
    latin += ((b | 0x20) >= 'a' && (b | 0x20) <= 'z') || (b >= 0xC3 && b <= 0xC9);
    other += b >= 0xCD;
  }
  if (other * 10 >= latin) return false;
  const auto& masks = WordMasks();
  std::size_t tokens = 0, frequent = 0;
  std::string scratch;
  text::ForEachToken(sample, &scratch, [&](std::string_view token) {
    ++tokens;
    const uint32_t* mask = masks.Find(token, ShortStringHash(token));
    frequent += mask != nullptr && (*mask & bit) != 0;
  });
  return tokens >= kConfirmMinTokens && static_cast<double>(frequent) >= share * static_cast<double>(tokens);
}

LanguageGuess DetectLanguage(std::string_view declared_tag, std::string_view host, std::string_view title,
                             std::string_view body) {
  const std::string declared = text::NormalizeLanguageCode(declared_tag);
  if (ConfirmedByFrequentWords(declared, title, body)) return {declared, "html"};
  // Most undeclared pages are English, and English prose is mostly its
  // frequent words: at twice the share a declaration needs, no other
  // language's text comes near, and CLD2 (the larger cost) is not asked.
  if (declared.empty() && ConfirmedByFrequentWords("en", title, body, kEnglishWordShare))
    return {"en", "text"};
  text::LanguageHints hints;
  hints.content_language = declared;
  hints.tld = TopLabel(host);
  text::TextLanguage found = text::IdentifyLanguage(Sample(title, body, kLanguageSampleBytes), hints);
  const bool undecided = !found.reliable || (!declared.empty() && found.language != declared &&
                                             found.text_bytes < kOverruleMinTextBytes);
  if (undecided && body.size() > kLanguageSampleBytes) {
    found = text::IdentifyLanguage(Sample(title, body, kLanguageRetryBytes), hints);
  }
  if (!declared.empty()) {
    if (DeclarationOverruled(declared, found)) return {std::move(found.language), "text"};
    return {declared, "html"};
  }
  if (found.reliable) return {std::move(found.language), "text"};
  if (std::string from_tld = LanguageFromHost(host); !from_tld.empty()) return {std::move(from_tld), "tld"};
  // CLD2's full tables can say nothing at all of plain Russian prose (the
  // small ones read it): a text in a script one language dominates gets that
  // language rather than none, so its words are stemmed as its searches are.
  if (found.language.empty()) {
    if (std::string from_script = text::LanguageOfScript(Sample(title, body, kLanguageSampleBytes));
        !from_script.empty())
      return {std::move(from_script), "script"};
  }
  return {};
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
