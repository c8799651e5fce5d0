// Word tokens of UTF-8 text: the index terms of pages (mini index,
// description, text hash) and of queries and snippets (docs/DESIGN.md §6),
// so pages and queries are cut the same way.
//
// A word is a maximal run of word characters: letters, combining marks and
// decimal digits of any script (Unicode general categories L, M, Nd).
// Everything else (spaces, punctuation, symbols, U+FFFD, invalid bytes)
// separates words. A word with non-ASCII characters is brought to NFKC with
// full case folding (ICU's nfkc_cf: "ＡＢＣ" -> "abc", half-width katakana to
// full width, "ﬁ" -> "fi", "ß" -> "ss", final sigma -> sigma); ASCII words
// are lower-cased. CaseFolding::kTurkic folds I to dotless ı and İ to i
// (Turkish, Azeri). A word is then cut where its script changes between
// three kinds, each cut its own way:
//  - scripts written with spaces (Latin, Cyrillic, Hangul, ...): the run is
//    one token;
//  - Han and kana (Chinese, Japanese): every character and every pair of
//    neighbours, interleaved: "東京都" -> 東, 東京, 京, 京都, 都. Any
//    substring of a run, cut the same way, is a run of consecutive tokens
//    of the run's cut, so one-character words, two-character words and
//    whole clauses find their page (as a phrase, at consecutive positions);
//  - Thai, Lao, Khmer and Myanmar: ICU's dictionary word breaker.
// Tokens longer than kMaxTokenBytes are skipped (no one searches for them).
//
// Pure, reentrant; linear in the input (a run of word characters is cut in
// pieces of at most kMaxRunBytes, so memory is bounded too).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace crawl::text {

inline constexpr std::size_t kMaxTokenBytes = 64;
// A longer run of word characters is cut into pieces of about this size (at
// a character boundary) before normalisation and segmentation; a word or a
// character pair across a cut is lost, which only very long runs have.
inline constexpr std::size_t kMaxRunBytes = 16384;

// How upper case folds: kTurkic maps I to ı and İ to i (Turkish, Azeri).
enum class CaseFolding : uint8_t { kDefault, kTurkic };

// The case folding for a page or query language (ISO 639-1 code, "tr",
// "az-Latn" ...): kTurkic for Turkish and Azeri, else kDefault.
[[nodiscard]] CaseFolding CaseFoldingFor(std::string_view iso_language);

// Reads the next token of `text` at or after *pos into *token (replacing its
// contents) and moves *pos past it. False at the end. *pos starts at 0 (or
// any character boundary) and is otherwise a cursor only NextToken reads:
// inside a run cut into several tokens it also counts the tokens given (the
// run's cut is kept per thread, so reading a run stays linear).
bool NextToken(std::string_view text, std::size_t* pos, std::string* token,
               CaseFolding folding = CaseFolding::kDefault);

// The same tokens as NextToken, as views: into `text` itself when the token
// is a run of ASCII letters and digits with no upper case (most words; no
// copy), else into *scratch (valid until the next call with it).
bool NextTokenView(std::string_view text, std::size_t* pos, std::string* scratch, std::string_view* token,
                   CaseFolding folding = CaseFolding::kDefault);

namespace internal {
// Receives one token (the type-erased callback of the non-ASCII path).
using TokenSink = void (*)(void* context, std::string_view token);
// Calls sink for every token of text[from, end): the path ForEachToken takes
// from the first block with a byte >= 0x80. `from` is a character boundary.
void TokensFrom(std::string_view text, std::size_t from, std::string* scratch, CaseFolding folding,
                TokenSink sink, void* context);
// An ASCII token with upper case, folded into *scratch (I -> ı for kTurkic,
// so the folded token can be longer).
std::string_view FoldAscii(std::string_view token, CaseFolding folding, std::string* scratch);
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
void ForEachToken(std::string_view text, std::string* scratch, CaseFolding folding, F&& f) {
  const std::size_t n = text.size();
  std::size_t begin = 0;  // of the token being read, if in_token
  bool in_token = false, upper = false;
  // A text whose length is a multiple of 64 and ends in a word gets one more
  // block, all separators, to end that word: one place calls f.
  for (std::size_t base = 0; base < n || (in_token && base == n); base += 64) {
    const internal::BlockMasks m = internal::AsciiBlockMasks(text, base);
    if (m.high != 0) {
      using Fn = std::remove_reference_t<F>;
      internal::TokensFrom(
          text, in_token ? begin : base, scratch, folding,
          [](void* context, std::string_view token) { (*static_cast<Fn*>(context))(token); }, &f);
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
        if (folding == CaseFolding::kDefault) {
          scratch->assign(token);
          for (char& c : *scratch) c = static_cast<char>(c + ((c >= 'A' && c <= 'Z') ? 32 : 0));
          token = *scratch;
        } else {
          token = internal::FoldAscii(token, folding, scratch);
          if (token.size() > kMaxTokenBytes) continue;  // ı is two bytes
        }
      }
      f(token);
    }
    if (in_token) upper = upper || (m.upper & from) != 0;
  }
}

// The same with the default case folding.
template <typename F>
void ForEachToken(std::string_view text, std::string* scratch, F&& f) {
  ForEachToken(text, scratch, CaseFolding::kDefault, f);
}

// The same, with its own scratch string.
template <typename F>
void ForEachToken(std::string_view text, CaseFolding folding, F&& f) {
  std::string scratch;
  ForEachToken(text, &scratch, folding, f);
}
template <typename F>
void ForEachToken(std::string_view text, F&& f) {
  std::string scratch;
  ForEachToken(text, &scratch, CaseFolding::kDefault, f);
}

// Whether code point `cp` is a word character (see above).
[[nodiscard]] bool IsWordCodePoint(uint32_t cp);

// Simple lower-case form of `cp` (Unicode's one-to-one mapping; tokens use
// the full case folding above).
[[nodiscard]] uint32_t LowerCodePoint(uint32_t cp);

}  // namespace crawl::text
