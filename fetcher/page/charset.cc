// Character encodings: detection and conversion to UTF-8 (charset.h).
#include "fetcher/page/charset.h"

#include <array>
#include <cstring>

#include "common/text/utf8.h"

namespace crawl::fetcher {
namespace {

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

std::string LowerTrimmed(std::string_view s) {
  while (!s.empty() && (IsSpace(s.front()) || s.front() == '"' || s.front() == '\'')) s.remove_prefix(1);
  while (!s.empty() && (IsSpace(s.back()) || s.back() == '"' || s.back() == '\'')) s.remove_suffix(1);
  std::string out;
  out.reserve(s.size());
  for (char c : s) out.push_back(Lower(c));
  return out;
}

// Windows-1252 bytes 0x80-0x9F (WHATWG index); 0 = undefined in the
// Encoding standard's table (those map to the C1 control of the same value).
constexpr std::array<uint16_t, 32> kCp1252High = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

void AppendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::string FromCp1252(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 8);
  std::size_t i = 0;
  const std::size_t n = bytes.size();
  while (i < n) {
    std::size_t j = i;
    while (j < n && static_cast<unsigned char>(bytes[j]) < 0x80) ++j;
    out.append(bytes.substr(i, j - i));
    if (j == n) break;
    const auto b = static_cast<unsigned char>(bytes[j]);
    AppendUtf8(b < 0xA0 ? kCp1252High[b - 0x80] : b, out);
    i = j + 1;
  }
  return out;
}

// Reads the value after "charset" in `s` at `at` (past the name): optional
// spaces, "=", optional quotes (WHATWG "extracting a character encoding from
// a meta element").
std::string ValueAfterCharset(std::string_view s, std::size_t at) {
  while (at < s.size() && IsSpace(s[at])) ++at;
  if (at >= s.size() || s[at] != '=') return {};
  ++at;
  while (at < s.size() && IsSpace(s[at])) ++at;
  if (at >= s.size()) return {};
  if (s[at] == '"' || s[at] == '\'') {
    const std::size_t close = s.find(s[at], at + 1);
    if (close == std::string_view::npos) return {};
    return LowerTrimmed(s.substr(at + 1, close - at - 1));
  }
  std::size_t end = at;
  while (end < s.size() && !IsSpace(s[end]) && s[end] != ';' && s[end] != '"' && s[end] != '\'' &&
         s[end] != '>')
    ++end;
  return LowerTrimmed(s.substr(at, end - at));
}

// Position of "charset" (case-insensitive) in s from `from`, or npos.
std::size_t FindCharset(std::string_view s, std::size_t from) {
  static constexpr std::string_view kWord = "charset";
  for (std::size_t i = from; i + kWord.size() <= s.size(); ++i) {
    std::size_t k = 0;
    while (k < kWord.size() && Lower(s[i + k]) == kWord[k]) ++k;
    if (k == kWord.size()) return i;
  }
  return std::string_view::npos;
}

}  // namespace

Encoding EncodingForLabel(std::string_view label) {
  const std::string l = LowerTrimmed(label);
  if (l == "utf-8" || l == "utf8" || l == "unicode-1-1-utf-8" || l == "x-unicode20utf8")
    return Encoding::kUtf8;
  static constexpr std::string_view k1252[] = {"windows-1252",    "iso-8859-1", "iso8859-1",   "iso_8859-1",
                                               "iso-ir-100",      "latin1",     "l1",          "cp1252",
                                               "cp819",           "ibm819",     "us-ascii",    "ascii",
                                               "ansi_x3.4-1968",  "x-cp1252",   "csisolatin1", "iso88591",
                                               "iso_8859-1:1987", "csascii"};
  for (std::string_view name : k1252) {
    if (l == name) return Encoding::kWindows1252;
  }
  return Encoding::kUnsupported;
}

