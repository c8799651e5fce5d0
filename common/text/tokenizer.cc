// Word tokens of UTF-8 text (tokenizer.h).
#include "common/text/tokenizer.h"

#include <unicode/brkiter.h>
#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>
#include <vector>

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

// Decodes the UTF-8 character at text[i] (ASCII too); returns its length (1
// for an invalid byte, with *cp = U+FFFD).
std::size_t Decode(std::string_view text, std::size_t i, uint32_t* cp) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  const unsigned char b = s[i];
  if (b < 0x80) {
    *cp = b;
    return 1;
  }
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

// The ways a word character's run is cut (tokenizer.h).
enum class Kind : uint8_t { kNone, kSpaced, kCjk, kDict };

// Han ideographs (with the ideographic iteration and number marks) and kana,
// half-width katakana included.
bool IsCjk(uint32_t cp) {
  return (cp >= 0x3005 && cp <= 0x3007) || (cp >= 0x3021 && cp <= 0x3029) || (cp >= 0x3031 && cp <= 0x3035) ||
         (cp >= 0x303B && cp <= 0x303C) || (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x31F0 && cp <= 0x31FF) ||
         (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFF66 && cp <= 0xFF9F) || (cp >= 0x1B000 && cp <= 0x1B16F) ||
         (cp >= 0x20000 && cp <= 0x3FFFF) || (cp >= 0x2E80 && cp <= 0x2FDF);
}

// Thai, Lao, Myanmar (with its extensions) and Khmer (with its symbols):
// written without spaces between words, cut by ICU's dictionaries.
bool IsDict(uint32_t cp) {
  return (cp >= 0x0E00 && cp <= 0x0EFF) || (cp >= 0x1000 && cp <= 0x109F) || (cp >= 0x1780 && cp <= 0x17FF) ||
         (cp >= 0x19E0 && cp <= 0x19FF) || (cp >= 0xA9E0 && cp <= 0xA9FF) || (cp >= 0xAA60 && cp <= 0xAA7F);
}

// Letters, marks, decimal digits and letter numbers (Ⅻ, 〇).
constexpr uint32_t kWordCategories = U_GC_L_MASK | U_GC_M_MASK | U_GC_ND_MASK | U_GC_NL_MASK;

// Latin-1 letters (ª, µ, º, À-ÿ but × and ÷) are word characters.
constexpr bool Latin1Word(uint32_t cp) {
  return cp == 0xAA || cp == 0xB5 || cp == 0xBA || (cp >= 0xC0 && cp != 0xD7 && cp != 0xF7);
}

Kind KindOf(uint32_t cp) {
  if (cp < 0x80) return kAsciiWord[cp] ? Kind::kSpaced : Kind::kNone;
  // The separators of English pages (¶, ©, dashes, quotes, arrows, bullets,
  // box drawing, CJK and full-width punctuation) and Latin-1 without a call
  // into ICU: these blocks hold no letter, mark or digit.
  if (cp < 0x100) return Latin1Word(cp) ? Kind::kSpaced : Kind::kNone;
  if ((cp >= 0x2000 && cp <= 0x206F) || (cp >= 0x2190 && cp <= 0x2BFF) || (cp >= 0x3000 && cp <= 0x3004) ||
      (cp >= 0x3008 && cp <= 0x3020) || (cp >= 0xFF00 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20))
    return Kind::kNone;
  if ((U_MASK(u_charType(static_cast<UChar32>(cp))) & kWordCategories) == 0) return Kind::kNone;
  if (cp >= 0x3005 && IsCjk(cp)) return Kind::kCjk;
  if (cp >= 0x0E00 && IsDict(cp)) return Kind::kDict;
  return Kind::kSpaced;
}

bool IsMark(uint32_t cp) { return (U_MASK(u_charType(static_cast<UChar32>(cp))) & U_GC_M_MASK) != 0; }

// The end of the run of word characters at text[i] (a word character), at
// most kMaxRunBytes on (cut at a character boundary); *ascii tells whether
// it is all ASCII.
std::size_t RunEnd(std::string_view text, std::size_t i, bool* ascii) {
  const std::size_t n = text.size();
  const std::size_t limit = n - i > kMaxRunBytes ? i + kMaxRunBytes : n;
  *ascii = true;
  while (i < limit) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      if (!kAsciiWord[b]) break;
      ++i;
      continue;
    }
    uint32_t cp;
    const std::size_t len = Decode(text, i, &cp);
    if (KindOf(cp) == Kind::kNone) break;
    *ascii = false;
    i += len;
  }
  return i;
}

