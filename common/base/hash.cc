#include "common/base/hash.h"

#include "common/base/flat_string_map.h"
#include "common/base/string_hash.h"

// Header-only xxHash (Debian libxxhash-dev): nothing to link or ship.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace crawl::hash {

namespace {

void AppendHex(const uint8_t* bytes, size_t n, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < n; ++i) {
    out->push_back(kHex[bytes[i] >> 4]);
    out->push_back(kHex[bytes[i] & 15]);
  }
}

}  // namespace

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

uint64_t RecurringHash8(std::string_view data) {
  constexpr size_t kMaxRemembered = size_t{1} << 16;
  constexpr size_t kMaxBytes = 512;
  if (data.size() > kMaxBytes) return Hash8(data);
  thread_local FlatStringMap<uint64_t> remembered;
  const uint64_t lookup = ShortStringHash(data);
  if (const uint64_t* known = remembered.Find(data, lookup)) return *known;
  const uint64_t h = Hash8(data);
  if (remembered.size() >= kMaxRemembered) remembered.clear();
  *remembered.Insert(data, lookup).first = h;
  return h;
}

std::string Hash8Hex(std::string_view data) {
  const auto bytes = Hash8Bytes(data);
  std::string out;
  out.reserve(16);
  AppendHex(bytes.data(), bytes.size(), &out);
  return out;
}

std::string ContentDigestHex(std::string_view body) {
  const uint64_t h = XXH3_64bits(body.data(), body.size());
  std::array<uint8_t, 8> bytes{};
  for (size_t i = 0; i < 8; ++i)
    bytes[i] = static_cast<uint8_t>(h >> (56 - 8 * i));  // xxHash's canonical order
  std::string out;
  out.reserve(16);
  AppendHex(bytes.data(), bytes.size(), &out);
  return out;
}

uint64_t PageTextHash(std::string_view words) { return XXH3_64bits(words.data(), words.size()); }

}  // namespace crawl::hash
