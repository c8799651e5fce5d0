// Word tokens of UTF-8 text (tokenizer.h).
#include "common/text/tokenizer.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace crawl::text {
namespace {

// Per ASCII byte: 1 = word character.
constexpr std::array<uint8_t, 128> MakeAsciiWord() {
  std::array<uint8_t, 128> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = 1;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = 1;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = 1;
  return t;
}
constexpr std::array<uint8_t, 128> kAsciiWord = MakeAsciiWord();

// The end of the run of ASCII letters and digits at text[i]; sets *upper
// when it holds an upper-case letter. 16 bytes at a time while 16 are left.
std::size_t AsciiWordEnd(std::string_view text, std::size_t i, bool* upper) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
#if defined(__SSE2__)
  // Signed compares: bytes of 0x80 and up are negative, outside every range.
  auto in = [](__m128i v, char lo, char hi) {
    return _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(static_cast<char>(lo - 1))),
                         _mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>(hi + 1)), v));
  };
  while (i + 16 <= n) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i caps = in(v, 'A', 'Z');
    const __m128i word = _mm_or_si128(_mm_or_si128(in(v, '0', '9'), in(v, 'a', 'z')), caps);
    const auto words = static_cast<uint32_t>(_mm_movemask_epi8(word));
    const uint32_t end = ~words & 0xFFFFu;
    const uint32_t inside = end == 0 ? 0xFFFFu : (1u << std::countr_zero(end)) - 1;
    if ((static_cast<uint32_t>(_mm_movemask_epi8(caps)) & inside) != 0) *upper = true;
    if (end != 0) return i + static_cast<std::size_t>(std::countr_zero(end));
    i += 16;
  }
#endif
  for (; i < n && s[i] < 0x80 && kAsciiWord[s[i]]; ++i) {
    if (s[i] >= 'A' && s[i] <= 'Z') *upper = true;
  }
  return i;
}