const icu::Normalizer2* NfkcCaseFold() {
  static const icu::Normalizer2* const nfkc_cf = [] {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFKCCasefoldInstance(status);
    return U_SUCCESS(status) ? n : nullptr;
  }();
  return nfkc_cf;
}

// The word breaker of this thread (created once: creating one loads the
// rules and costs far more than a page); null if ICU has none.
icu::BreakIterator* WordBreaker() {
  thread_local std::unique_ptr<icu::BreakIterator> breaker = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> b(
        icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status)) b.reset();
    return b;
  }();
  return breaker.get();
}

// Cuts a normalised run of word characters and hands its tokens to `emit`,
// views into `norm`.
template <typename Emit>
void CutRun(std::string_view norm, Emit&& emit) {
  const std::size_t n = norm.size();
  std::size_t i = 0;
  // Characters of a Han/kana piece: the offsets where each starts (a mark
  // belongs to the character before it).
  std::vector<uint32_t> starts;
  while (i < n) {
    uint32_t cp;
    std::size_t len = Decode(norm, i, &cp);
    Kind kind = KindOf(cp);
    if (kind == Kind::kNone) {  // NFKC can make separators (U+FDFA has spaces)
      i += len;
      continue;
    }
    // The piece of one kind at i.
    const std::size_t begin = i;
    if (kind == Kind::kCjk) starts.clear();
    while (i < n) {
      std::size_t l = Decode(norm, i, &cp);
      const Kind k = KindOf(cp);
      const bool mark = i > begin && k != Kind::kNone && IsMark(cp);
      if (k != kind && !mark) break;
      if (kind == Kind::kCjk && !mark) starts.push_back(static_cast<uint32_t>(i));
      i += l;
    }
    const std::string_view piece = norm.substr(begin, i - begin);
    if (kind == Kind::kSpaced) {
      if (piece.size() <= kMaxTokenBytes) emit(piece);
      continue;
    }
    if (kind == Kind::kDict) {
      if (icu::BreakIterator* breaker = WordBreaker()) {
        UErrorCode status = U_ZERO_ERROR;
        UText ut = UTEXT_INITIALIZER;
        utext_openUTF8(&ut, piece.data(), static_cast<int64_t>(piece.size()), &status);
        breaker->setText(&ut, status);
        if (U_SUCCESS(status)) {
          int32_t from = breaker->first();
          for (int32_t to = breaker->next(); to != icu::BreakIterator::DONE;
               from = to, to = breaker->next()) {
            const std::string_view word =
                piece.substr(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from));
            if (word.size() <= kMaxTokenBytes) emit(word);
          }
        }
        // The breaker holds a shallow clone of ut: let go of both.
        breaker->setText(icu::UnicodeString());
        utext_close(&ut);
        if (U_SUCCESS(status)) continue;
      }
      // No dictionary breaker: character pairs, as for Han.
      starts.clear();
      for (std::size_t k = 0; k < piece.size();) {
        Decode(piece, k, &cp);
        if (k == 0 || !IsMark(cp)) starts.push_back(static_cast<uint32_t>(begin + k));
        k += Decode(piece, k, &cp);
      }
    }
    // Every character, then it and the next one.
    starts.push_back(static_cast<uint32_t>(i));
    for (std::size_t c = 0; c + 1 < starts.size(); ++c) {
      emit(norm.substr(starts[c], starts[c + 1] - starts[c]));
      if (c + 2 < starts.size()) emit(norm.substr(starts[c], starts[c + 2] - starts[c]));
    }
  }
}

