// Which encoding a body is in (charset.h): BOM, transport charset, the
// body's own label, the detector; and DecodeBody, which puts them together.
#include "fetcher/page/charset.h"

#include <uchardet/uchardet.h>

#include <cstring>
#include <memory>
#include <vector>

#include "common/text/language_id.h"
#include "common/text/utf8.h"

namespace crawl::fetcher {
namespace {

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
// ASCII whitespace as the HTML Standard's prescan counts it.
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

std::string Lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = Lower(c);
  return out;
}

// Position of "charset" (ASCII case-insensitive) in s from `from`, or npos.
std::size_t FindCharset(std::string_view s, std::size_t from) {
  static constexpr std::string_view kWord = "charset";
  for (std::size_t i = from; i + kWord.size() <= s.size(); ++i) {
    std::size_t k = 0;
    while (k < kWord.size() && Lower(s[i + k]) == kWord[k]) ++k;
    if (k == kWord.size()) return i;
  }
  return std::string_view::npos;
}

// The HTML Standard's "extracting a character encoding from a meta
// element", on a content attribute's value.
std::optional<Encoding> EncodingFromMetaContent(std::string_view s) {
  std::size_t at = 0;
  for (;;) {
    const std::size_t found = FindCharset(s, at);
    if (found == std::string_view::npos) return std::nullopt;
    at = found + 7;
    while (at < s.size() && IsSpace(s[at])) ++at;
    if (at >= s.size() || s[at] != '=') continue;  // look again from here
    ++at;
    while (at < s.size() && IsSpace(s[at])) ++at;
    if (at >= s.size()) return std::nullopt;
    if (s[at] == '"' || s[at] == '\'') {
      const std::size_t close = s.find(s[at], at + 1);
      if (close == std::string_view::npos) return std::nullopt;
      return EncodingForLabel(s.substr(at + 1, close - at - 1));
    }
    std::size_t end = at;
    while (end < s.size() && !IsSpace(s[end]) && s[end] != ';') ++end;
    return EncodingForLabel(s.substr(at, end - at));
  }
}

// The prescan's input and position; running past the end aborts the
// prescan (the standard's "if at any point ... past the end").
struct Scan {
  std::string_view s;
  std::size_t i = 0;
  [[nodiscard]] bool End() const { return i >= s.size(); }
  [[nodiscard]] char At() const { return s[i]; }
};

struct Attribute {
  std::string name;
  std::string value;
};

// The HTML Standard's "get an attribute" (names and values lower-cased as
// it says; left empty unless `keep`: only a meta's are read). nullopt when
// there is none (at '>') or the input ran out (then scan.End()).
std::optional<Attribute> GetAttribute(Scan& scan, bool keep) {
  while (!scan.End() && (IsSpace(scan.At()) || scan.At() == '/')) ++scan.i;
  if (scan.End() || scan.At() == '>') return std::nullopt;
  Attribute a;
  for (std::size_t name_bytes = 0;; ++scan.i, ++name_bytes) {  // the name
    if (scan.End()) return std::nullopt;
    const char c = scan.At();
    if (c == '=' && name_bytes > 0) {
      ++scan.i;
      break;
    }
    if (IsSpace(c)) {
      while (!scan.End() && IsSpace(scan.At())) ++scan.i;
      if (scan.End()) return std::nullopt;
      if (scan.At() != '=') return a;
      ++scan.i;
      break;
    }
    if (c == '/' || c == '>') return a;
    if (keep) a.name.push_back(Lower(c));
  }
  while (!scan.End() && IsSpace(scan.At())) ++scan.i;
  if (scan.End()) return std::nullopt;
  if (scan.At() == '"' || scan.At() == '\'') {
    const char quote = scan.At();
    for (++scan.i; !scan.End(); ++scan.i) {
      if (scan.At() == quote) {
        ++scan.i;
        return a;
      }
      if (keep) a.value.push_back(Lower(scan.At()));
    }
    return std::nullopt;
  }
  for (; !scan.End(); ++scan.i) {
    if (IsSpace(scan.At()) || scan.At() == '>') return a;
    if (keep) a.value.push_back(Lower(scan.At()));
  }
  return std::nullopt;
}

// A <meta ...>'s attributes (the scan is past "<meta" and its space or
// slash); the encoding it declares, if any, as the prescan takes it.
std::optional<Encoding> MetaEncoding(Scan& scan) {
  std::vector<std::string> seen;
  bool got_pragma = false;
  int need_pragma = -1;  // -1 null, 0 false, 1 true
  std::optional<Encoding> charset;
  while (auto a = GetAttribute(scan, /*keep=*/true)) {
    bool dup = false;
    for (const std::string& n : seen) dup = dup || n == a->name;
    if (dup) continue;
    seen.push_back(a->name);
    if (a->name == "http-equiv") {
      got_pragma = got_pragma || a->value == "content-type";
    } else if (a->name == "content" && !charset) {
      charset = EncodingFromMetaContent(a->value);
      if (charset) need_pragma = 1;
    } else if (a->name == "charset") {
      charset = EncodingForLabel(a->value);
      need_pragma = 0;
    }
  }
  if (scan.End() || need_pragma == -1 || (need_pragma == 1 && !got_pragma) || !charset) return std::nullopt;
  if (*charset == Encoding::kUtf16Be || *charset == Encoding::kUtf16Le) return Encoding::kUtf8;
  if (*charset == Encoding::kXUserDefined) return Encoding::kWindows1252;
  return charset;
}

bool StartsWithLower(std::string_view s, std::size_t at, std::string_view word) {
  if (s.size() - at < word.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k) {
    if (Lower(s[at + k]) != word[k]) return false;
  }
  return true;
}

bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

std::string CharsetName(Encoding encoding) { return Lowered(EncodingName(encoding)); }

std::string CharsetFromContentType(std::string_view content_type) {
  std::size_t at = 0;
  while ((at = FindCharset(content_type, at)) != std::string_view::npos) {
    // Only as a parameter name: after ';' or whitespace.
    std::size_t b = at;
    while (b > 0 && IsSpace(content_type[b - 1])) --b;
    at += 7;
    if (b == 0 || content_type[b - 1] != ';') continue;
    while (at < content_type.size() && IsSpace(content_type[at])) ++at;
    if (at >= content_type.size() || content_type[at] != '=') continue;
    ++at;
    while (at < content_type.size() && IsSpace(content_type[at])) ++at;
    std::string_view rest = content_type.substr(at);
    if (!rest.empty() && (rest[0] == '"' || rest[0] == '\'')) {
      const std::size_t close = rest.find(rest[0], 1);
      return Lowered(rest.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1));
    }
    std::size_t end = 0;
    while (end < rest.size() && !IsSpace(rest[end]) && rest[end] != ';') ++end;
    return Lowered(rest.substr(0, end));
  }
  return {};
}