std::string CharsetFromContentType(std::string_view content_type) {
  std::size_t at = 0;
  while ((at = FindCharset(content_type, at)) != std::string_view::npos) {
    // Only as a parameter name: after ';' or whitespace.
    std::size_t b = at;
    while (b > 0 && IsSpace(content_type[b - 1])) --b;
    if (b > 0 && content_type[b - 1] == ';') return ValueAfterCharset(content_type, at + 7);
    at += 7;
  }
  return {};
}

std::string SniffMetaCharset(std::string_view html) {
  html = html.substr(0, 1024);
  std::size_t i = 0;
  while (i < html.size()) {
    const std::size_t lt = html.find('<', i);
    if (lt == std::string_view::npos) return {};
    if (html.substr(lt, 4) == "<!--") {
      const std::size_t end = html.find("-->", lt + 4);
      if (end == std::string_view::npos) return {};
      i = end + 3;
      continue;
    }
    std::size_t gt = html.find('>', lt);
    if (gt == std::string_view::npos) gt = html.size();
    const std::string_view tag = html.substr(lt, gt - lt);
    i = gt;
    if (tag.size() < 6 || LowerTrimmed(tag.substr(1, 4)) != "meta" || !IsSpace(tag[5])) continue;
    // <meta charset=...> or content="...charset=..."; either way the first
    // "charset" followed by "=" names it.
    for (std::size_t at = FindCharset(tag, 5); at != std::string_view::npos; at = FindCharset(tag, at + 7)) {
      std::string value = ValueAfterCharset(tag, at + 7);
      if (!value.empty()) return value;
    }
  }
  return {};
}

std::string ToUtf8(std::string_view bytes, Encoding encoding, uint32_t* invalid) {
  if (encoding == Encoding::kWindows1252) return FromCp1252(bytes);
  return text::Utf8Cleaned(bytes, invalid);
}

namespace {

// Sets out's text to `bytes` read as `encoding`: `bytes` itself when they
// are UTF-8 and valid (`valid_prefix`: ValidUtf8Prefix(bytes) when known).
void SetText(std::string_view bytes, Encoding encoding, DecodedBody& out,
             std::size_t valid_prefix = std::string_view::npos) {
  if (encoding != Encoding::kWindows1252) {
    if (valid_prefix == std::string_view::npos) valid_prefix = ValidUtf8Prefix(bytes);
    if (valid_prefix == bytes.size()) {
      out.body = bytes;
      out.converted = false;
      return;
    }
  }
  out.converted_text = ToUtf8(bytes, encoding, &out.invalid_bytes);
  out.converted = true;
}

}  // namespace

DecodedBody DecodeBody(std::string_view body, std::string_view header_charset, bool is_html) {
  DecodedBody out;
  if (body.starts_with("\xEF\xBB\xBF")) {
    out.charset = "utf-8";
    SetText(body.substr(3), Encoding::kUtf8, out);
    return out;
  }
  std::string label(header_charset);
  if (label.empty() && is_html) label = SniffMetaCharset(body);
  label = LowerTrimmed(label);
  Encoding encoding;
  if (!label.empty()) {
    encoding = EncodingForLabel(label);
    // An unsupported label is reported as written, but it comes from the
    // page or a header: its bytes may be anything, and the record's proto3
    // string must be valid UTF-8 (found by fuzz/html_fuzzer).
    uint32_t label_invalid = 0;
    out.charset = encoding == Encoding::kUtf8          ? "utf-8"
                  : encoding == Encoding::kWindows1252 ? "windows-1252"
                                                       : ToUtf8(label, Encoding::kUtf8, &label_invalid);
  } else {
    const std::size_t valid = ValidUtf8Prefix(body);
    encoding = valid == body.size() ? Encoding::kUtf8 : Encoding::kWindows1252;
    out.charset = encoding == Encoding::kUtf8 ? "utf-8" : "windows-1252";
    SetText(body, encoding, out, valid);
    return out;
  }
  SetText(body, encoding, out);
  return out;
}

}  // namespace crawl::fetcher
