// Change-rate estimation and optimal revisit frequencies (change_rate.h).
#include "queueserver/change_rate.h"

#include <algorithm>
#include <cmath>

namespace crawl::queueserver {
namespace {

// 1 - (1 + x)e^(-x): mu * rate at the optimum for x = rate / f (TODS 2003,
// section 4.3); increasing from 0 (x = 0) to 1 (x -> infinity).
double Marginal(double x) { return 1.0 - (1.0 + x) * std::exp(-x); }

}  // namespace

double EstimateChangeRate(uint64_t revisits, uint64_t changes, double observed_s) {
  if (revisits == 0 || observed_s <= 0) return -1;
  const double n = static_cast<double>(revisits);
  const double x = static_cast<double>(std::min(changes, revisits));
  const double mean_interval = observed_s / n;
  return -std::log((n - x + 0.5) / (n + 0.5)) / mean_interval;
}

double OptimalFrequency(double rate, double mu) {
  if (rate <= 0 || mu <= 0) return 0;
  const double target = mu * rate;
  if (target >= 1) return 0;
  // Marginal(x) = target, by bisection on x (Marginal is monotone).
  double lo = 0, hi = 1;
  while (Marginal(hi) < target && hi < 1e6) hi *= 2;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (Marginal(mid) < target ? lo : hi) = mid;
  }
  const double x = 0.5 * (lo + hi);
  return x > 0 ? rate / x : 0;
}

void ChangeRates::Remove(double rate) {
  uint64_t& b = buckets_[Bucket(rate)];
  if (b == 0) return;
  --b;
  --pages_;
}

int ChangeRates::Bucket(double rate) {
  if (!(rate > 0)) return 0;
  const double l = std::log2(rate);
  const int i = static_cast<int>(std::floor((l - kMinLog2) * kPerOctave)) + 1;
  return std::clamp(i, 1, kBuckets - 1);
}

double ChangeRates::RateOf(int bucket) {
  if (bucket == 0) return 0;
  // The bucket's middle (geometric).
  return std::exp2(kMinLog2 + (bucket - 0.5) / kPerOctave);
}

double ChangeRates::Interval(double rate, double mu, double min_interval_s, double max_interval_s) {
  const double f = OptimalFrequency(rate, mu);
  if (f <= 0) return max_interval_s;
  return std::clamp(1.0 / f, min_interval_s, max_interval_s);
}

double ChangeRates::SolveMu(double fetches_per_s, double min_interval_s, double max_interval_s) const {
  // Sum of the clamped frequencies falls as mu grows: bisection on log mu.
  auto spent = [&](double mu) {
    double sum = 0;
    for (int b = 0; b < kBuckets; ++b) {
      if (buckets_[b] == 0) continue;
      sum += static_cast<double>(buckets_[b]) / Interval(RateOf(b), mu, min_interval_s, max_interval_s);
    }
    return sum;
  };
  double lo = -60, hi = 60;  // natural log of mu
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (spent(std::exp(mid)) > fetches_per_s ? lo : hi) = mid;
  }
  return std::exp(0.5 * (lo + hi));
}

}  // namespace crawl::queueserver