// NFKC with full case folding of `raw` (a run of word characters, valid
// UTF-8: RunEnd stops at an invalid byte), into *out; Turkic folding first
// maps I to ı and İ to i. Returns the normalised text: `raw` itself when it
// is already normalised (most words of most pages: no copy).
std::string_view Normalize(std::string_view raw, CaseFolding folding, std::string* out) {
  const icu::Normalizer2* nfkc_cf = NfkcCaseFold();
  thread_local std::string turkic;
  if (folding == CaseFolding::kTurkic) {
    turkic.clear();
    for (std::size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == 'I') {
        turkic += "\xC4\xB1";                       // ı
      } else if (raw.substr(k, 2) == "\xC4\xB0") {  // İ
        turkic += 'i';
        ++k;
      } else {
        turkic += raw[k];
      }
    }
    raw = turkic;
  }
  if (nfkc_cf == nullptr) return raw;
  UErrorCode status = U_ZERO_ERROR;
  const icu::StringPiece piece(raw.data(), static_cast<int32_t>(raw.size()));
  if (nfkc_cf->isNormalizedUTF8(piece, status) && U_SUCCESS(status)) {
    if (raw.data() != turkic.data()) return raw;
    out->assign(raw);
    return *out;
  }
  status = U_ZERO_ERROR;
  out->clear();
  icu::StringByteSink<std::string> sink(out);
  nfkc_cf->normalizeUTF8(0, piece, sink, nullptr, status);
  if (U_FAILURE(status)) return raw;
  return *out;
}

// The tokens of a run of word characters (not all ASCII), to emit: views
// into `raw` or *scratch.
template <typename Emit>
void EmitRun(std::string_view raw, CaseFolding folding, std::string* scratch, Emit&& emit) {
  CutRun(Normalize(raw, folding, scratch), emit);
}

// A run of ASCII letters and digits as a token: itself, or folded into
// *scratch when it has upper case; empty when too long (Turkic ı is two
// bytes).
std::string_view AsciiToken(std::string_view word, bool upper, CaseFolding folding, std::string* scratch) {
  if (word.size() > kMaxTokenBytes) return {};
  if (!upper) return word;
  if (folding == CaseFolding::kDefault) {  // lowered here, as the block path does
    scratch->assign(word);
    for (char& c : *scratch) c = static_cast<char>(c + ((c >= 'A' && c <= 'Z') ? 32 : 0));
    return *scratch;
  }
  const std::string_view folded = internal::FoldAscii(word, folding, scratch);
  return folded.size() <= kMaxTokenBytes ? folded : std::string_view();
}

// Positions of NextToken inside a run cut into several tokens: the run's
// start in the low bits, the number of its tokens read in the high ones.
constexpr int kCursorShift = 44;
constexpr std::size_t kOffsetMask = (std::size_t{1} << kCursorShift) - 1;

// The tokens of the last run NextToken cut, per thread.
struct RunCut {
  const char* text = nullptr;
  std::size_t size = 0, begin = 0, end = 0;
  CaseFolding folding = CaseFolding::kDefault;
  std::vector<std::string> tokens;
};

}  // namespace

CaseFolding CaseFoldingFor(std::string_view iso_language) {
  const std::string_view primary = iso_language.substr(0, iso_language.find_first_of("-_"));
  if (primary.size() != 2) return CaseFolding::kDefault;
  const char a = static_cast<char>(primary[0] | 0x20), b = static_cast<char>(primary[1] | 0x20);
  return (a == 't' && b == 'r') || (a == 'a' && b == 'z') ? CaseFolding::kTurkic : CaseFolding::kDefault;
}

bool IsWordCodePoint(uint32_t cp) { return KindOf(cp) != Kind::kNone; }

uint32_t LowerCodePoint(uint32_t cp) {
  if (cp < 0x80) return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
  if (cp > 0x10FFFF) return cp;
  return static_cast<uint32_t>(u_tolower(static_cast<UChar32>(cp)));
}

