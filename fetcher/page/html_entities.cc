// Character references in HTML (see html_entities.h): the entity tables and
// the decoding of one reference.
#include "fetcher/page/html_entities.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <iterator>

#include "fetcher/page/html_links.h"

namespace crawl::html {
namespace internal {

namespace {

// ------------------------------------------------------------ entities --

// Appends the UTF-8 form of `cp` (REQUIRES: a scalar value) to buf; returns
// the number of bytes.
std::size_t EncodeUtf8(uint32_t cp, char* buf) {
  if (cp < 0x80) {
    buf[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    buf[0] = static_cast<char>(0xC0 | (cp >> 6));
    buf[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    buf[0] = static_cast<char>(0xE0 | (cp >> 12));
    buf[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  buf[0] = static_cast<char>(0xF0 | (cp >> 18));
  buf[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
  buf[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  buf[3] = static_cast<char>(0x80 | (cp & 0x3F));
  return 4;
}

// WHATWG HTML 13.2.5.80 (numeric character reference end state). Controls
// and noncharacters are parse errors but keep their value; only 0,
// surrogates and values past U+10FFFF become U+FFFD.
uint32_t NumericReferenceCodePoint(uint32_t v) {
  // 0x80-0x9F are read as Windows-1252, as browsers do; the five bytes
  // Windows-1252 leaves undefined keep their C1 value.
  static constexpr std::array<uint16_t, 32> kC1 = {
      0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
      0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
      0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
  if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0xFFFD;
  if (v >= 0x80 && v <= 0x9F) return kC1[v - 0x80];
  return v;
}

// One named character reference: its name (without ';') in kEntityNames
// and its UTF-8 text (one or two code points) in kEntityTexts.
// Six bytes: 2,125 records are 12.7 KB.
struct EntityRecord {
  uint16_t name_offset;
  uint16_t text_offset;
  uint8_t name_size;
  uint8_t text_size : 7;
  uint8_t legacy : 1;  // also matched without ';' (the standard's legacy names)
};
static_assert(sizeof(EntityRecord) == 6);

// kEntityNames, kEntityTexts, kEntityRecords: all 2,231 references of the
// standard (fetcher/page/entities/README.md).
#include "fetcher/page/html_entity_table.inc"

constexpr std::size_t kEntityCount = std::size(kEntityRecords);
// The longest name (CounterClockwiseContourIntegral) and legacy name.
constexpr std::size_t kMaxNameSize = 31;
constexpr std::size_t kMaxLegacySize = 6;

constexpr std::string_view NameOf(const EntityRecord& e) {
  return std::string_view(kEntityNames + e.name_offset, e.name_size);
}

constexpr bool TableIsSorted() {
  for (std::size_t i = 1; i < kEntityCount; ++i) {
    if (!(NameOf(kEntityRecords[i - 1]) < NameOf(kEntityRecords[i]))) return false;
  }
  for (const EntityRecord& e : kEntityRecords) {
    if (e.name_size == 0 || e.name_size > kMaxNameSize || (e.legacy && e.name_size > kMaxLegacySize) ||
        !IsAsciiAlpha(kEntityNames[e.name_offset]))
      return false;
  }
  return true;
}
static_assert(TableIsSorted(), "html_entity_table.inc must be sorted and within the size limits");

// Exact lookups go through an open-addressing hash of the names (FNV-1a,
// linear probing, 4,096 slots for 2,125 names), built at compile time: one
// or two probes and one comparison, where bisecting the sorted table took
// eight comparisons for the most frequent names (&amp; &lt; &gt; &quot;).
// FNV-1a extends one byte at a time, so the legacy search below hashes all
// prefixes of a run in one pass.
constexpr uint32_t kFnvBasis = 2166136261u;
constexpr uint32_t HashStep(uint32_t h, char c) { return (h ^ static_cast<unsigned char>(c)) * 16777619u; }
constexpr uint32_t HashName(std::string_view name) {
  uint32_t h = kFnvBasis;
  for (const char c : name) h = HashStep(h, c);
  return h;
}

constexpr std::size_t kSlots = 4096;  // a power of two, under 60% full
static_assert(kEntityCount < kSlots * 6 / 10);
// Record index + 1; 0 is an empty slot.
constexpr std::array<uint16_t, kSlots> kSlotRecord = [] {
  std::array<uint16_t, kSlots> slots{};
  for (std::size_t i = 0; i < kEntityCount; ++i) {
    std::size_t s = HashName(NameOf(kEntityRecords[i])) & (kSlots - 1);
    while (slots[s] != 0) s = (s + 1) & (kSlots - 1);
    slots[s] = static_cast<uint16_t>(i + 1);
  }
  return slots;
}();

// The record named exactly `name` (whose HashName is `hash`), or nullptr.
const EntityRecord* FindEntity(std::string_view name, uint32_t hash) {
  for (std::size_t s = hash & (kSlots - 1);; s = (s + 1) & (kSlots - 1)) {
    const uint16_t r = kSlotRecord[s];
    if (r == 0) return nullptr;
    const EntityRecord& e = kEntityRecords[r - 1];
    if (e.name_size == name.size() &&
        std::memcmp(kEntityNames + e.name_offset, name.data(), name.size()) == 0)
      return &e;
  }
}

// The longest legacy name that `run` starts with, or nullptr.
const EntityRecord* FindLegacyPrefix(std::string_view run) {
  const std::size_t longest = std::min(run.size(), kMaxLegacySize);
  std::array<uint32_t, kMaxLegacySize + 1> hash;  // hash[n]: HashName of run's first n bytes
  hash[0] = kFnvBasis;
  for (std::size_t n = 1; n <= longest; ++n) hash[n] = HashStep(hash[n - 1], run[n - 1]);
  for (std::size_t n = longest; n >= 2; --n) {
    const EntityRecord* e = FindEntity(run.substr(0, n), hash[n]);
    if (e != nullptr && e->legacy) return e;
  }
  return nullptr;
}

}  // namespace

// Decodes the character reference at in[amp] == '&'. Returns the number of
// input bytes it covers (0: not a reference, the '&' is literal) and sets
// *out to its UTF-8 text: in `buf` (4 bytes or more) for a numeric
// reference, in static storage for a named one.
std::size_t DecodeReference(std::string_view in, std::size_t amp, bool in_attribute, char* buf,
                            std::string_view* out) {
  std::size_t p = amp + 1;
  if (p >= in.size()) return 0;
  if (in[p] == '#') {
    std::size_t q = p + 1;
    const bool hex = q < in.size() && (in[q] == 'x' || in[q] == 'X');
    if (hex) ++q;
    const std::size_t digits = q;
    uint32_t value = 0;
    for (; q < in.size(); ++q) {
      const char c = in[q];
      uint32_t d;
      if (IsAsciiDigit(c)) {
        d = static_cast<uint32_t>(c - '0');
      } else if (hex && Lower(c) >= 'a' && Lower(c) <= 'f') {
        d = static_cast<uint32_t>(Lower(c) - 'a' + 10);
      } else {
        break;
      }
      // Saturate: anything past U+10FFFF is replaced anyway.
      value = value > 0x10FFFF ? value : value * (hex ? 16 : 10) + d;
    }
    if (q == digits) return 0;  // "&#" or "&#x" without digits
    if (q < in.size() && in[q] == ';') ++q;
    *out = std::string_view(buf, EncodeUtf8(NumericReferenceCodePoint(value), buf));
    return q - amp;
  }
  // Named (13.2.5.73): the longest name the input starts with. Names are
  // ASCII alphanumeric, so a name with ';' can only match the whole run of
  // alphanumerics; a shorter match is a legacy name without ';'.
  std::size_t q = p;
  uint32_t hash = kFnvBasis;  // HashName(run), computed as it is scanned
  while (q < in.size() && q - p <= kMaxNameSize && IsAsciiAlnum(in[q])) hash = HashStep(hash, in[q++]);
  if (q == p) return 0;
  const std::string_view run = in.substr(p, q - p);
  if (q < in.size() && in[q] == ';' && run.size() <= kMaxNameSize) {
    if (const EntityRecord* e = FindEntity(run, hash)) {
      *out = std::string_view(kEntityTexts + e->text_offset, e->text_size);
      return q + 1 - amp;
    }
  }
  const EntityRecord* legacy = FindLegacyPrefix(run);
  if (legacy == nullptr) return 0;
  const std::size_t end = p + legacy->name_size;
  // In attribute values "&copy=" and "&copyx" stay literal (URL queries).
  if (in_attribute && end < in.size() && (in[end] == '=' || IsAsciiAlnum(in[end]))) return 0;
  *out = std::string_view(kEntityTexts + legacy->text_offset, legacy->text_size);
  return end - amp;
}

}  // namespace internal

void AppendDecodedEntities(std::string_view in, bool in_attribute, std::string& out) {
  internal::DecodeEntities(in, in_attribute, [&](std::string_view piece) {
    out.append(piece);
    return true;
  });
}

}  // namespace crawl::html
