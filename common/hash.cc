#include "common/hash.h"

#include <openssl/evp.h>

namespace crawl::hash {

std::array<uint8_t, 16> Md5(std::string_view data) {
  std::array<uint8_t, 16> out{};
  unsigned int len = 0;
  // EVP_Digest is a one-shot call; it only fails on allocation failure, and
  // MD5 with a stack buffer does not allocate beyond the context.
  EVP_Digest(data.data(), data.size(), out.data(), &len, EVP_md5(), nullptr);
  return out;
}

std::array<uint8_t, 8> Hash8Bytes(std::string_view data) {
  const auto md5 = Md5(data);
  std::array<uint8_t, 8> out{};
  for (size_t i = 0; i < 8; ++i) out[i] = md5[i] ^ md5[i + 8];
  return out;
}

uint64_t Hash8(std::string_view data) {
  const auto bytes = Hash8Bytes(data);
  uint64_t v = 0;
  for (uint8_t b : bytes) v = (v << 8) | b;
  return v;
}

std::string Hash8Hex(std::string_view data) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto bytes = Hash8Bytes(data);
  std::string out;
  out.reserve(16);
  for (uint8_t b : bytes) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

}  // namespace crawl::hash
