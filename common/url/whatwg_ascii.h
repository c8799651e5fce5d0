// ASCII character classes of the WHATWG URL Standard (section 4.1 of
// https://infra.spec.whatwg.org/), shared by the URL and host parsers.
#pragma once

namespace crawl::whatwg {

inline bool IsAsciiAlpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
inline bool IsAsciiDigit(unsigned char c) { return c >= '0' && c <= '9'; }
inline bool IsAsciiHex(unsigned char c) {
  return IsAsciiDigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}
inline int HexValue(unsigned char c) { return IsAsciiDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }
inline char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c; }

}  // namespace crawl::whatwg