bool NextToken(std::string_view text, std::size_t* pos, std::string* token, CaseFolding folding) {
  thread_local RunCut cut;
  const std::size_t n = text.size();
  std::size_t i = *pos & kOffsetMask;
  const std::size_t read = *pos >> kCursorShift;
  if (read > 0) {  // inside a run cut into several tokens
    if (cut.text != text.data() || cut.size != n || cut.begin != i || cut.folding != folding) {
      bool ascii;
      cut = RunCut{text.data(), n, i, RunEnd(text, i, &ascii), folding, {}};
      EmitRun(text.substr(i, cut.end - i), folding, token,
              [&](std::string_view t) { cut.tokens.emplace_back(t); });
    }
    if (read < cut.tokens.size()) {
      token->assign(cut.tokens[read]);
      *pos = read + 1 < cut.tokens.size() ? (i | ((read + 1) << kCursorShift)) : cut.end;
      return true;
    }
    i = cut.end;
  }
  while (i < n) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      if (!kAsciiWord[b]) {
        ++i;
        continue;
      }
    } else {
      uint32_t cp;
      const std::size_t len = Decode(text, i, &cp);
      if (KindOf(cp) == Kind::kNone) {
        i += len;
        continue;
      }
    }
    bool ascii;
    const std::size_t end = RunEnd(text, i, &ascii);
    if (ascii) {
      bool upper = false;
      AsciiWordEnd(text, i, &upper);
      std::string folded;
      const std::string_view word = AsciiToken(text.substr(i, end - i), upper, folding, &folded);
      i = end;
      if (word.empty()) continue;  // too long
      token->assign(word);
      *pos = end;
      return true;
    }
    cut = RunCut{text.data(), n, i, end, folding, {}};
    EmitRun(text.substr(i, end - i), folding, token, [&](std::string_view t) { cut.tokens.emplace_back(t); });
    if (!cut.tokens.empty()) {
      token->assign(cut.tokens[0]);
      *pos = cut.tokens.size() > 1 ? (i | (std::size_t{1} << kCursorShift)) : end;
      return true;
    }
    i = end;
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

namespace internal {

std::string_view FoldAscii(std::string_view token, CaseFolding folding, std::string* scratch) {
  scratch->clear();
  for (const char c : token) {
    if (c == 'I' && folding == CaseFolding::kTurkic) {
      scratch->append("\xC4\xB1");  // dotless ı
    } else {
      scratch->push_back(static_cast<char>(c + ((c >= 'A' && c <= 'Z') ? 32 : 0)));
    }
  }
  return *scratch;
}

void TokensFrom(std::string_view text, std::size_t from, std::string* scratch, CaseFolding folding,
                TokenSink sink, void* context) {
  const std::size_t n = text.size();
  std::size_t i = from;
  while (i < n) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      if (!kAsciiWord[b]) {
        ++i;
        continue;
      }
      // A run of ASCII letters and digits that ends at an ASCII separator
      // (or the end) is its own token: a view into the text unless folded.
      bool upper = false;
      const std::size_t j = AsciiWordEnd(text, i, &upper);
      if (j == n || static_cast<unsigned char>(text[j]) < 0x80) {
        const std::string_view word = AsciiToken(text.substr(i, j - i), upper, folding, scratch);
        if (!word.empty()) sink(context, word);
        i = j;
        continue;
      }
    } else {
      uint32_t cp;
      const std::size_t len = Decode(text, i, &cp);
      if (KindOf(cp) == Kind::kNone) {
        i += len;
        continue;
      }
    }
    bool ascii;
    const std::size_t end = RunEnd(text, i, &ascii);
    if (ascii) {  // ASCII letters and digits before a non-ASCII separator
      bool upper = false;
      AsciiWordEnd(text, i, &upper);
      const std::string_view word = AsciiToken(text.substr(i, end - i), upper, folding, scratch);
      if (!word.empty()) sink(context, word);
      i = end;
      continue;
    }
    EmitRun(text.substr(i, end - i), folding, scratch, [&](std::string_view t) { sink(context, t); });
    i = end;
  }
}

}  // namespace internal

bool NextTokenView(std::string_view text, std::size_t* pos, std::string* scratch, std::string_view* token,
                   CaseFolding folding) {
  const std::size_t n = text.size();
  std::size_t i = *pos;
  while ((*pos >> kCursorShift) == 0 && i < n) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x80) break;
    if (!kAsciiWord[b]) {
      ++i;
      continue;
    }
    // A run of ASCII letters and digits that ends at an ASCII separator (or
    // the end): a view into the text when it has no upper case.
    bool upper = false;
    const std::size_t j = AsciiWordEnd(text, i, &upper);
    if (j < n && static_cast<unsigned char>(text[j]) >= 0x80) break;
    const std::string_view word = AsciiToken(text.substr(i, j - i), upper, folding, scratch);
    i = j;
    if (word.empty()) continue;  // too long
    *pos = j;
    *token = word;
    return true;
  }
  if ((*pos >> kCursorShift) == 0) *pos = i;
  const bool found = NextToken(text, pos, scratch, folding);
  *token = *scratch;
  return found;
}

}  // namespace crawl::text
