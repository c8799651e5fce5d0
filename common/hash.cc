#include "common/hash.h"

#include <openssl/evp.h>

namespace crawl::hash {

namespace {
// OpenSSL 3's one-shot EVP_Digest(EVP_md5()) allocates a context and looks
// the algorithm up in the provider tables (under a lock) on every call: half
// of its 450 ns on a 60-byte URL. Every URL and term of the crawl is hashed
// here, in the fetcher and the queue server (docs/BENCHMARKS.md), so the
// algorithm is fetched once per process and each thread keeps its context.
const EVP_MD* Md5Algorithm() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "MD5", nullptr);
  return md;
}
struct DigestContext {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  DigestContext() = default;
  DigestContext(const DigestContext&) = delete;
  DigestContext& operator=(const DigestContext&) = delete;
  ~DigestContext() { EVP_MD_CTX_free(ctx); }
};
}  // namespace

std::array<uint8_t, 16> Md5(std::string_view data) {
  std::array<uint8_t, 16> out{};
  unsigned int len = 0;
  thread_local DigestContext context;
  const EVP_MD* md = Md5Algorithm();
  if (md != nullptr && context.ctx != nullptr && EVP_DigestInit_ex2(context.ctx, md, nullptr) == 1 &&
      EVP_DigestUpdate(context.ctx, data.data(), data.size()) == 1 &&
      EVP_DigestFinal_ex(context.ctx, out.data(), &len) == 1)
    return out;
  // Allocation failure above: the one-shot call (which only fails the same way).
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
