// Tags and attributes as the HTML scanner (fetcher/page/html_links.cc) reads
// them (WHATWG HTML 13.2.5): lower-cased names, the attributes it keeps, and
// what a tag or attribute value means for links, text and language.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "fetcher/page/html_chars.h"

namespace crawl::html::internal {

// A lower-cased tag or attribute name; names longer than the buffer are
// none we care about and compare unequal to everything. A name of at most 8
// bytes is also held as one integer (Pack), so that comparing it with a
// literal, or finding it in a list of tags (a switch over packed names), is
// an integer compare, not a length check and a memcmp call: every tag of a
// page is tested against a dozen names.
class Name {
 public:
  // A name to compare with, packed when the program is compiled.
  struct Literal {
    consteval Literal(const char* s) : view(s), packed(Pack(s)) {}  // NOLINT: implicit, for tag == "a"
    std::string_view view;
    uint64_t packed;
  };

  explicit Name(std::string_view raw) {
    if (raw.size() > buf_.size()) return;
    len_ = raw.size();
    if (len_ > 8 || std::endian::native != std::endian::little) {
      for (std::size_t i = 0; i < len_; ++i) buf_[i] = Lower(raw[i]);
      if (len_ > 8) return;
    }
    if constexpr (std::endian::native == std::endian::little) {
      // Lower-cased eight bytes at a time, not byte by byte (every tag
      // name of a page comes here); the bytes past len_ are 0.
      const uint64_t w = LowerAscii8(Load8(raw));
      std::memcpy(buf_.data(), &w, sizeof w);
      // A NUL byte would pack like the end of the name ("a\0" as "a"):
      // such a name stays unpacked, unequal to every name we look for.
      const uint64_t x = w | (len_ == 8 ? 0 : ~uint64_t{0} << (8 * len_));
      if (((x - 0x0101010101010101) & ~x & 0x8080808080808080) == 0) packed_ = w;
    } else if (view().find('\0') == std::string_view::npos) {
      packed_ = Pack(view());
    }
  }
  // The bytes of `s` (at most 8) in one little-endian integer, the rest 0,
  // reading no byte outside `s`: two loads that may overlap, whose common
  // bytes are the same.
  static uint64_t Load8(std::string_view s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    if (n >= 4) {
      uint32_t low = 0, high = 0;
      std::memcpy(&low, p, 4);
      std::memcpy(&high, p + n - 4, 4);
      return uint64_t{low} | uint64_t{high} << (8 * (n - 4));
    }
    if (n == 0) return 0;
    return uint64_t{p[0]} | uint64_t{p[n / 2]} << (8 * (n / 2)) | uint64_t{p[n - 1]} << (8 * (n - 1));
  }
  // Each byte of `w` in 'A'..'Z' made lower case (SWAR: a byte's high bit
  // says whether its low seven bits reach 'A', and pass 'Z').
  static constexpr uint64_t LowerAscii8(uint64_t w) {
    constexpr uint64_t kOnes = 0x0101010101010101, kHigh = 0x8080808080808080;
    const uint64_t low7 = w & ~kHigh;
    const uint64_t upper = (low7 + kOnes * (0x80 - 'A')) & ~(low7 + kOnes * (0x80 - 'Z' - 1)) & ~w & kHigh;
    return w | upper >> 2;
  }
  // The bytes of `s` (at most 8, none NUL) in one integer, the first
  // lowest; 0 for "" and for longer names, which no packed name equals.
  static constexpr uint64_t Pack(std::string_view s) {
    if (s.size() > 8) return 0;
    uint64_t v = 0;
    for (std::size_t i = 0; i < s.size(); ++i) v |= uint64_t{static_cast<unsigned char>(s[i])} << (8 * i);
    return v;
  }
  bool operator==(Literal s) const {
    if (s.packed != 0) return packed_ == s.packed;
    return len_ != kTooLong && view() == s.view;
  }
  [[nodiscard]] std::string_view view() const {
    return len_ == kTooLong ? std::string_view() : std::string_view(buf_.data(), len_);
  }
  // Pack(view()) for names of 1 to 8 bytes without NUL; 0 otherwise.
  [[nodiscard]] uint64_t packed() const { return packed_; }

