// Tests for the Zipf partition and sampler (tests/testweb/zipf.h).
#include "tests/testweb/zipf.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

namespace crawl::testweb {
namespace {

TEST_CASE("zipf partition sums exactly, keeps every part, and is non-increasing", "[unit]") {
  for (auto [total, n] : std::vector<std::pair<uint64_t, uint64_t>>{
           {1, 1}, {7, 7}, {8, 7}, {2000, 20}, {50'000, 1000}, {1'000'000, 10'000}, {123'457, 3}}) {
    const auto parts = ZipfPartition(total, n, 1.0);
    REQUIRE(parts.size() == n);
    CHECK(std::accumulate(parts.begin(), parts.end(), uint64_t{0}) == total);
    for (size_t i = 0; i < parts.size(); ++i) {
      CHECK(parts[i] >= 1);
      if (i > 0) CHECK(parts[i] <= parts[i - 1]);
    }
  }
}

TEST_CASE("zipf partition with exponent 0 is even", "[unit]") {
  const auto parts = ZipfPartition(1000, 10, 0.0);
  for (uint64_t p : parts) CHECK(p == 100);
}

TEST_CASE("zipf sampler draws rank r about 1/(r+1) as often as rank 0", "[unit]") {
  const ZipfSampler sampler(100, 1.0);
  Rng rng(42);
  std::vector<uint64_t> counts(100, 0);
  for (int i = 0; i < 200'000; ++i) {
    const uint64_t r = sampler.Sample(rng);
    REQUIRE(r < 100);
    ++counts[r];
  }
  CHECK(static_cast<double>(counts[0]) / static_cast<double>(counts[1]) == Approx(2.0).epsilon(0.1));
  CHECK(static_cast<double>(counts[0]) / static_cast<double>(counts[9]) == Approx(10.0).epsilon(0.15));
}

TEST_CASE("rng streams are deterministic and Below stays in range", "[unit]") {
  Rng a(Hash(1, 2, 3, 4)), b(Hash(1, 2, 3, 4)), c(Hash(1, 2, 3, 5));
  bool any_difference = false;
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.Next();
    CHECK(x == b.Next());
    any_difference |= x != c.Next();
  }
  CHECK(any_difference);
  for (int i = 0; i < 1000; ++i) {
    CHECK(a.Below(7) < 7);
    const double u = a.Uniform();
    CHECK((u >= 0 && u < 1));
  }
  // Pinned values: a change here changes every generated web.
  CHECK(Mix64(0) == 0xE220A8397B1DCDAFULL);
}

TEST_CASE("zipf sampler's guide table gives exactly the binary search's ranks", "[unit]") {
  // The reference: the same cdf (same floating-point steps as zipf.cc),
  // searched with std::upper_bound, fed the same uniforms.
  for (const auto& [n, exponent] : {std::pair<uint64_t, double>{1000, 1.0}, {7, 1.0}, {300, 1.7}, {1, 1.0}}) {
    std::vector<double> cdf(n);
    double acc = 0;
    for (uint64_t r = 0; r < n; ++r) {
      const double x = static_cast<double>(r + 1);
      acc += exponent == 1.0 ? 1.0 / x : 1.0 / std::pow(x, exponent);
      cdf[r] = acc;
    }
    for (double& c : cdf) c /= acc;
    cdf.back() = 1.0;
    const ZipfSampler sampler(n, exponent);
    Rng a(Hash(n, 99)), b(Hash(n, 99));
    for (int i = 0; i < 200'000; ++i) {
      const double u = b.Uniform();
      const auto ref = std::min<uint64_t>(
          static_cast<uint64_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin()), n - 1);
      REQUIRE(sampler.Sample(a) == ref);
    }
  }
}

}  // namespace
}  // namespace crawl::testweb
