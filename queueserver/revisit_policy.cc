// Revisit policies (revisit_policy.h).
#include "queueserver/revisit_policy.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "queueserver/change_rate.h"

namespace crawl::queueserver {
namespace {

int64_t Clamp(const RevisitPolicy& p, int64_t s) {
  return std::clamp<int64_t>(s, p.min_interval_s, p.max_interval_s);
}

bool ParseSeconds(std::string_view t, int64_t* out) {
  if (t.empty()) return false;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), *out);
  return ec == std::errc() && end == t.data() + t.size();
}

// The interval after this fetch (seconds), before clamping.
int64_t NextInterval(const RevisitPolicy& p, const FetchState& s, v1::RevisitKind revisit, int64_t now_us) {
  const int64_t current = s.revisit_interval_s > 0 ? s.revisit_interval_s : p.interval_s;
  const bool saw_content = revisit != v1::REVISIT_NONE || (s.last_status >= 200 && s.last_status < 300);
  switch (p.kind) {
    case RevisitKind::kFixed:
      return p.interval_s;
    case RevisitKind::kExpires: {
      // Yioop: the page's own lifetime, when it gave one and it is ahead.
      const int64_t now_s = now_us / 1'000'000;
      if (!saw_content || s.expires_unix_s <= 0) return Clamp(p, p.interval_s);
      return Clamp(p, s.expires_unix_s - now_s);
    }
    case RevisitKind::kAdaptive: {
      // Nutch AdaptiveFetchSchedule.setFetchSchedule: MODIFIED multiplies
      // by (1 - DEC_RATE), NOTMODIFIED by (1 + INC_RATE), then min/max.
      // A first fetch or an error keeps the interval.
      if (s.revisit_interval_s <= 0 || !saw_content) return Clamp(p, current);
      const double f = revisit == v1::REVISIT_NONE ? 1.0 - p.dec_rate : 1.0 + p.inc_rate;
      return Clamp(p, static_cast<int64_t>(static_cast<double>(current) * f));
    }
    case RevisitKind::kOptimal: {
      if (p.optimal_mu <= 0 || s.times_changed + s.times_unchanged == 0) return Clamp(p, p.interval_s);
      const double interval =
          ChangeRates::Interval(AssumedChangeRate(p, s), p.optimal_mu, static_cast<double>(p.min_interval_s),
                                static_cast<double>(p.max_interval_s));
      return Clamp(p, static_cast<int64_t>(std::llround(interval)));
    }
  }
  return p.interval_s;
}

}  // namespace

Result<RevisitKind> ParseRevisitKind(std::string_view name) {
  if (name.empty() || name == "fixed") return RevisitKind::kFixed;
  if (name == "expires") return RevisitKind::kExpires;
  if (name == "adaptive") return RevisitKind::kAdaptive;
  if (name == "optimal") return RevisitKind::kOptimal;
  return Status::InvalidArgument("unknown revisit policy \"" + std::string(name) +
                                 "\" (fixed, expires, adaptive or optimal)");
}

Status ParseRevisitBounds(std::string_view text, RevisitPolicy* policy) {
  if (text.empty()) return Status::Ok();
  const size_t colon = text.find(':');
  int64_t lo = 0, hi = 0;
  if (colon == std::string_view::npos || !ParseSeconds(text.substr(0, colon), &lo) ||
      !ParseSeconds(text.substr(colon + 1), &hi))
    return Status::InvalidArgument("revisit bounds \"" + std::string(text) +
                                   "\": expected MIN:MAX in seconds");
  if (lo < 1 || lo > hi) return Status::InvalidArgument("revisit bounds: need 1 <= MIN <= MAX");
  policy->min_interval_s = lo;
  policy->max_interval_s = hi;
  return Status::Ok();
}

NextVisit ComputeNextVisit(const RevisitPolicy& policy, const FetchState& state, v1::RevisitKind revisit,
                           int64_t now_us) {
  NextVisit out;
  out.interval_s = std::max<int64_t>(1, NextInterval(policy, state, revisit, now_us));
  out.next_visit_unix_us = now_us + out.interval_s * 1'000'000;
  return out;
}

double AssumedChangeRate(const RevisitPolicy& policy, const FetchState& state) {
  const uint64_t n = state.times_changed + state.times_unchanged;
  const double observed_s = static_cast<double>(state.observed_us) / 1e6;
  if (n == 0 || observed_s <= 0) return 1.0 / static_cast<double>(std::max<int64_t>(1, policy.interval_s));
  if (state.times_changed > 0) return EstimateChangeRate(n, state.times_changed, observed_s);
  // Half a change: -ln(n / (n + 0.5)) / I, the estimator's X = 0.5.
  const double dn = static_cast<double>(n);
  return std::log((dn + 0.5) / dn) / (observed_s / dn);
}

}  // namespace crawl::queueserver
