// Character references in HTML (see html_entities.h): the entity tables and
// the decoding of one reference.
#include "fetcher/page/html_entities.h"

#include <array>
#include <cstdint>
#include <optional>

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

// WHATWG HTML 13.2.5.80 (numeric character reference end state).
uint32_t NumericReferenceCodePoint(uint32_t v) {
  // 0x80-0x9F are read as Windows-1252, as browsers do.
  static constexpr std::array<uint16_t, 32> kC1 = {
      0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
      0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
      0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
  if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0xFFFD;
  if (v >= 0x80 && v <= 0x9F) return kC1[v - 0x80];
  return v;
}

// Latin-1 entity names in code point order, U+00A0 to U+00FF. These are
// also the "legacy" names the standard decodes without a ";".
constexpr std::array<std::string_view, 96> kLatin1Names = {
    "nbsp",   "iexcl",  "cent",   "pound",  "curren", "yen",    "brvbar", "sect",   "uml",    "copy",
    "ordf",   "laquo",  "not",    "shy",    "reg",    "macr",   "deg",    "plusmn", "sup2",   "sup3",
    "acute",  "micro",  "para",   "middot", "cedil",  "sup1",   "ordm",   "raquo",  "frac14", "frac12",
    "frac34", "iquest", "Agrave", "Aacute", "Acirc",  "Atilde", "Auml",   "Aring",  "AElig",  "Ccedil",
    "Egrave", "Eacute", "Ecirc",  "Euml",   "Igrave", "Iacute", "Icirc",  "Iuml",   "ETH",    "Ntilde",
    "Ograve", "Oacute", "Ocirc",  "Otilde", "Ouml",   "times",  "Oslash", "Ugrave", "Uacute", "Ucirc",
    "Uuml",   "Yacute", "THORN",  "szlig",  "agrave", "aacute", "acirc",  "atilde", "auml",   "aring",
    "aelig",  "ccedil", "egrave", "eacute", "ecirc",  "euml",   "igrave", "iacute", "icirc",  "iuml",
    "eth",    "ntilde", "ograve", "oacute", "ocirc",  "otilde", "ouml",   "divide", "oslash", "ugrave",
    "uacute", "ucirc",  "uuml",   "yacute", "thorn",  "yuml"};

struct NamedEntity {
  std::string_view name;
  uint32_t cp;
  bool legacy;  // decoded without ";" too
};

// Besides Latin-1: the XML five, upper-case legacy aliases, and the
// typographic references common in titles and anchor text.
constexpr NamedEntity kOtherEntities[] = {
    {"amp", '&', true},        {"lt", '<', true},         {"gt", '>', true},
    {"quot", '"', true},       {"apos", '\'', false},     {"AMP", '&', true},
    {"LT", '<', true},         {"GT", '>', true},         {"QUOT", '"', true},
    {"COPY", 0xA9, true},      {"REG", 0xAE, true},       {"mdash", 0x2014, false},
    {"ndash", 0x2013, false},  {"hellip", 0x2026, false}, {"lsquo", 0x2018, false},
    {"rsquo", 0x2019, false},  {"sbquo", 0x201A, false},  {"ldquo", 0x201C, false},
    {"rdquo", 0x201D, false},  {"bdquo", 0x201E, false},  {"bull", 0x2022, false},
    {"trade", 0x2122, false},  {"euro", 0x20AC, false},   {"ensp", 0x2002, false},
    {"emsp", 0x2003, false},   {"thinsp", 0x2009, false}, {"zwnj", 0x200C, false},
    {"zwj", 0x200D, false},    {"lrm", 0x200E, false},    {"rlm", 0x200F, false},
    {"dagger", 0x2020, false}, {"Dagger", 0x2021, false}, {"permil", 0x2030, false},
    {"lsaquo", 0x2039, false}, {"rsaquo", 0x203A, false}, {"prime", 0x2032, false},
    {"larr", 0x2190, false},   {"rarr", 0x2192, false},   {"uarr", 0x2191, false},
    {"darr", 0x2193, false},   {"hearts", 0x2665, false}, {"star", 0x2606, false},
};

std::optional<NamedEntity> FindEntity(std::string_view name) {
  for (const NamedEntity& e : kOtherEntities) {
    if (e.name == name) return e;
  }
  for (std::size_t i = 0; i < kLatin1Names.size(); ++i) {
    if (kLatin1Names[i] == name) return NamedEntity{kLatin1Names[i], static_cast<uint32_t>(0xA0 + i), true};
  }
  return std::nullopt;
}

// The longest legacy name that `run` starts with.
std::optional<NamedEntity> FindLegacyPrefix(std::string_view run) {
  std::optional<NamedEntity> best;
  auto consider = [&](std::string_view name, uint32_t cp) {
    if (run.starts_with(name) && (!best || name.size() > best->name.size()))
      best = NamedEntity{name, cp, true};
  };
  for (const NamedEntity& e : kOtherEntities) {
    if (e.legacy) consider(e.name, e.cp);
  }
  for (std::size_t i = 0; i < kLatin1Names.size(); ++i)
    consider(kLatin1Names[i], static_cast<uint32_t>(0xA0 + i));
  return best;
}

}  // namespace

// Decodes the character reference at in[amp] == '&'. Returns the number of
// input bytes it covers (0: not a reference, the '&' is literal) and sets
// *out to its UTF-8 text (in `buf`, 4 bytes or more).
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
  std::size_t q = p;
  while (q < in.size() && q - p < 32 && IsAsciiAlnum(in[q])) ++q;
  if (q == p) return 0;
  const std::string_view run = in.substr(p, q - p);
  if (q < in.size() && in[q] == ';') {
    if (const auto e = FindEntity(run)) {
      *out = std::string_view(buf, EncodeUtf8(e->cp, buf));
      return q + 1 - amp;
    }
  }
  const auto legacy = FindLegacyPrefix(run);
  if (!legacy) return 0;
  const std::size_t end = p + legacy->name.size();
  // In attribute values "&copy=" and "&copyx" stay literal (URL queries).
  if (in_attribute && end < in.size() && (in[end] == '=' || IsAsciiAlnum(in[end]))) return 0;
  *out = std::string_view(buf, EncodeUtf8(legacy->cp, buf));
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
