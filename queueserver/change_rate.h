// The `optimal` revisit policy's arithmetic: each page's
// change rate estimated from its fetch history, and revisit frequencies that
// maximise the expected freshness of the shard's pages for a fixed number of
// fetches per second. Source: J. Cho and H. Garcia-Molina, "Effective page
// refresh policies for Web crawlers", ACM TODS 28(4), 2003 (section 4,
// Poisson changes; the estimator from Cho and Garcia-Molina, "Estimating
// frequency of change", ACM TOIT 3(3), 2003, section 4.2):
//   change rate    r = -ln((n - X + 0.5) / (n + 0.5)) / I,
//                  n revisits that saw content, X of them changed, I the
//                  mean time between them;
//   freshness      F(r, f) = (f / r)(1 - e^(-r/f)) of a page visited f
//                  times per second;
//   optimum        dF/df = mu for every page visited: with x = r / f,
//                  1 - (1 + x)e^(-x) = mu r; a page with mu r >= 1 changes
//                  too often for the budget and is not visited (here: at
//                  the ceiling interval, so its rate is still followed);
//                  mu is chosen so that the frequencies sum to the budget.
// Pure: no clock, no store. Not thread-safe.
#pragma once

#include <array>
#include <cstdint>

namespace crawl::queueserver {

// Cho and Garcia-Molina's estimator above, changes per second; `observed_s`
// is the time the n revisits covered. n == 0 or observed_s <= 0: -1 (none).
// X == 0 gives 0 (no change seen).
[[nodiscard]] double EstimateChangeRate(uint64_t revisits, uint64_t changes, double observed_s);

// The frequency (visits per second) that maximises the freshness of a page
// changing `rate` times per second at multiplier `mu`; 0 when mu * rate >= 1
// or rate <= 0.
[[nodiscard]] double OptimalFrequency(double rate, double mu);

// The change rates of the pages of a shard, bucketed (four buckets per
// factor of two between 2^-30 and 2^10 per second, one for "no change
// seen"), and the multiplier mu that spends a budget of fetches on them.
class ChangeRates {
 public:
  void Add(double rate) { ++buckets_[Bucket(rate)], ++pages_; }
  void Remove(double rate);
  void Clear() { buckets_ = {}, pages_ = 0; }
  [[nodiscard]] uint64_t pages() const { return pages_; }

  // The mu at which the pages' frequencies, each clamped to
  // [1 / max_interval_s, 1 / min_interval_s], sum to `fetches_per_s`.
  // REQUIRES: 0 < min_interval_s <= max_interval_s.
  [[nodiscard]] double SolveMu(double fetches_per_s, double min_interval_s, double max_interval_s) const;

  // The interval (seconds) for a page changing `rate` times per second at
  // `mu`, within the bounds.
  [[nodiscard]] static double Interval(double rate, double mu, double min_interval_s, double max_interval_s);

 private:
  static constexpr int kPerOctave = 4, kMinLog2 = -30, kMaxLog2 = 10;
  static constexpr int kBuckets = (kMaxLog2 - kMinLog2) * kPerOctave + 1;  // [0]: rate 0
  [[nodiscard]] static int Bucket(double rate);
  [[nodiscard]] static double RateOf(int bucket);
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t pages_ = 0;
};

}  // namespace crawl::queueserver
