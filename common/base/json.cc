// JSON helpers (json.h), and the one compiled copy of Boost.JSON
// (header-only mode: boost/json/src.hpp in exactly one translation unit of
// the whole project; every library, test and binary links crawl_common).
#include "common/base/json.h"

#include <boost/json/src.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace crawl {

namespace {

// The length of the well-formed UTF-8 sequence at s[i], or 0 (RFC 3629:
// no overlong forms, no surrogates, nothing past U+10FFFF).
size_t Utf8Length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the allowed range of the second byte
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (i + len > s.size() || byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  return len;
}

}  // namespace

boost::json::string JsonText(std::string_view s) {
  boost::json::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t len = Utf8Length(s, i);
    if (len == 0) {
      out.append("\xef\xbf\xbd");  // U+FFFD
      ++i;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

boost::json::value JsonNumber(double v) {
  if (!std::isfinite(v)) return nullptr;
  return v;
}

boost::json::value JsonNumber(double v, int decimals) {
  if (!std::isfinite(v)) return nullptr;
  char buf[400];  // %.Nf of the largest double: 309 digits and the decimals
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return std::strtod(buf, nullptr);
}

std::string JsonLine(const boost::json::value& v) { return boost::json::serialize(v) + "\n"; }

}  // namespace crawl