std::optional<Encoding> PrescanHtml(std::string_view html) {
  Scan scan{html.substr(0, 1024)};
  const std::string_view s = scan.s;
  for (; scan.i < s.size(); ++scan.i) {
    const std::size_t i = scan.i;
    if (s[i] != '<') continue;
    if (s.substr(i, 4) == "<!--") {
      const std::size_t end = s.find("-->", i + 2);
      if (end == std::string_view::npos) return std::nullopt;
      scan.i = end + 2;  // at its '>'
    } else if (StartsWithLower(s, i, "<meta") && i + 5 < s.size() && (IsSpace(s[i + 5]) || s[i + 5] == '/')) {
      scan.i = i + 6;
      if (auto e = MetaEncoding(scan)) return e;
      if (scan.End()) return std::nullopt;
    } else if (i + 1 < s.size() &&
               (IsAsciiAlpha(s[i + 1]) || (s[i + 1] == '/' && i + 2 < s.size() && IsAsciiAlpha(s[i + 2])))) {
      while (scan.i < s.size() && !IsSpace(s[scan.i]) && s[scan.i] != '>') ++scan.i;
      while (GetAttribute(scan, /*keep=*/false)) {
      }
      if (scan.End()) return std::nullopt;
    } else if (i + 1 < s.size() && (s[i + 1] == '!' || s[i + 1] == '/' || s[i + 1] == '?')) {
      const std::size_t gt = s.find('>', i + 2);
      if (gt == std::string_view::npos) return std::nullopt;
      scan.i = gt;
    }
  }
  return std::nullopt;
}

