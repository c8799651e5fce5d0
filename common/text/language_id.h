// The language of a text from the text itself (docs/DESIGN.md §6), over
// CLD2 with its full tables (Debian libcld2-0: libcld2_full loaded before
// libcld2, see common/CMakeLists.txt), for pages and for queries.
//
// Language codes are what FetchRecord.language records: the primary
// language subtag of BCP 47, lower-case, so ISO 639-1 where the language
// has a two-letter code ("en", "ja") and ISO 639-2/3 only where it has none
// ("haw", "ceb"). Written one way whatever the source:
//   - Chinese is "zh", Simplified and Traditional alike (CLD2's "zh-Hant",
//     a declared "zh-TW"): the script is no language, no stemmer exists for
//     either and the tokenizer treats both alike.
//   - Norwegian Bokmål is "no" (the macrolanguage code the country TLD and
//     CLD2 give; a declared "nb" becomes "no"), Nynorsk is "nn". Both stem
//     with Snowball's "norwegian" (common/text/stemmer.h).
//   - Withdrawn codes take their current form: "iw" -> "he", "ji" -> "yi",
//     "in" -> "id", "jw" -> "jv", "mo" -> "ro".
//
// Pure, reentrant and thread-safe (CLD2 keeps no state between calls).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace crawl::text {

// Longest text handed to CLD2 by IdentifyLanguage; longer input is cut
// (at a character boundary) to its first kMaxIdentifiedBytes bytes.
inline constexpr std::size_t kMaxIdentifiedBytes = 64 * 1024;

// What is known of the text besides its letters; each boosts the languages
// it names, none is trusted over clear text.
struct LanguageHints {
  // A Content-Language value or the document's declared language ("de",
  // "mi,en"); "" if none.
  std::string_view content_language;
  // The last label of the host ("de", "com"); "" if none.
  std::string_view tld;
  // CLD2's best guess even for text too short to judge (a query of a few
  // words, where CLD2 would otherwise say nothing); never reliable then.
  bool best_effort = false;
};

struct TextLanguage {
  // The language of most of the text (normalized as above); "" if CLD2
  // knows none (too little text, no letters, a language it lacks).
  std::string language;
  // CLD2 judged `language` clearly more likely than the next best.
  bool reliable = false;
  // Letter bytes CLD2 scored (no spaces, digits or punctuation).
  int text_bytes = 0;
  // The three most frequent languages and their shares of the letters
  // (0-100), most first; "" / 0 past the last one.
  std::array<std::string, 3> top;
  std::array<int, 3> percent{};

  // The share (0-100) of `code` (normalized) among the top three; 0 if
  // absent.
  [[nodiscard]] int PercentOf(std::string_view code) const;
};

// The language of UTF-8 plain text (no markup). Invalid UTF-8 is scored up
// to its first invalid byte.
[[nodiscard]] TextLanguage IdentifyLanguage(std::string_view text, const LanguageHints& hints = {});

// The language most text on the web in the script of `text`'s first letter
// is written in, among those with a stemmer: "ru" for Cyrillic, "el" Greek,
// "ar" Arabic, "hy" Armenian, "hi" Devanagari, "ta" Tamil; "" for other
// scripts (Latin is written in too many). A last guess for a query CLD2
// cannot read.
[[nodiscard]] std::string LanguageOfScript(std::string_view text);

// A language tag as the crawler records it: lower-cased primary subtag of
// "en-US", "zh_TW", "IW" with the rules above ("en", "zh", "he"); "" if it
// is no language code (not 2-3 ASCII letters, or "un", "und", "xx", "mul",
// "zxx").
[[nodiscard]] std::string NormalizeLanguageCode(std::string_view tag);

// Whether two language codes are written in different scripts: no script
// CLD2 recognises the one in is one it recognises the other in ("ja" and
// "fr" differ; "sr" (Cyrillic and Latin) and "hr" do not; Chinese,
// Japanese and Korean share CLD2's Han script class). False when either is
// unknown to CLD2.
[[nodiscard]] bool ScriptsDiffer(std::string_view a, std::string_view b);

}  // namespace crawl::text
