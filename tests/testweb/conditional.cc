// Conditional requests; see conditional.h.
#include "tests/testweb/conditional.h"

#include <cmath>

#include "tests/testweb/byte_range.h"
#include "tests/testweb/change_model.h"

namespace crawl::testweb {
namespace {

std::string_view Opaque(std::string_view tag) {
  if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
  return tag;
}

}  // namespace

bool IfNoneMatchMatches(std::string_view header, std::string_view etag) {
  header = TrimOws(header);
  if (header == "*") return true;
  while (!header.empty()) {
    const size_t comma = header.find(',');
    const std::string_view tag = TrimOws(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    if (!tag.empty() && Opaque(tag) == Opaque(etag)) return true;
  }
  return false;
}

bool NotModified(std::string_view if_none_match, std::string_view if_modified_since, std::string_view etag,
                 double last_modified) {
  if (!TrimOws(if_none_match).empty()) return IfNoneMatchMatches(if_none_match, etag);
  if (TrimOws(if_modified_since).empty()) return false;
  int64_t since = 0;
  if (!ParseHttpDate(TrimOws(if_modified_since), since)) return false;
  return static_cast<int64_t>(std::floor(last_modified)) <= since;
}

}  // namespace crawl::testweb
