// Deterministic randomness for the synthetic web: every decision is a pure
// function of (seed, host, page, salt), so any page can be generated on the
// fly, in any order, and is identical across runs and platforms.
//
// SplitMix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
// generators", OOPSLA 2014) is used both as a hash mixer and as the stream
// generator. No std:: distributions are used: their output is
// implementation-defined.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace crawl::testweb {

// The SplitMix64 finaliser: a bijective 64-bit mixer.
[[nodiscard]] constexpr uint64_t Mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// A hash of a short tuple of integers (order matters).
[[nodiscard]] constexpr uint64_t Hash(uint64_t a, uint64_t b = 0, uint64_t c = 0, uint64_t d = 0) {
  uint64_t h = Mix64(a ^ 0x6A09E667F3BCC908ULL);
  h = Mix64(h ^ b);
  h = Mix64(h ^ c);
  h = Mix64(h ^ d);
  return h;
}

// A small stream generator (SplitMix64). Cheap to construct: make one per
// (host, page, purpose) from Hash(...).
class Rng {
 public:
  explicit constexpr Rng(uint64_t state) : state_(state) {}

  constexpr uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n). REQUIRES: n > 0. Lemire's multiply-shift (bias below
  // 2^-64 * n, irrelevant here, and fully deterministic).
  constexpr uint64_t Below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >> 64);
  }

  // Uniform in [lo, hi]. REQUIRES: lo <= hi.
  constexpr uint64_t Between(uint64_t lo, uint64_t hi) { return lo + Below(hi - lo + 1); }

  // Uniform in [0, 1) with 53 bits.
  constexpr double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // True with probability `p`, given in per-mille (integer maths: stable).
  constexpr bool PerMille(uint32_t p) { return Below(1000) < p; }

 private:
  uint64_t state_;
};

// A page index drawn with P(i) ~ 1/(i+1) over [0, n): log-uniform, so low
// indexes (the root, top sections) collect most in-links.
inline uint64_t LowBiased(Rng& rng, uint64_t n) {
  if (n <= 1) return 0;
  const double x = std::exp(rng.Uniform() * std::log(static_cast<double>(n) + 1.0));
  const auto i = static_cast<uint64_t>(x);
  return std::min<uint64_t>(i == 0 ? 0 : i - 1, n - 1);
}

// Parses a decimal without sign or leading zeros ("0" itself is fine): the
// one spelling of an index in generated URLs.
inline std::optional<uint64_t> ParseIndex(std::string_view s) {
  if (s.empty() || s.size() > 19 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace crawl::testweb
