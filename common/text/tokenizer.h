// Word tokens of UTF-8 text for the mini index, the language guess, the
// description and the text hash (docs/DESIGN.md §6).
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

#include <bit>
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

namespace internal {
// Per byte of text[base, base + 64) (bit k for byte base + k): ASCII
// letters and digits, upper-case ASCII letters, bytes >= 0x80. Bits past
// the end of the text are 0 (separators). base <= text.size().
struct BlockMasks {
  uint64_t word, upper, high;
};
BlockMasks AsciiBlockMasks(std::string_view text, std::size_t base);
}  // namespace internal

// Calls f(std::string_view token) for every token of `text`, in order, with
// NextTokenView's views (a lowered token lives in *scratch until the next
// call). A text of ASCII is read 64 bytes at a time: a token is a run of
// word bits in the block's mask, found by the bits where the run starts and
// ends (two bit operations a token, where NextTokenView tests every byte);
// from a block with a byte >= 0x80 on, NextTokenView reads the rest.
template <typename F>
void ForEachToken(std::string_view text, std::string* scratch, F&& f) {
  const std::size_t n = text.size();
  std::size_t begin = 0;  // of the token being read, if in_token
  bool in_token = false, upper = false;
  // A text whose length is a multiple of 64 and ends in a word gets one more
  // block, all separators, to end that word: one place calls f.
  for (std::size_t base = 0; base < n || (in_token && base == n); base += 64) {
    const internal::BlockMasks m = internal::AsciiBlockMasks(text, base);
    if (m.high != 0) {
      std::size_t pos = in_token ? begin : base;
      std::string_view token;
      while (NextTokenView(text, &pos, scratch, &token)) f(token);
      return;
    }
    // Bits where a run of word bytes starts or ends (the byte after it).
    uint64_t edges = m.word ^ ((m.word << 1) | (in_token ? 1u : 0u));
    uint64_t from = ~uint64_t{0};  // bits of this block inside the token being read
    // The edges alternate: a start (unless a token goes on from the block
    // before), then its end.
    while (edges != 0) {
      if (!in_token) {
        const int at = std::countr_zero(edges);
        edges &= edges - 1;
        begin = base + static_cast<std::size_t>(at);
        upper = false;
        from = ~uint64_t{0} << at;
        if (edges == 0) {  // the token goes on into the next block
          in_token = true;
          break;
        }
      }
      in_token = false;
      const int at = std::countr_zero(edges);
      edges &= edges - 1;
      const std::size_t end = base + static_cast<std::size_t>(at);
      if (end - begin > kMaxTokenBytes) continue;
      std::string_view token(text.data() + begin, end - begin);
      if (upper || (m.upper & from & ((uint64_t{1} << at) - 1)) != 0) {
        scratch->assign(token);
        for (char& c : *scratch) c = static_cast<char>(c + ((c >= 'A' && c <= 'Z') ? 32 : 0));
        token = *scratch;
      }
      f(token);
    }
    if (in_token) upper = upper || (m.upper & from) != 0;
  }
}

// The same, with its own scratch string.
template <typename F>
void ForEachToken(std::string_view text, F&& f) {
  std::string scratch;
  ForEachToken(text, &scratch, f);
}

// Whether code point `cp` is a word character (see above).
[[nodiscard]] bool IsWordCodePoint(uint32_t cp);

// Lower-case form of `cp` for the scripts above; other code points unchanged.
[[nodiscard]] uint32_t LowerCodePoint(uint32_t cp);

}  // namespace crawl::text