std::optional<Encoding> XmlDeclaredEncoding(std::string_view xml) {
  // UTF-16 without a BOM: "<?" as two 16-bit units (XML 1.0 Appendix F).
  if (xml.starts_with(std::string_view("<\0?\0", 4))) return Encoding::kUtf16Le;
  if (xml.starts_with(std::string_view("\0<\0?", 4))) return Encoding::kUtf16Be;
  if (!xml.starts_with("<?xml") || xml.size() < 6 || !IsSpace(xml[5])) return std::nullopt;
  const std::size_t end = xml.substr(0, 1024).find("?>");
  if (end == std::string_view::npos) return std::nullopt;
  const std::string_view decl = xml.substr(0, end);
  std::size_t at = decl.find("encoding");
  if (at == std::string_view::npos) return std::nullopt;
  at += 8;
  while (at < decl.size() && IsSpace(decl[at])) ++at;
  if (at >= decl.size() || decl[at] != '=') return std::nullopt;
  ++at;
  while (at < decl.size() && IsSpace(decl[at])) ++at;
  if (at >= decl.size() || (decl[at] != '"' && decl[at] != '\'')) return std::nullopt;
  const std::size_t close = decl.find(decl[at], at + 1);
  if (close == std::string_view::npos) return std::nullopt;
  const auto e = EncodingForLabel(decl.substr(at + 1, close - at - 1));
  if (e == Encoding::kUtf16Be || e == Encoding::kUtf16Le) return Encoding::kUtf8;
  if (e == Encoding::kXUserDefined) return Encoding::kWindows1252;
  return e;
}

std::optional<Encoding> BomEncoding(std::string_view body, std::size_t* bom_bytes) {
  if (body.starts_with("\xEF\xBB\xBF")) {
    *bom_bytes = 3;
    return Encoding::kUtf8;
  }
  *bom_bytes = 2;
  if (body.starts_with("\xFE\xFF")) return Encoding::kUtf16Be;
  if (body.starts_with("\xFF\xFE")) return Encoding::kUtf16Le;
  *bom_bytes = 0;
  return std::nullopt;
}

namespace {

// The letters of decoded HTML for the language check: tags left out, at
// most 4 KB.
std::string TextOfMarkup(std::string_view html) {
  std::string out;
  bool in_tag = false;
  for (char c : html) {
    if (out.size() >= 4096) break;
    if (c == '<') in_tag = true;
    if (!in_tag) out.push_back(c);
    if (c == '>') in_tag = false;
  }
  return out;
}

// Single-byte encodings of Latin script other than windows-1252 and
// ISO-8859-15 (a Western page may really be in that one).
bool IsOtherLatin(Encoding e) {
  switch (e) {
    case Encoding::kIso8859_2:
    case Encoding::kIso8859_3:
    case Encoding::kIso8859_4:
    case Encoding::kIso8859_10:
    case Encoding::kIso8859_13:
    case Encoding::kIso8859_14:
    case Encoding::kIso8859_16:
    case Encoding::kMacintosh:
    case Encoding::kWindows1250:
    case Encoding::kWindows1254:
    case Encoding::kWindows1257:
    case Encoding::kWindows1258:
      return true;
    default:
      return false;
  }
}

// uchardet reads many unlabelled windows-1252 pages in Italian, Spanish or
// Portuguese as ISO-8859-13, windows-1250 or ISO-8859-3 (è becomes č): their
// few accented letters fit any of them. Those languages read the same in
// every such decoding, so the language of the text decides: one whose pages
// are written in windows-1252 takes it; Czech, Polish, Lithuanian, Turkish,
// Vietnamese ... keep the detector's reading.
Encoding LatinByLanguage(std::string_view sample, Encoding detected) {
  static constexpr std::string_view kWestern[] = {"en", "fr", "es", "it", "pt", "ca", "gl", "eu", "nl", "da",
                                                  "sv", "no", "nn", "is", "fi", "ga", "id", "ms", "af"};
  uint32_t invalid = 0;
  const text::TextLanguage found = text::IdentifyLanguage(TextOfMarkup(ToUtf8(sample, detected, &invalid)));
  if (!found.reliable) return detected;
  for (std::string_view western : kWestern) {
    if (found.language == western) return Encoding::kWindows1252;
  }
  return detected;
}

}  // namespace

