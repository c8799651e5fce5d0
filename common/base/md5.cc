// MD5 after RFC 1321 section 3, for the identifier hashes of common/base/hash.h.
#include <cstring>

#include "common/base/hash.h"

namespace crawl::hash {
namespace {

struct State {
  uint32_t a = 0x67452301, b = 0xefcdab89, c = 0x98badcfe, d = 0x10325476;
};

inline uint32_t Rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

inline uint32_t Word(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

#define CRAWL_MD5_STEP(f, a, b, c, d, k, s, t) a = b + Rotl(a + f(b, c, d) + x[k] + (t), s)
#define CRAWL_MD5_F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define CRAWL_MD5_G(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define CRAWL_MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define CRAWL_MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))

// The four rounds of RFC 1321 3.4 over one 64-byte block; the constants are
// its table T[i] = floor(2^32 * abs(sin(i))).
void Compress(State& st, const unsigned char* block) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = Word(block + 4 * i);
  uint32_t a = st.a, b = st.b, c = st.c, d = st.d;
  CRAWL_MD5_STEP(CRAWL_MD5_F, a, b, c, d, 0, 7, 0xd76aa478);
  CRAWL_MD5_STEP(CRAWL_MD5_F, d, a, b, c, 1, 12, 0xe8c7b756);
  CRAWL_MD5_STEP(CRAWL_MD5_F, c, d, a, b, 2, 17, 0x242070db);
  CRAWL_MD5_STEP(CRAWL_MD5_F, b, c, d, a, 3, 22, 0xc1bdceee);
  CRAWL_MD5_STEP(CRAWL_MD5_F, a, b, c, d, 4, 7, 0xf57c0faf);
  CRAWL_MD5_STEP(CRAWL_MD5_F, d, a, b, c, 5, 12, 0x4787c62a);
  CRAWL_MD5_STEP(CRAWL_MD5_F, c, d, a, b, 6, 17, 0xa8304613);
  CRAWL_MD5_STEP(CRAWL_MD5_F, b, c, d, a, 7, 22, 0xfd469501);
  CRAWL_MD5_STEP(CRAWL_MD5_F, a, b, c, d, 8, 7, 0x698098d8);
  CRAWL_MD5_STEP(CRAWL_MD5_F, d, a, b, c, 9, 12, 0x8b44f7af);
  CRAWL_MD5_STEP(CRAWL_MD5_F, c, d, a, b, 10, 17, 0xffff5bb1);
  CRAWL_MD5_STEP(CRAWL_MD5_F, b, c, d, a, 11, 22, 0x895cd7be);
  CRAWL_MD5_STEP(CRAWL_MD5_F, a, b, c, d, 12, 7, 0x6b901122);
  CRAWL_MD5_STEP(CRAWL_MD5_F, d, a, b, c, 13, 12, 0xfd987193);
  CRAWL_MD5_STEP(CRAWL_MD5_F, c, d, a, b, 14, 17, 0xa679438e);
  CRAWL_MD5_STEP(CRAWL_MD5_F, b, c, d, a, 15, 22, 0x49b40821);
  CRAWL_MD5_STEP(CRAWL_MD5_G, a, b, c, d, 1, 5, 0xf61e2562);
  CRAWL_MD5_STEP(CRAWL_MD5_G, d, a, b, c, 6, 9, 0xc040b340);
  CRAWL_MD5_STEP(CRAWL_MD5_G, c, d, a, b, 11, 14, 0x265e5a51);
  CRAWL_MD5_STEP(CRAWL_MD5_G, b, c, d, a, 0, 20, 0xe9b6c7aa);
  CRAWL_MD5_STEP(CRAWL_MD5_G, a, b, c, d, 5, 5, 0xd62f105d);
  CRAWL_MD5_STEP(CRAWL_MD5_G, d, a, b, c, 10, 9, 0x02441453);
  CRAWL_MD5_STEP(CRAWL_MD5_G, c, d, a, b, 15, 14, 0xd8a1e681);
  CRAWL_MD5_STEP(CRAWL_MD5_G, b, c, d, a, 4, 20, 0xe7d3fbc8);
  CRAWL_MD5_STEP(CRAWL_MD5_G, a, b, c, d, 9, 5, 0x21e1cde6);
  CRAWL_MD5_STEP(CRAWL_MD5_G, d, a, b, c, 14, 9, 0xc33707d6);
  CRAWL_MD5_STEP(CRAWL_MD5_G, c, d, a, b, 3, 14, 0xf4d50d87);
  CRAWL_MD5_STEP(CRAWL_MD5_G, b, c, d, a, 8, 20, 0x455a14ed);
  CRAWL_MD5_STEP(CRAWL_MD5_G, a, b, c, d, 13, 5, 0xa9e3e905);
  CRAWL_MD5_STEP(CRAWL_MD5_G, d, a, b, c, 2, 9, 0xfcefa3f8);
  CRAWL_MD5_STEP(CRAWL_MD5_G, c, d, a, b, 7, 14, 0x676f02d9);
  CRAWL_MD5_STEP(CRAWL_MD5_G, b, c, d, a, 12, 20, 0x8d2a4c8a);
  CRAWL_MD5_STEP(CRAWL_MD5_H, a, b, c, d, 5, 4, 0xfffa3942);
  CRAWL_MD5_STEP(CRAWL_MD5_H, d, a, b, c, 8, 11, 0x8771f681);
  CRAWL_MD5_STEP(CRAWL_MD5_H, c, d, a, b, 11, 16, 0x6d9d6122);
  CRAWL_MD5_STEP(CRAWL_MD5_H, b, c, d, a, 14, 23, 0xfde5380c);
  CRAWL_MD5_STEP(CRAWL_MD5_H, a, b, c, d, 1, 4, 0xa4beea44);
  CRAWL_MD5_STEP(CRAWL_MD5_H, d, a, b, c, 4, 11, 0x4bdecfa9);
  CRAWL_MD5_STEP(CRAWL_MD5_H, c, d, a, b, 7, 16, 0xf6bb4b60);
  CRAWL_MD5_STEP(CRAWL_MD5_H, b, c, d, a, 10, 23, 0xbebfbc70);
  CRAWL_MD5_STEP(CRAWL_MD5_H, a, b, c, d, 13, 4, 0x289b7ec6);
  CRAWL_MD5_STEP(CRAWL_MD5_H, d, a, b, c, 0, 11, 0xeaa127fa);
  CRAWL_MD5_STEP(CRAWL_MD5_H, c, d, a, b, 3, 16, 0xd4ef3085);
  CRAWL_MD5_STEP(CRAWL_MD5_H, b, c, d, a, 6, 23, 0x04881d05);
  CRAWL_MD5_STEP(CRAWL_MD5_H, a, b, c, d, 9, 4, 0xd9d4d039);
  CRAWL_MD5_STEP(CRAWL_MD5_H, d, a, b, c, 12, 11, 0xe6db99e5);
  CRAWL_MD5_STEP(CRAWL_MD5_H, c, d, a, b, 15, 16, 0x1fa27cf8);
  CRAWL_MD5_STEP(CRAWL_MD5_H, b, c, d, a, 2, 23, 0xc4ac5665);
  CRAWL_MD5_STEP(CRAWL_MD5_I, a, b, c, d, 0, 6, 0xf4292244);
  CRAWL_MD5_STEP(CRAWL_MD5_I, d, a, b, c, 7, 10, 0x432aff97);
  CRAWL_MD5_STEP(CRAWL_MD5_I, c, d, a, b, 14, 15, 0xab9423a7);
  CRAWL_MD5_STEP(CRAWL_MD5_I, b, c, d, a, 5, 21, 0xfc93a039);
  CRAWL_MD5_STEP(CRAWL_MD5_I, a, b, c, d, 12, 6, 0x655b59c3);
  CRAWL_MD5_STEP(CRAWL_MD5_I, d, a, b, c, 3, 10, 0x8f0ccc92);
  CRAWL_MD5_STEP(CRAWL_MD5_I, c, d, a, b, 10, 15, 0xffeff47d);
  CRAWL_MD5_STEP(CRAWL_MD5_I, b, c, d, a, 1, 21, 0x85845dd1);
  CRAWL_MD5_STEP(CRAWL_MD5_I, a, b, c, d, 8, 6, 0x6fa87e4f);
  CRAWL_MD5_STEP(CRAWL_MD5_I, d, a, b, c, 15, 10, 0xfe2ce6e0);
  CRAWL_MD5_STEP(CRAWL_MD5_I, c, d, a, b, 6, 15, 0xa3014314);
  CRAWL_MD5_STEP(CRAWL_MD5_I, b, c, d, a, 13, 21, 0x4e0811a1);
  CRAWL_MD5_STEP(CRAWL_MD5_I, a, b, c, d, 4, 6, 0xf7537e82);
  CRAWL_MD5_STEP(CRAWL_MD5_I, d, a, b, c, 11, 10, 0xbd3af235);
  CRAWL_MD5_STEP(CRAWL_MD5_I, c, d, a, b, 2, 15, 0x2ad7d2bb);
  CRAWL_MD5_STEP(CRAWL_MD5_I, b, c, d, a, 9, 21, 0xeb86d391);
#undef CRAWL_MD5_STEP
#undef CRAWL_MD5_F
#undef CRAWL_MD5_G
#undef CRAWL_MD5_H
#undef CRAWL_MD5_I
  st.a += a;
  st.b += b;
  st.c += c;
  st.d += d;
}

void PutWord(unsigned char* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}

}  // namespace

std::array<uint8_t, 16> Md5(std::string_view data) {
  State st;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  size_t n = data.size();
  for (; n >= 64; n -= 64, p += 64) Compress(st, p);
  // Padding (RFC 1321 3.1-3.2): 0x80, zeros to 56 bytes mod 64, then the
  // length in bits, 64 bits little-endian; one block or two.
  unsigned char tail[128] = {};
  if (n > 0) std::memcpy(tail, p, n);
  tail[n] = 0x80;
  const size_t tail_size = n < 56 ? 64 : 128;
  const uint64_t bits = uint64_t{data.size()} * 8;
  for (int i = 0; i < 8; ++i) tail[tail_size - 8 + i] = static_cast<unsigned char>(bits >> (8 * i));
  Compress(st, tail);
  if (tail_size == 128) Compress(st, tail + 64);
  std::array<uint8_t, 16> out{};
  PutWord(out.data(), st.a);
  PutWord(out.data() + 4, st.b);
  PutWord(out.data() + 8, st.c);
  PutWord(out.data() + 12, st.d);
  return out;
}

}  // namespace crawl::hash
