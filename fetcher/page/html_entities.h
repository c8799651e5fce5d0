// Character references in HTML text and attribute values (WHATWG HTML
// 13.2.5.72-13.2.5.80): all 2,231 named references of the standard (the
// table fetcher/page/entities/generate.py writes), the legacy names without
// ';', and decimal and hexadecimal numeric references, decoded piece by
// piece for the scanner (fetcher/page/html_links.cc).
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

#include "fetcher/page/html_chars.h"

namespace crawl::html::internal {

// Decodes the character reference at in[amp] == '&'. Returns the number of
// input bytes it covers (0: not a reference, the '&' is literal) and sets
// *out to its UTF-8 text: in `buf` (4 bytes or more) for a numeric
// reference, in static storage for a named one.
std::size_t DecodeReference(std::string_view in, std::size_t amp, bool in_attribute, char* buf,
                            std::string_view* out);

// Passes the decoded form of `in` to sink(std::string_view) piece by piece;
// stops early when the sink returns false. NUL becomes U+FFFD in attribute
// values and is dropped from text (as the HTML tree builder does).
template <typename Sink>
void DecodeEntities(std::string_view in, bool in_attribute, Sink&& sink) {
  char buf[8];
  std::size_t i = 0;
  while (i < in.size()) {
    // Two memchr scans beat find_first_of's per-byte set test.
    const void* amp = std::memchr(in.data() + i, '&', in.size() - i);
    const std::size_t amp_at = amp == nullptr ? npos : static_cast<const char*>(amp) - in.data();
    const void* nul = std::memchr(in.data() + i, '\0', (amp_at == npos ? in.size() : amp_at) - i);
    const std::size_t special = nul != nullptr ? static_cast<const char*>(nul) - in.data() : amp_at;
    const std::size_t end = special == npos ? in.size() : special;
    if (end > i && !sink(in.substr(i, end - i))) return;
    if (special == npos) return;
    if (in[special] == '\0') {
      if (in_attribute && !sink(kReplacementChar)) return;
      i = special + 1;
      continue;
    }
    std::string_view text;
    const std::size_t used = DecodeReference(in, special, in_attribute, buf, &text);
    if (used == 0) {
      if (!sink("&")) return;
      i = special + 1;
    } else {
      if (!sink(text)) return;
      i = special + used;
    }
  }
}

}  // namespace crawl::html::internal
