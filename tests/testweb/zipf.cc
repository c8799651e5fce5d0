// Zipf partition and sampler; see zipf.h.
#include "tests/testweb/zipf.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace crawl::testweb {
namespace {

double Weight(uint64_t rank, double exponent) {
  // Exponent 1 (the common case) avoids pow(): division is exact IEEE.
  const double x = static_cast<double>(rank + 1);
  return exponent == 1.0 ? 1.0 / x : 1.0 / std::pow(x, exponent);
}

}  // namespace

std::vector<uint64_t> ZipfPartition(uint64_t total, uint64_t n, double exponent) {
  std::vector<uint64_t> parts(n, 1);
  if (n == 0 || total <= n) return parts;
  std::vector<double> w(n);
  for (uint64_t r = 0; r < n; ++r) w[r] = Weight(r, exponent);
  const double sum = std::accumulate(w.begin(), w.end(), 0.0);
  const uint64_t extra = total - n;
  // Floor of each quota first, then the leftover units to the largest
  // fractional remainders (ties to the lower rank, so parts stay sorted).
  std::vector<double> rem(n);
  uint64_t given = 0;
  for (uint64_t r = 0; r < n; ++r) {
    const double quota = static_cast<double>(extra) * w[r] / sum;
    auto whole = static_cast<uint64_t>(quota);
    if (given + whole > extra) whole = extra - given;  // guards rounding
    parts[r] += whole;
    given += whole;
    rem[r] = quota - static_cast<double>(whole);
  }
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return rem[a] > rem[b]; });
  for (uint64_t i = 0; given < extra; i = (i + 1) % n, ++given) parts[order[i]] += 1;
  return parts;
}

ZipfSampler::ZipfSampler(uint64_t n, double exponent) : cdf_(std::max<uint64_t>(n, 1)) {
  double acc = 0;
  for (uint64_t r = 0; r < cdf_.size(); ++r) {
    acc += Weight(r, exponent);
    cdf_[r] = acc;
  }
  for (double& c : cdf_) c /= acc;
  cdf_.back() = 1.0;
  // Guide table (Chen and Asau, 1974): guide_[b] is where the search for
  // any u near b / K starts, so a draw costs a step or two instead of a
  // binary search, with exactly the binary search's answer. Entries are
  // 32-bit to stay small in cache (a vocabulary never nears 2^32 ranks).
  guide_.resize(std::min<uint64_t>(4 * cdf_.size(), 1U << 20) + 1);
  const double k = static_cast<double>(guide_.size() - 1);
  for (size_t b = 0; b < guide_.size(); ++b) {
    guide_[b] = static_cast<uint32_t>(std::upper_bound(cdf_.begin(), cdf_.end(), static_cast<double>(b) / k) -
                                      cdf_.begin());
  }
}

uint64_t ZipfSampler::Sample(Rng& rng) const {
  const double u = rng.Uniform();
  const auto b =
      std::min<size_t>(static_cast<size_t>(u * static_cast<double>(guide_.size() - 1)), guide_.size() - 1);
  // The first r with cdf_[r] > u (std::upper_bound), found from the guide:
  // forwards, and backwards should rounding of u * K have overshot.
  uint64_t r = guide_[b];
  const uint64_t n = cdf_.size();
  while (r < n && cdf_[r] <= u) ++r;
  while (r > 0 && cdf_[r - 1] > u) --r;
  return std::min<uint64_t>(r, n - 1);
}

}  // namespace crawl::testweb
