// Word tokens of UTF-8 text for the mini index, the language guess, the
// description and the text hash (DESIGN.md section 6).
//
// A token is a maximal run of word characters: ASCII letters and digits and
// the letters/digits of the main non-ASCII scripts (Latin-1 and Latin
// Extended letters, Greek, Cyrillic, Armenian, Hebrew, Arabic, Indic, Thai,
// Hangul, kana, CJK ideographs, full-width alphanumerics). Everything else
// (spaces, punctuation, symbols, U+FFFD, invalid bytes) separates tokens.
// Tokens are lower-cased: ASCII, Latin-1, Latin Extended-A, Greek and
// Cyrillic (the scripts of the Snowball languages). CJK text is not
// segmented: a run of ideographs is one token. Tokens longer than
// kMaxTokenBytes are skipped (no one searches for them).
//
// Pure, reentrant; linear in the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace crawl::text {

inline constexpr std::size_t kMaxTokenBytes = 64;

// Reads the next token of `text` at or after *pos into *token (lower-cased,
// replacing its contents) and moves *pos past it. False at the end.
bool NextToken(std::string_view text, std::size_t* pos, std::string* token);

// The same tokens as NextToken, as views: into `text` itself when the token
// is a run of ASCII letters and digits with no upper case (most words; no
// copy), else into *scratch (valid until the next call with it).
bool NextTokenView(std::string_view text, std::size_t* pos, std::string* scratch, std::string_view* token);

// Calls f(std::string_view token) for every token of `text`, in order.
template <typename F>
void ForEachToken(std::string_view text, F&& f) {
  std::string scratch;
  std::string_view token;
  std::size_t pos = 0;
  while (NextTokenView(text, &pos, &scratch, &token)) f(token);
}

// Whether code point `cp` is a word character (see above).
[[nodiscard]] bool IsWordCodePoint(uint32_t cp);

// Lower-case form of `cp` for the scripts above; other code points unchanged.
[[nodiscard]] uint32_t LowerCodePoint(uint32_t cp);

}  // namespace crawl::text