// Decodes the UTF-8 character at text[i]; returns its length (1 for an
// invalid byte, with *cp = U+FFFD).
std::size_t Decode(std::string_view text, std::size_t i, uint32_t* cp) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  const unsigned char b = s[i];
  auto cont = [&](std::size_t k) { return i + k < n && (s[i + k] & 0xC0) == 0x80; };
  if (b >= 0xC2 && b <= 0xDF && cont(1)) {
    *cp = ((b & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu);
    return 2;
  }
  if (b >= 0xE0 && b <= 0xEF && cont(1) && cont(2)) {
    *cp = ((b & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu);
    if (*cp < 0x800) *cp = 0xFFFD;
    return 3;
  }
  if (b >= 0xF0 && b <= 0xF4 && cont(1) && cont(2) && cont(3)) {
    *cp = ((b & 0x07u) << 18) | ((s[i + 1] & 0x3Fu) << 12) | ((s[i + 2] & 0x3Fu) << 6) | (s[i + 3] & 0x3Fu);
    if (*cp < 0x10000 || *cp > 0x10FFFF) *cp = 0xFFFD;
    return 4;
  }
  *cp = 0xFFFD;
  return 1;
}

void Append(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

bool IsWordCodePoint(uint32_t cp) {
  if (cp < 0x80) return kAsciiWord[cp] != 0;
  if (cp == 0xAA || cp == 0xB5 || cp == 0xBA) return true;
  if (cp < 0xC0) return false;
  if (cp == 0xD7 || cp == 0xF7) return false;
  if (cp <= 0x2AF) return true;  // Latin-1 letters, Latin Extended-A/B, IPA
  if (cp >= 0x370 && cp <= 0x3FF) return cp != 0x37E && cp != 0x387 && cp != 0x375;     // Greek
  if (cp >= 0x400 && cp <= 0x52F) return !(cp >= 0x482 && cp <= 0x489);                 // Cyrillic
  if (cp >= 0x531 && cp <= 0x587) return cp < 0x559 || cp > 0x55F;                      // Armenian
  if (cp >= 0x5D0 && cp <= 0x5F2) return true;                                          // Hebrew
  if (cp >= 0x620 && cp <= 0x6FF) return !(cp >= 0x6D4 && cp <= 0x6ED) || cp == 0x6D5;  // Arabic
  if (cp >= 0x900 && cp <= 0xDFF) return cp != 0x964 && cp != 0x965;                    // Indic scripts
  if (cp >= 0xE01 && cp <= 0xE59) return cp != 0xE3F && cp != 0xE4F;                    // Thai
  if (cp >= 0x10A0 && cp <= 0x10FF) return true;                                        // Georgian
  if (cp >= 0x1E00 && cp <= 0x1FFF) return true;          // Latin/Greek extended
  if (cp >= 0x3041 && cp <= 0x30FF) return cp != 0x30FB;  // kana
  if (cp >= 0x3400 && cp <= 0x9FFF) return true;          // CJK ideographs
  if (cp >= 0xAC00 && cp <= 0xD7AF) return true;          // Hangul
  if (cp >= 0xF900 && cp <= 0xFAFF) return true;          // CJK compatibility
  if ((cp >= 0xFF10 && cp <= 0xFF19) || (cp >= 0xFF21 && cp <= 0xFF3A) || (cp >= 0xFF41 && cp <= 0xFF5A))
    return true;                                    // full-width alphanumerics
  if (cp >= 0x20000 && cp <= 0x3134F) return true;  // CJK extensions
  return false;
}

uint32_t LowerCodePoint(uint32_t cp) {
  if (cp < 0x80) return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
  if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return cp + 0x20;
  if (cp >= 0x100 && cp <= 0x17F) {
    if (cp == 0x130) return 'i';
    if (cp == 0x178) return 0xFF;
    const bool even_upper = (cp <= 0x137) || (cp >= 0x14A && cp <= 0x177);
    const bool odd_upper = (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E);
    if (even_upper && cp % 2 == 0) return cp + 1;
    if (odd_upper && cp % 2 == 1) return cp + 1;
    return cp;
  }
  if (cp >= 0x391 && cp <= 0x3AB && cp != 0x3A2) return cp + 0x20;  // Greek capitals
  if (cp == 0x386) return 0x3AC;
  if (cp >= 0x388 && cp <= 0x38A) return cp + 0x25;
  if (cp == 0x38C) return 0x3CC;
  if (cp == 0x38E || cp == 0x38F) return cp + 0x3F;
  if (cp >= 0x410 && cp <= 0x42F) return cp + 0x20;  // Cyrillic capitals
  if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;
  if (cp >= 0x460 && cp <= 0x4FF && cp % 2 == 0 && !(cp >= 0x482 && cp <= 0x489) && cp != 0x4C0)
    return cp + 1;
  if (cp >= 0xFF21 && cp <= 0xFF3A) return cp + 0x20;
  return cp;
}

bool NextToken(std::string_view text, std::size_t* pos, std::string* token) {
  const std::size_t n = text.size();
  std::size_t i = *pos;
  while (i < n) {
    token->clear();
    // Skip separators.
    while (i < n) {
      const auto b = static_cast<unsigned char>(text[i]);
      if (b < 0x80) {
        if (kAsciiWord[b]) break;
        ++i;
        continue;
      }
      uint32_t cp;
      const std::size_t len = Decode(text, i, &cp);
      if (IsWordCodePoint(cp)) break;
      i += len;
    }
    if (i >= n) break;
    // Read the word.
    while (i < n) {
      const auto b = static_cast<unsigned char>(text[i]);
      if (b < 0x80) {
        if (!kAsciiWord[b]) break;
        // A run of ASCII word bytes, appended at once and lower-cased in place.
        std::size_t j = i + 1;
        while (j < n && static_cast<unsigned char>(text[j]) < 0x80 &&
               kAsciiWord[static_cast<unsigned char>(text[j])])
          ++j;
        const std::size_t from = token->size();
        token->append(text.data() + i, j - i);
        for (std::size_t k = from; k < token->size(); ++k) {
          char& c = (*token)[k];
          if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
        }
        i = j;
        continue;
      }
      uint32_t cp;
      const std::size_t len = Decode(text, i, &cp);
      if (!IsWordCodePoint(cp)) break;
      Append(LowerCodePoint(cp), token);
      i += len;
    }
    if (token->size() <= kMaxTokenBytes) {
      *pos = i;
      return true;
    }
  }
  *pos = n;
  token->clear();
  return false;
}

namespace internal {

#if defined(__SSE2__)
namespace {
// Signed compares: bytes of 0x80 and up are negative, outside every range.
__m128i InRange(__m128i v, char lo, char hi) {
  return _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(static_cast<char>(lo - 1))),
                       _mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>(hi + 1)), v));
}
// The masks of 16 bytes, shifted right by `drop` (bytes before the ones
// wanted) and placed at bit `at`.
void AddChunk(__m128i v, int drop, int at, BlockMasks* m) {
  // A letter of either case is 'a'..'z' with the 0x20 bit set.
  const __m128i letter = InRange(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z');
  const __m128i word = _mm_or_si128(letter, InRange(v, '0', '9'));
  auto bits = [&](__m128i x) { return uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(x))} >> drop << at; };
  m->word |= bits(word);
  m->upper |= bits(InRange(v, 'A', 'Z'));
  m->high |= bits(v);
}
}  // namespace
#endif

