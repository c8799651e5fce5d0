// The language of a page (docs/DESIGN.md §6), from its declaration and its
// text, in this order:
//   1. The page's declaration (<html lang>, xml:lang, else <meta http-equiv=
//      "content-language">, found by fetcher/page/html_links.h), when its
//      own frequent words confirm it (ConfirmedByFrequentWords) or CLD2 does
//      not overrule it (DeclarationOverruled): source "html".
//   2. English, for an undeclared page whose first tokens are at least
//      kEnglishWordShare English frequent words (CLD2 is not asked): source
//      "text".
//   3. The language CLD2 reliably identifies in a sample of the text
//      (common/text/language_id.h): the title and the first
//      kLanguageSampleBytes (or kLanguageRetryBytes) of the body: source
//      "text".
//   4. The language of the host's country TLD: source "tld".
//   5. When CLD2 named no language at all, the language most text in the
//      script of the sample's first letter is written in
//      (text::LanguageOfScript: Cyrillic "ru", Greek "el", ...): source
//      "script".
//   6. Otherwise "" (source ""): too little text, and no country TLD.
// The declaration and the TLD are also CLD2's hints, so close languages
// (Norwegian and Danish, Serbian and Croatian) lean towards them.
//
// Codes are those of common/text/language_id.h ("zh" for both Chinese
// scripts, "no" for Bokmål, "nn" for Nynorsk).
//
// Pure and reentrant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/text/language_id.h"

namespace crawl::fetcher {

// Body bytes CLD2 reads first (CLD2 costs ~25 µs per KB plus ~5 µs a call:
// the whole page is not needed). The body is read again up to
// kLanguageRetryBytes when the first part does not decide: CLD2 calls it
// unreliable (navigation, code, a short first part), or it names another
// language than the declaration on too few letters to overrule it.
inline constexpr std::size_t kLanguageSampleBytes = 256;
inline constexpr std::size_t kLanguageRetryBytes = 2048;

// Same-script overruling of a declaration (DeclarationOverruled) needs this
// much identified text (letter bytes) and this share of it in one language.
inline constexpr int kOverruleMinTextBytes = 400;
inline constexpr int kOverruleMinPercent = 80;

// A declaration of a language with a frequent-word list (the Latin-script
// ones of fetcher/page/frequent_words.h) is confirmed without CLD2 when, in
// the title and the first kConfirmSampleBytes of the body, other scripts
// are under a tenth of the letters and the language's frequent words are
// kConfirmShare of at least kConfirmMinTokens tokens: the declared language
// is then a large part of the text, so neither overrule rule can apply.
// Tuned on the Debian installation guide's translations (under 1% of
// 2 KB samples of de, es, fr, it, nl, pt, ca and ro text reach 12% of
// English frequent words) and the documentation corpus of
// tests/bench/processing.sh (73% of its English pages are confirmed). This
// spares CLD2 (~35 µs) on most pages in those languages.
inline constexpr std::size_t kConfirmSampleBytes = 2048;
inline constexpr double kConfirmShare = 0.12;
inline constexpr std::size_t kConfirmMinTokens = 30;
// An undeclared page whose first tokens are this share of English frequent
// words (and Latin letters) is English without asking CLD2.
inline constexpr double kEnglishWordShare = 0.25;

struct LanguageGuess {
  std::string language;  // common/text/language_id.h codes; "" if unknown
  std::string source;    // "html", "text", "tld", "script" or ""
};

// Language of a country-code TLD whose country has one dominant language
// ("de" -> "de", "at" -> "de", "br" -> "pt", "uk" -> "en"); "" for generic
// TLDs (.com, .org, .test) and multilingual countries (.ch, .be, .ca).
[[nodiscard]] std::string LanguageFromHost(std::string_view host);

// Whether the text's language `found` overrules the declared language
// `declared` (normalized): CLD2 is reliable, names another language, and
// either
//   - writes it in another script than `declared` (a Japanese page declared
//     "fr") with at least half the letters, or
//   - finds it in kOverruleMinPercent of at least kOverruleMinTextBytes
//     letters while `declared` has under 10% (an English CMS template's
//     lang="en" on a German article), unless the two are a pair CLD2 itself
//     confuses (no/nn/da, sr/hr/bs, id/ms).
[[nodiscard]] bool DeclarationOverruled(std::string_view declared, const text::TextLanguage& found);

// Whether `declared` (normalized) is confirmed by its frequent words as
// above (at least `share` of the tokens).
[[nodiscard]] bool ConfirmedByFrequentWords(std::string_view declared, std::string_view title,
                                            std::string_view body, double share = kConfirmShare);

// `declared` is the page's declaration ("" if none; "en-US" and "EN" are
// normalized), `host` the page's host, `title` and `body` its decoded text
// (UTF-8, no markup).
[[nodiscard]] LanguageGuess DetectLanguage(std::string_view declared, std::string_view host,
                                           std::string_view title, std::string_view body);

// Whether `word` (lower-case token) is among the frequent words of
// `language` (fetcher/page/frequent_words.h; the description scorer's stop
// words). False for languages without a list.
[[nodiscard]] bool IsFrequentWord(std::string_view language, std::string_view word);
// The same, given the word's ShortStringHash (common/base/string_hash.h).
[[nodiscard]] bool IsFrequentWord(std::string_view language, std::string_view word, uint64_t word_hash);

}  // namespace crawl::fetcher
