// Zipf's law for the synthetic web: splitting a page budget over hosts
// (rank r gets a share proportional to 1 / (r + 1)^s) and drawing ranks from
// a Zipf distribution (word frequencies, docs/DESIGN.md §10).
#pragma once

#include <cstdint>
#include <vector>

#include "tests/testweb/rng.h"

namespace crawl::testweb {

// Splits `total` into `n` parts, part r proportional to 1 / (r + 1)^exponent,
// every part at least 1, summing exactly to `total` (largest-remainder
// rounding). Parts are non-increasing in r.
// REQUIRES: n >= 1, total >= n, exponent >= 0.
[[nodiscard]] std::vector<uint64_t> ZipfPartition(uint64_t total, uint64_t n, double exponent);

// Draws ranks 0..n-1 with P(r) proportional to 1 / (r + 1)^exponent.
// Immutable after construction; safe to share between threads.
class ZipfSampler {
 public:
  // REQUIRES: n >= 1.
  ZipfSampler(uint64_t n, double exponent);

  [[nodiscard]] uint64_t Sample(Rng& rng) const;
  [[nodiscard]] uint64_t size() const { return cdf_.size(); }

 private:
  std::vector<double> cdf_;      // cdf_[r] = P(rank <= r); cdf_.back() == 1
  std::vector<uint32_t> guide_;  // guide_[b] = first r with cdf_[r] > b / (guide_.size() - 1)
};

}  // namespace crawl::testweb