std::optional<Encoding> DetectLegacyEncoding(std::string_view body) {
  // One detector per thread, reset between bodies: making one costs more
  // than reading a small page (its dozens of language models).
  thread_local const std::unique_ptr<uchardet, void (*)(uchardet_t)> detector(uchardet_new(),
                                                                              uchardet_delete);
  if (!detector) return std::nullopt;
  uchardet_reset(detector.get());
  const std::string_view sample = body.substr(0, kDetectBytes);
  if (uchardet_handle_data(detector.get(), sample.data(), sample.size()) != 0) return std::nullopt;
  uchardet_data_end(detector.get());
  const char* name = uchardet_get_charset(detector.get());
  if (name == nullptr || *name == '\0') return std::nullopt;
  // uchardet's names the standard spells otherwise.
  std::string_view label = name;
  if (label == "MAC-CYRILLIC") label = "x-mac-cyrillic";
  if (label == "UHC" || label == "CP949") label = "euc-kr";
  const auto e = EncodingForLabel(label);
  // HZ-GB-2312, ISO-2022-KR and ISO-2022-CN are "replacement" in the
  // standard: a browser would show one U+FFFD, not the detector's reading.
  if (e == Encoding::kReplacement) return std::nullopt;
  if (e && IsOtherLatin(*e)) return LatinByLanguage(sample, *e);
  return e;
}

namespace {

// ISO-2022-JP is 7-bit: valid UTF-8 but for its escapes into JIS X 0208
// (ESC $ B, ESC $ @), which no UTF-8 page has.
bool HasJisEscape(std::string_view body) {
  const std::string_view head = body.substr(0, kDetectBytes);
  for (const char* p = head.data(); (p = static_cast<const char*>(std::memchr(p, 0x1B, head.end() - p)));) {
    ++p;
    if (head.end() - p >= 2 && p[0] == '$' && (p[1] == 'B' || p[1] == '@')) return true;
  }
  return false;
}

// GuessEncoding, given ValidUtf8Prefix(body).
Encoding Guess(std::string_view body, std::size_t valid) {
  if (valid == body.size()) return HasJisEscape(body) ? Encoding::kIso2022Jp : Encoding::kUtf8;
  // Cut inside its last character (a body truncated at the size cap): the
  // rest is a lead byte and continuation bytes, fewer than it needs.
  if (body.size() - valid < 4) {
    std::size_t subpart = 0;
    (void)text::Utf8SequenceAt(body, valid, &subpart);
    if (valid + subpart == body.size()) {
      const auto lead = static_cast<unsigned char>(body[valid]);
      if (lead >= 0xC2 && lead <= 0xF4) return Encoding::kUtf8;
    }
  }
  return DetectLegacyEncoding(body).value_or(Encoding::kWindows1252);
}

}  // namespace

Encoding GuessEncoding(std::string_view body) { return Guess(body, ValidUtf8Prefix(body)); }

DecodedBody DecodeBody(std::string_view body, std::string_view header_charset, BodyKind kind) {
  DecodedBody out;
  std::size_t bom = 0;
  std::optional<Encoding> encoding = BomEncoding(body, &bom);
  body.remove_prefix(bom);
  if (!encoding && !header_charset.empty()) encoding = EncodingForLabel(header_charset);
  if (!encoding && kind == BodyKind::kHtml) encoding = PrescanHtml(body);
  if (!encoding && kind == BodyKind::kXml) encoding = XmlDeclaredEncoding(body).value_or(Encoding::kUtf8);
  std::size_t valid = std::string_view::npos;  // ValidUtf8Prefix(body) once known
  if (!encoding) {
    valid = ValidUtf8Prefix(body);
    encoding = Guess(body, valid);
  }
  out.encoding = *encoding;
  out.charset = CharsetName(*encoding);
  if (*encoding == Encoding::kUtf8) {
    if (valid == std::string_view::npos) valid = ValidUtf8Prefix(body);
    if (valid == body.size()) {
      out.body = body;  // the fast path: most pages
      return out;
    }
  }
  // An ASCII body is itself in every ASCII-compatible encoding.
  if (*encoding != Encoding::kUtf16Be && *encoding != Encoding::kUtf16Le &&
      *encoding != Encoding::kReplacement && *encoding != Encoding::kIso2022Jp) {
    std::size_t ascii = 0;
    while (ascii < body.size() && static_cast<unsigned char>(body[ascii]) < 0x80) ++ascii;
    if (ascii == body.size()) {
      out.body = body;
      return out;
    }
  }
  Decoder decoder(*encoding);
  decoder.Decode(body, /*last=*/true, &out.converted_text);
  out.invalid_bytes = decoder.invalid();
  out.converted = true;
  return out;
}

}  // namespace crawl::fetcher