 private:
  static constexpr std::size_t kTooLong = static_cast<std::size_t>(-1);
  std::array<char, 12> buf_{};
  std::size_t len_ = kTooLong;
  uint64_t packed_ = 0;
};

enum Attr {
  kHref,
  kSrc,
  kAlt,
  kRel,
  kName,
  kContent,
  kLang,
  kXmlLang,
  kHttpEquiv,
  kHreflang,
  kType,
  kAttrCount
};

constexpr std::array<std::string_view, kAttrCount> kAttrNames = {
    "href", "src", "alt", "rel", "name", "content", "lang", "xml:lang", "http-equiv", "hreflang", "type"};

// kAttrLengths[n]: some name of kAttrNames has n bytes (the last entry
// stands for every longer length).
inline constexpr std::array<bool, 12> kAttrLengths = [] {
  std::array<bool, 12> t{};
  for (std::string_view name : kAttrNames) t[name.size()] = true;
  return t;
}();

// kAttrPacked[i]: Name::Pack(kAttrNames[i]); 0 for a name past 8 bytes.
inline constexpr std::array<uint64_t, kAttrCount> kAttrPacked = [] {
  std::array<uint64_t, kAttrCount> t{};
  for (std::size_t i = 0; i < kAttrCount; ++i) t[i] = Name::Pack(kAttrNames[i]);
  return t;
}();

// The raw (undecoded) values of the attributes we read; the first of
// duplicates wins (WHATWG 13.2.5.33).
// Made for every tag the scanner reads, so it costs nothing to make: a
// bit per attribute, and values (left uninitialised) only where a bit is set
// (zeroing the whole struct per tag was a third of Tag's time on libboost).
struct Attributes {
  void Set(std::string_view raw_name, std::string_view v) {
    // Most attributes of a page (class, id, title, style) are none of
    // these: their length says so before the name is lower-cased.
    if (!kAttrLengths[std::min<std::size_t>(raw_name.size(), kAttrLengths.size() - 1)]) return;
    const Name name(raw_name);
    for (std::size_t i = 0; i < kAttrCount; ++i) {
      if (kAttrPacked[i] != 0 ? name.packed() == kAttrPacked[i] : name.view() == kAttrNames[i]) {
        if ((present_ & (1u << i)) == 0) {
          present_ |= 1u << i;
          value_[i] = {v.data(), v.size()};
        }
        return;
      }
    }
  }
  [[nodiscard]] bool has(Attr a) const { return (present_ & (1u << a)) != 0; }
  // The value, or "" when the attribute is absent.
  [[nodiscard]] std::string_view get(Attr a) const {
    return has(a) ? std::string_view(value_[a].data, value_[a].size) : std::string_view();
  }

 private:
  struct Value {
    const char* data;
    std::size_t size;
  };
  static_assert(kAttrCount <= 32);
  uint32_t present_ = 0;
  Value value_[kAttrCount];  // NOLINT: set before it is read (has())
};

enum class TextKind { kRawText, kEscapable };

// What a tag's name means to the scanner, as bits (ClassifyTag):
//   kInlineTag: does not separate words in collected text (every other tag does);
//   kRawTextTag, kEscapableTextTag: its content is not markup (WHATWG
//     13.2.5.2-13.2.5.3), with or without character references;
//   kHeadingTag: h1-h6;
//   kActedOnTag: a start or end tag the scanner acts on (links, base,
//     meta, link, head, body, html, nav, plaintext).
enum TagTrait : uint8_t {
  kInlineTag = 1,
  kRawTextTag = 2,
  kEscapableTextTag = 4,
  kHeadingTag = 8,
  kActedOnTag = 16,
};
uint8_t ClassifyTag(const Name& tag);

// Elements whose content is not markup (WHATWG 13.2.5.2-13.2.5.3).
std::optional<TextKind> SpecialContent(const Name& tag);

// Tags that do not separate words in collected text; every other tag does.
bool IsInlineTag(const Name& tag);

bool IsHeading(const Name& tag);

// Link schemes that are not pages to fetch. Browsers drop tabs and newlines
// anywhere in a URL, so "java\nscript:" is still javascript.
bool IsSkippedScheme(std::string_view href);

bool HasToken(std::string_view list, std::string_view token);

// "en-US" -> "en"; "" unless the primary subtag is 2-8 ASCII letters.
std::string PrimaryLanguage(std::string_view tag);

}  // namespace crawl::html::internal
