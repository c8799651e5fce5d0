// The optimal revisit policy (queueserver/change_rate.h,
// revisit_policy.h): Cho and Garcia-Molina's change-rate estimator, the
// freshness-maximising frequencies, and the policy's intervals.
#include "queueserver/change_rate.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "queueserver/revisit_policy.h"

namespace qs = crawl::queueserver;
namespace v1 = crawl::v1;
using Catch::Detail::Approx;

namespace {
// F(r, f) = (f / r)(1 - e^(-r/f)) (TODS 2003, section 4).
double Freshness(double rate, double f) { return f <= 0 ? 0 : (f / rate) * (1 - std::exp(-rate / f)); }
}  // namespace

TEST_CASE("change rate: Cho and Garcia-Molina's estimator", "[unit][policy]") {
  // 10 revisits 100 s apart, 4 changed: -ln(6.5 / 10.5) / 100.
  CHECK(qs::EstimateChangeRate(10, 4, 1000) == Approx(-std::log(6.5 / 10.5) / 100));
  CHECK(qs::EstimateChangeRate(10, 0, 1000) == 0);
  // Every revisit changed: finite (the 0.5 terms), growing with n.
  CHECK(qs::EstimateChangeRate(10, 10, 1000) == Approx(std::log(21.0) / 100));
  CHECK(qs::EstimateChangeRate(0, 0, 0) < 0);
  CHECK(qs::EstimateChangeRate(3, 1, 0) < 0);
}

TEST_CASE("optimal frequency: the marginal freshness is mu for every page visited", "[unit][policy]") {
  const double mu = 20;
  for (double rate : {0.001, 0.01, 0.04}) {
    const double f = qs::OptimalFrequency(rate, mu);
    REQUIRE(f > 0);
    // dF/df numerically equals mu.
    const double h = f * 1e-5;
    CHECK((Freshness(rate, f + h) - Freshness(rate, f - h)) / (2 * h) == Approx(mu).epsilon(1e-3));
  }
  // A page changing too often for the budget (mu * rate >= 1) is not visited.
  CHECK(qs::OptimalFrequency(0.05, mu) == 0);
  CHECK(qs::OptimalFrequency(1.0, mu) == 0);
  // Visits grow with the change rate up to a point, then fall (TODS 2003, figure 6).
  CHECK(qs::OptimalFrequency(0.01, mu) > qs::OptimalFrequency(0.001, mu));
  CHECK(qs::OptimalFrequency(0.045, mu) < qs::OptimalFrequency(0.02, mu));
}

TEST_CASE("optimal mu spends the budget and beats uniform visits", "[unit][policy]") {
  qs::ChangeRates rates;
  std::vector<double> pages;
  for (int i = 0; i < 100; ++i) pages.push_back(std::exp2(-12 + i * 0.1));  // 1/4096 .. ~1/4 per second
  for (double r : pages) rates.Add(r);
  CHECK(rates.pages() == 100);
  const double budget = 100.0 / 60;  // every page once a minute on average
  const double mu = rates.SolveMu(budget, 1, 1e6);
  double spent = 0, optimal = 0, uniform = 0;
  for (double r : pages) {
    const double interval = qs::ChangeRates::Interval(r, mu, 1, 1e6);
    spent += 1 / interval;
    optimal += Freshness(r, 1 / interval);
    uniform += Freshness(r, 1.0 / 60);
  }
  CHECK(spent == Approx(budget).epsilon(0.03));
  CHECK(optimal > uniform);
  rates.Remove(pages[0]);
  CHECK(rates.pages() == 99);
  rates.Clear();
  CHECK(rates.pages() == 0);
}

TEST_CASE("revisit policy optimal: from the page's history and the shard's multiplier", "[unit][policy]") {
  constexpr int64_t kNowUs = 1'700'000'000'000'000;
  qs::RevisitPolicy p;
  p.kind = qs::RevisitKind::kOptimal;
  p.interval_s = 100;
  p.min_interval_s = 10;
  p.max_interval_s = 5000;
  qs::FetchState s;
  s.url = "https://a.example/";
  s.last_status = 200;
  // No multiplier yet, or no revisit yet: the mean interval.
  CHECK(qs::ComputeNextVisit(p, s, v1::REVISIT_NONE, kNowUs).interval_s == 100);
  p.optimal_mu = 20;
  CHECK(qs::ComputeNextVisit(p, s, v1::REVISIT_NONE, kNowUs).interval_s == 100);
  // 10 revisits over 1000 s, 1 changed: rate -ln(9.5 / 10.5) / 100 ~ 0.001.
  s.times_unchanged = 9;
  s.times_changed = 1;
  s.observed_us = 1000 * 1'000'000LL;
  const double rate = qs::AssumedChangeRate(p, s);
  CHECK(rate == Approx(-std::log(9.5 / 10.5) / 100));
  const auto next = qs::ComputeNextVisit(p, s, v1::REVISIT_NOT_MODIFIED, kNowUs);
  CHECK(next.interval_s == std::llround(1 / qs::OptimalFrequency(rate, 20)));
  CHECK(next.next_visit_unix_us == kNowUs + next.interval_s * 1'000'000);
  // Changed at every revisit (rate ln(21) / 100 ~ 0.03), too often for mu 50: the ceiling.
  s.times_unchanged = 0;
  s.times_changed = 10;
  p.optimal_mu = 50;
  CHECK(qs::ComputeNextVisit(p, s, v1::REVISIT_NONE, kNowUs).interval_s == 5000);
  // No change seen counts half a change: not parked at the ceiling after one quiet revisit.
  s.times_changed = 0;
  s.times_unchanged = 1;
  s.observed_us = 100 * 1'000'000LL;
  CHECK(qs::AssumedChangeRate(p, s) == Approx(std::log(1.5) / 100));
  CHECK(qs::ComputeNextVisit(p, s, v1::REVISIT_NOT_MODIFIED, kNowUs).interval_s < 5000);
}
