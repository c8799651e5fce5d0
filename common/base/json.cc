// JSON helpers (json.h), and the one compiled copy of Boost.JSON
// (header-only mode: boost/json/src.hpp in exactly one translation unit of
// the whole project; every library, test and binary links crawl_common).
#include "common/base/json.h"

#include <boost/json/src.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/text/utf8.h"

namespace crawl {

boost::json::string JsonText(std::string_view s) {
  if (text::ValidUtf8Prefix(s) == s.size()) return boost::json::string(s);
  uint32_t replaced = 0;
  return boost::json::string(text::Utf8Cleaned(s, &replaced));
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
