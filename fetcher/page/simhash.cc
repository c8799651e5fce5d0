// Simhash of a page's words (simhash.h; Charikar 2002).
#include "fetcher/page/simhash.h"

#include <array>
#include <bit>
#include <string>

#include "common/base/hash.h"
#include "common/text/tokenizer.h"

namespace crawl::fetcher {

namespace {

// The 64 per-bit counts of ones among the features' hashes, bit-sliced:
// plane k holds bit k of every count, so adding a hash is a ripple-carry
// addition across the planes (about two steps on average), not 64 separate
// counter updates: this made the fingerprint several times cheaper.
class BitCounts {
 public:
  void Add(uint64_t x) {
    for (std::size_t k = 0; x != 0 && k < planes_.size(); ++k) {
      const uint64_t carry = planes_[k] & x;
      planes_[k] ^= x;
      x = carry;
    }
  }
  [[nodiscard]] uint64_t Count(int bit) const {
    uint64_t n = 0;
    for (std::size_t k = 0; k < planes_.size(); ++k) n |= ((planes_[k] >> bit) & 1) << k;
    return n;
  }

 private:
  std::array<uint64_t, 40> planes_{};  // counts below 2^40: far more features than a page has
};

// A shingle's feature hash from its words' hashes: rotated apart so that
// order counts, then mixed (the 64-bit finalizer of MurmurHash3) so that
// every bit depends on every word. Hashing each word once, not each
// shingle's bytes three times, halved the fingerprint's cost.
uint64_t ShingleHash(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = std::rotl(a, 42) ^ std::rotl(b, 21) ^ c;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

}  // namespace

uint64_t SimhashOfWords(std::string_view words) {
  static_assert(kSimhashShingleWords == 3, "ShingleHash combines three words");
  BitCounts ones;
  uint64_t prev2 = 0, prev1 = 0;  // hashes of the two words before this one
  std::size_t count = 0;
  uint64_t features = 0;
  std::size_t pos = 0;
  while (pos < words.size()) {
    std::size_t end = words.find(' ', pos);
    if (end == std::string_view::npos) end = words.size();
    const uint64_t h = hash::PageTextHash(words.substr(pos, end - pos));
    if (++count >= kSimhashShingleWords) {
      ones.Add(ShingleHash(prev2, prev1, h));
      ++features;
    }
    prev2 = prev1;
    prev1 = h;
    pos = end + 1;
  }
  if (count < kSimhashMinWords) return 0;
  // Bit b is 1 when more features have it set than clear (each votes +1 or -1).
  uint64_t fingerprint = 0;
  for (int b = 0; b < 64; ++b) {
    if (2 * ones.Count(b) > features) fingerprint |= uint64_t{1} << b;
  }
  return fingerprint;
}

uint64_t SimhashOfText(std::string_view text) {
  std::string words;
  words.reserve(text.size());
  text::ForEachToken(text, [&](std::string_view t) {
    if (!words.empty()) words.push_back(' ');
    words.append(t);
  });
  return SimhashOfWords(words);
}

}  // namespace crawl::fetcher
