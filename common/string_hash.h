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
  uint64_t tail = 0;
  for (std::size_t i = 0; i < n; ++i) tail |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  h = (h ^ tail) * kMul;
  return h ^ (h >> 32);
}

// a == b, without a call to memcmp for short strings (words mostly are).
inline bool SameShortString(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  if (a.size() > 16) return std::memcmp(a.data(), b.data(), a.size()) == 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

template <typename Value>
using StringMap = std::unordered_map<std::string, Value, StringViewHash, std::equal_to<>>;

}  // namespace crawl
