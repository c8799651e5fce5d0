// The Range request header, for the one form a crawler sends to cap a
// download: a single byte range (RFC 9110 section 14.1.2), "bytes=A-B",
// "bytes=A-" or "bytes=-N". Anything else (other units, several ranges,
// syntax errors) is ignored, as RFC 9110 section 14.2 allows: the whole
// representation is sent with 200.
#pragma once

#include <cstdint>
#include <string_view>

namespace crawl::testweb {

// `s` without leading and trailing spaces and tabs (RFC 9110's OWS).
[[nodiscard]] std::string_view TrimOws(std::string_view s);

struct ByteRange {
  enum class Kind {
    kIgnore,         // answer 200 with the full body
    kPartial,        // answer 206 with bytes [first, last]
    kUnsatisfiable,  // answer 416 with "Content-Range: bytes */size"
  };
  Kind kind = Kind::kIgnore;
  uint64_t first = 0;
  uint64_t last = 0;  // inclusive
};

// Interprets `header` (the Range field value, maybe empty) for a body of
// `size` bytes. A range covering the whole body is kIgnore (plain 200).
[[nodiscard]] ByteRange ParseByteRange(std::string_view header, uint64_t size);

}  // namespace crawl::testweb
