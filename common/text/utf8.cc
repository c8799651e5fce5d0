// UTF-8 validation and repair (utf8.h).
#include "common/text/utf8.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace crawl::text {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

std::size_t SequenceAt(const unsigned char* s, std::size_t n, std::size_t i, std::size_t* subpart) {
  const unsigned char b = s[i];
  std::size_t len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) {
    len = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    len = 3;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  } else {
    *subpart = 1;
    return 0;
  }
  for (std::size_t k = 1; k < len; ++k) {
    if (i + k >= n) {
      *subpart = k;
      return 0;
    }
    const unsigned char c = s[i + k];
    const unsigned char l = k == 1 ? lo : 0x80;
    const unsigned char h = k == 1 ? hi : 0xBF;
    if (c < l || c > h) {
      *subpart = k;
      return 0;
    }
  }
  return len;
}

bool AsciiWord(const unsigned char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return (w & 0x8080808080808080ULL) == 0;
}

}  // namespace

std::size_t Utf8SequenceAt(std::string_view bytes, std::size_t i, std::size_t* subpart) {
  return SequenceAt(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), i, subpart);
}

std::size_t ValidUtf8Prefix(std::string_view bytes) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  while (i < n) {
#if defined(__SSE2__)
    // Pages are mostly ASCII: 32 bytes a test where they are.
    while (i + 32 <= n) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16));
      if (_mm_movemask_epi8(_mm_or_si128(a, b)) != 0) break;
      i += 32;
    }
    if (i == n) break;  // ASCII to the end: SequenceAt would read past it
#endif
    if (i + 8 <= n && AsciiWord(s + i)) {
      i += 8;
      continue;
    }
    std::size_t subpart = 0;
    const std::size_t len = SequenceAt(s, n, i, &subpart);
    if (len == 0) return i;
    i += len;
  }
  return n;
}

std::string Utf8Cleaned(std::string_view bytes, uint32_t* invalid) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  std::size_t valid = ValidUtf8Prefix(bytes);
  std::string out(bytes.substr(0, valid));
  if (valid == n) return out;
  out.reserve(n + 16);
  std::size_t i = valid;
  while (i < n) {
    std::size_t subpart = 1;
    const std::size_t len = SequenceAt(s, n, i, &subpart);
    if (len == 0) {
      out.append(kReplacement);
      ++*invalid;
      i += subpart;
    } else {
      out.append(bytes.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace crawl::text
