// LEB128 varints (7 bits a byte, low bits first), as protobuf writes them:
// the byte formats of the search index (queueserver/index/postings_codec.h)
// and of a mini index's packed terms (common/text/packed_terms.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace crawl {

// Writes v at p (room for 10 bytes) and returns the byte after it.
inline char* WriteVarint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

inline void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// Reads a varint at *pos and moves past it; false on truncated or over-long
// input (more than 10 bytes).
[[nodiscard]] inline bool GetVarint(std::string_view in, size_t* pos, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63; shift += 7) {
    if (*pos >= in.size()) return false;
    const auto byte = static_cast<uint8_t>(in[(*pos)++]);
    result |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

}  // namespace crawl