BlockMasks AsciiBlockMasks(std::string_view text, std::size_t base) {
  const std::size_t n = std::min<std::size_t>(64, text.size() - base);
  const char* s = text.data() + base;
  BlockMasks m{0, 0, 0};
#if defined(__SSE2__)
  std::size_t k = 0;
  for (; k + 16 <= n; k += 16)
    AddChunk(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k)), 0, static_cast<int>(k), &m);
  if (k == n) return m;
  // The last 1-15 bytes of the text: its last 16 loaded, the bytes before
  // these dropped from the masks; a text shorter than 16 is copied first.
  const auto tail = static_cast<int>(n - k);
  if (text.size() >= 16) {
    const auto* last16 = reinterpret_cast<const __m128i*>(text.data() + text.size() - 16);
    AddChunk(_mm_loadu_si128(last16), 16 - tail, static_cast<int>(k), &m);
  } else {
    alignas(16) char padded[16] = {};
    std::memcpy(padded, s + k, static_cast<std::size_t>(tail));
    AddChunk(_mm_load_si128(reinterpret_cast<const __m128i*>(padded)), 0, static_cast<int>(k), &m);
  }
#else
  for (std::size_t k = 0; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[k]);
    const uint64_t bit = uint64_t{1} << k;
    if (b >= 0x80)
      m.high |= bit;
    else if (kAsciiWord[b] != 0)
      m.word |= bit;
    if (b >= 'A' && b <= 'Z') m.upper |= bit;
  }
#endif
  return m;
}

}  // namespace internal

bool NextTokenView(std::string_view text, std::size_t* pos, std::string* scratch, std::string_view* token) {
  const std::size_t n = text.size();
  std::size_t i = *pos;
  while (i < n) {
    // Separators, as NextToken skips them.
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      if (!kAsciiWord[b]) {
        ++i;
        continue;
      }
    } else {
      uint32_t cp;
      const std::size_t len = Decode(text, i, &cp);
      if (!IsWordCodePoint(cp)) {
        i += len;
        continue;
      }
    }
    // A word starts at i: a run of ASCII letters and digits that ends at an
    // ASCII separator (or the end) is its own token, lower-cased into
    // `scratch` when it holds upper case and a view into the text otherwise.
    bool upper = false;
    const std::size_t j = AsciiWordEnd(text, i, &upper);
    if (j == n || static_cast<unsigned char>(text[j]) < 0x80) {
      if (j - i > kMaxTokenBytes) {
        i = j;  // too long: skipped, as NextToken does
        continue;
      }
      *pos = j;
      if (!upper) {
        *token = text.substr(i, j - i);
        return true;
      }
      scratch->assign(text.data() + i, j - i);
      for (char& c : *scratch) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
      }
      *token = *scratch;
      return true;
    }
    // A word with non-ASCII characters: NextToken builds it from here.
    *pos = i;
    const bool found = NextToken(text, pos, scratch);
    *token = *scratch;
    return found;
  }
  *pos = n;
  *token = {};
  return false;
}

}  // namespace crawl::text
