// Character classes and small string helpers of the HTML scanner
// (fetcher/page/html_links.cc), after WHATWG HTML and Infra ("ASCII whitespace").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace crawl::html::internal {

inline constexpr auto npos = std::string_view::npos;
inline constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";  // U+FFFD

// HTML "ASCII whitespace" (tab, LF, FF, CR, space).
constexpr bool IsHtmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// Byte classes the tag scanner stops at, as one table: a tag's name ends at
// space, '/' or '>'; an attribute's name also at '='; an unquoted value at
// space or '>'. One load per byte instead of a chain of compares.
enum HtmlByteClass : uint8_t { kSpaceByte = 1, kSlashByte = 2, kGtByte = 4, kEqualsByte = 8 };
inline constexpr std::array<uint8_t, 256> kHtmlByteClass = [] {
  std::array<uint8_t, 256> t{};
  for (const char c : {' ', '\t', '\n', '\f', '\r'}) t[static_cast<unsigned char>(c)] = kSpaceByte;
  t['/'] = kSlashByte;
  t['>'] = kGtByte;
  t['='] = kEqualsByte;
  return t;
}();
inline bool InByteClass(char c, unsigned classes) {
  return (kHtmlByteClass[static_cast<unsigned char>(c)] & classes) != 0;
}

constexpr bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool IsAsciiAlnum(char c) { return IsAsciiAlpha(c) || IsAsciiDigit(c); }
constexpr char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

inline std::string_view TrimHtmlSpace(std::string_view s) {
  while (!s.empty() && IsHtmlSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsHtmlSpace(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace crawl::html::internal
