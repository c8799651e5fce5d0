// Hash of std::string keys that also takes string_views, so a lookup by a
// view needs no temporary string (C++20 heterogeneous lookup; pair it with
// std::equal_to<>, as StringMap does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace crawl {

struct StringViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// A fast hash of a short string (a word, a term) for in-memory tables: 8
// bytes a multiply, the tail gathered byte by byte (words are short). Never
// persist it: it is not part of any format.
inline uint64_t ShortStringHash(std::string_view s) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = s.size() * kMul;
  const char* p = s.data();
  std::size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    h = (h ^ v) * kMul;
    h ^= h >> 29;
  }
  // The last 0-7 bytes in at most two loads (a byte loop's exit mispredicts
  // with every length): 4-7 bytes as two overlapping 4-byte loads, 1-3 as
  // their first, middle and last byte; either way every byte counts once
  // or twice, and the length is in h already.
  uint64_t tail = 0;
  if (n >= 4) {
    uint32_t first, last;
    std::memcpy(&first, p, 4);
    std::memcpy(&last, p + n - 4, 4);
    tail = first | (uint64_t{last} << 32);
  } else if (n > 0) {
    tail = uint64_t{static_cast<unsigned char>(p[0])} |
           (uint64_t{static_cast<unsigned char>(p[n / 2])} << 8) |
           (uint64_t{static_cast<unsigned char>(p[n - 1])} << 16);
  }
  h = (h ^ tail) * kMul;
  return h ^ (h >> 32);
}

// a == b, without a call to memcmp for short strings (words mostly are).
// The first and the last sizeof(Word) bytes of x and y (n of them each,
// sizeof(Word) <= n <= 2 * sizeof(Word)) are the same: every byte compared.
template <typename Word>
inline bool SameEnds(const char* x, const char* y, std::size_t n) {
  Word x0, x1, y0, y1;
  std::memcpy(&x0, x, sizeof(Word));
  std::memcpy(&y0, y, sizeof(Word));
  std::memcpy(&x1, x + n - sizeof(Word), sizeof(Word));
  std::memcpy(&y1, y + n - sizeof(Word), sizeof(Word));
  return ((x0 ^ y0) | (x1 ^ y1)) == 0;
}

// Up to 16 bytes: two overlapping loads of 8 (or 4) bytes from each side.
inline bool SameShortString(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  if (n > 16) return std::memcmp(a.data(), b.data(), n) == 0;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8) return SameEnds<uint64_t>(x, y, n);
  if (n >= 4) return SameEnds<uint32_t>(x, y, n);
  if (n == 0) return true;
  return x[0] == y[0] && x[n / 2] == y[n / 2] && x[n - 1] == y[n - 1];
}

template <typename Value>
using StringMap = std::unordered_map<std::string, Value, StringViewHash, std::equal_to<>>;

}  // namespace crawl
