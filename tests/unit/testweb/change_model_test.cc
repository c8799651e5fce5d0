// Tests for the change model (tests/testweb/change_model.h) and the web
// over time (universe.h "Change model"): determinism, the heavy tail of
// change intervals, versions, births and deaths and the links that follow
// them, HTTP dates, and that the model is off by default.
#include "tests/testweb/change_model.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "tests/testweb/universe.h"

namespace crawl::testweb {
namespace {

constexpr double kMean = 100;

Universe MakeWeb(double mean_interval, uint64_t seed = 3) {
  UniverseOptions o;
  o.seed = seed;
  o.hosts = 4;
  o.pages = 400;
  o.change_mean_interval_s = mean_interval;
  REQUIRE(ApplyPreset(o).ok());
  auto u = Universe::Create(o);
  REQUIRE(u.ok());
  return std::move(u).value();
}

ChangeModel Model(uint64_t seed) {
  UniverseOptions o;
  o.seed = seed;
  o.change_mean_interval_s = kMean;
  return ChangeModel(o);
}

std::vector<std::string> LinkUrls(const std::vector<Link>& links) {
  std::vector<std::string> urls;
  for (const auto& l : links) urls.push_back(l.url);
  return urls;
}

TEST_CASE("the change model is off by default: static pages, no validators, time ignored", "[unit]") {
  const Universe off = MakeWeb(0);
  CHECK_FALSE(off.change_model().enabled());
  for (uint32_t h = 0; h < off.HostCount(); ++h) {
    for (uint64_t p = 0; p < off.PageCount(h); p += 7) {
      const PageState s = off.PageStateAt(h, p, 1e6);
      CHECK(s.alive());
      CHECK(s.version == 0);
      CHECK(off.RenderPageAt(h, p, 1e6) == off.RenderPageAt(h, p));
      CHECK(LinkUrls(off.Links(h, p, 1e6)) == LinkUrls(off.Links(h, p)));
      const Served served = off.ServeAt(h, off.PagePath(h, p), 1e6);
      CHECK(served.body == off.Serve(h, off.PagePath(h, p)).body);
      CHECK(served.etag.empty());
      CHECK_FALSE(served.last_modified.has_value());
    }
  }
}

TEST_CASE("with the model on, version 0 pages are the static web's pages", "[unit]") {
  const Universe off = MakeWeb(0);
  const Universe on = MakeWeb(kMean);
  // At t = 0 no page has changed; only links to unborn pages are missing.
  for (uint32_t h = 0; h < on.HostCount(); ++h) {
    for (uint64_t p = 0; p < on.PageCount(h); p += 5) {
      if (!on.PageStateAt(h, p, 0).alive()) continue;
      std::vector<std::string> expected;
      for (const auto& l : off.Links(h, p)) {
        if (on.PageStateAt(l.target.host, l.target.page, 0).alive()) expected.push_back(l.url);
      }
      CHECK(LinkUrls(on.Links(h, p, 0)) == expected);
      if (expected.size() == off.Links(h, p).size())
        CHECK(on.RenderPageAt(h, p, 0) == off.RenderPageAt(h, p));
    }
  }
}

TEST_CASE("the same seed gives the same versions, another seed others", "[unit]") {
  const ChangeModel a = Model(11), b = Model(11), c = Model(12);
  uint64_t differ = 0;
  for (uint64_t p = 0; p < 500; ++p) {
    for (double t : {0.0, 50.0, 1000.0, 12345.6}) {
      double la = 0, lb = 0;
      REQUIRE(a.Version(1, p, t, &la) == b.Version(1, p, t, &lb));
      REQUIRE(la == lb);
      differ += a.Version(1, p, t) != c.Version(1, p, t);
    }
    REQUIRE(a.MeanInterval(1, p) == b.MeanInterval(1, p));
  }
  CHECK(differ > 100);
}

TEST_CASE("change intervals are heavy-tailed around the median M, some pages never change", "[unit]") {
  const ChangeModel m = Model(5);
  std::vector<double> intervals;
  uint64_t never = 0;
  const uint64_t n = 20000;
  for (uint64_t p = 0; p < n; ++p) {
    const double i = m.MeanInterval(static_cast<uint32_t>(p % 7), p);
    if (std::isinf(i)) {
      ++never;
    } else {
      intervals.push_back(i);
    }
  }
  CHECK(never > n * 17 / 100);
  CHECK(never < n * 23 / 100);
  std::sort(intervals.begin(), intervals.end());
  auto quantile = [&](double q) { return intervals[static_cast<size_t>(q * (intervals.size() - 1))]; };
  // log-normal, sigma 1.5: p05 = M e^-2.47 = 0.085 M, p50 = M, p95 = 11.8 M.
  CHECK(quantile(0.5) > 0.9 * kMean);
  CHECK(quantile(0.5) < 1.1 * kMean);
  CHECK(quantile(0.05) < 0.1 * kMean);
  CHECK(quantile(0.95) > 10 * kMean);
  CHECK(quantile(0.0) >= ChangeModel::kMinIntervalS);
}

TEST_CASE("versions count change events: monotone, at the mean rate, last change <= t", "[unit]") {
  const ChangeModel m = Model(8);
  uint64_t poisson = 0, slotted = 0;
  for (uint64_t p = 0; p < 300; ++p) {
    const double interval = m.MeanInterval(2, p);
    if (std::isinf(interval)) {
      CHECK(m.Version(2, p, 1e9) == 0);
      continue;
    }
    (interval < kMean / ChangeModel::kSlotBelow ? slotted : poisson) += 1;
    uint64_t previous = 0;
    for (double t = 0; t < 20 * kMean; t += 7.3) {
      double last = -1;
      const uint64_t v = m.Version(2, p, t, &last);
      REQUIRE(v >= previous);
      REQUIRE(last <= t);
      if (v > 0) REQUIRE(m.Version(2, p, last) == v);  // the v-th event happens at `last`
      previous = v;
    }
    // Over 400 mean intervals the count is 400 +- 5 sigma (100) for Poisson
    // (300 pages), within one for one event per slot.
    const uint64_t v = m.Version(2, p, 400 * interval);
    CHECK(v > 300);
    CHECK(v < 500);
    // Past the Poisson horizon, one event per slot: still monotone, bounded work.
    const double horizon = ChangeModel::kPoissonHorizon * kMean;
    const uint64_t at_horizon = m.Version(2, p, horizon);
    double last = 0;
    const uint64_t far = m.Version(2, p, horizon + 1000 * interval, &last);
    CHECK(far >= at_horizon + 999);
    CHECK(far <= at_horizon + 1001);  // slot pages: slots need not align with the horizon
    CHECK(last > horizon);
    CHECK(m.Version(2, p, 1e12) > far);
  }
  CHECK(poisson > 100);
  CHECK(slotted > 5);
}

// A page of `u` with a change event before `t` (version >= 1 at t).
std::pair<uint32_t, uint64_t> ChangedPage(const Universe& u, double t) {
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    for (uint64_t p = 0; p < u.PageCount(h); ++p) {
      if (!u.IsMortal(h, p) && u.PageStateAt(h, p, t).version >= 1) return {h, p};
    }
  }
  FAIL("no changed page");
  return {0, 0};
}

TEST_CASE("a changed page has new title and text but keeps its links", "[unit]") {
  const Universe u = MakeWeb(kMean);
  const auto [h, p] = ChangedPage(u, kMean);
  const std::string before = u.RenderPageAt(h, p, 0);
  const std::string after = u.RenderPageAt(h, p, kMean);
  CHECK(before != after);
  auto title = [](const std::string& html) { return html.substr(0, html.find("</title>")); };
  CHECK(title(before) != title(after));
  // Links follow liveness only: compare the targets alive at both times.
  std::vector<std::string> at0, at1;
  for (const auto& l : u.Links(h, p, 0)) {
    if (u.PageStateAt(l.target.host, l.target.page, kMean).alive()) at0.push_back(l.url);
  }
  for (const auto& l : u.Links(h, p, kMean)) {
    if (u.PageStateAt(l.target.host, l.target.page, 0).alive()) at1.push_back(l.url);
  }
  CHECK(at0 == at1);
  CHECK(u.RenderPageAt(h, p, kMean) == after);  // deterministic per (page, version)
}

TEST_CASE("pages are born and die: 404 before birth, 404 or 410 after death; links follow", "[unit]") {
  const Universe u = MakeWeb(kMean);
  uint64_t born = 0, died = 0, gone410 = 0;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    for (uint64_t p = 0; p < u.PageCount(h); ++p) {
      const PageLifetime life = u.change_model().Lifetime(h, p, u.IsMortal(h, p));
      if (!u.IsMortal(h, p)) {
        CHECK(life.birth == 0);
        CHECK(std::isinf(life.death));
        continue;
      }
      const PageRef parent{h, *u.ParentPage(h, p)};
      auto parent_links = [&](double t) {
        const auto urls = LinkUrls(u.Links(parent.host, parent.page, t));
        return std::count(urls.begin(), urls.end(), u.PageUrl(h, p));
      };
      if (life.birth > 0) {
        ++born;
        CHECK(u.ServeAt(h, u.PagePath(h, p), life.birth / 2).status == 404);
        CHECK(parent_links(life.birth / 2) == 0);
        CHECK(u.ServeAt(h, u.PagePath(h, p), life.birth).status == 200);
        CHECK(parent_links(life.birth) >= 1);  // every page links its tree children
      }
      if (!std::isinf(life.death)) {
        ++died;
        gone410 += life.gone_status == 410;
        CHECK(u.ServeAt(h, u.PagePath(h, p), life.death).status == life.gone_status);
        CHECK(parent_links(life.death) == 0);
        CHECK(parent_links(life.death * 2) == 0);
      }
    }
  }
  CHECK(born > 10);
  CHECK(died > 10);
  CHECK(gone410 > 0);
  CHECK(gone410 < died);
}

TEST_CASE("HTTP dates: the epoch is 2026-01-01, RFC 9110's example parses, round trip", "[unit]") {
  CHECK(HttpDate(0) == "Thu, 01 Jan 2026 00:00:00 GMT");
  CHECK(HttpDate(86400 * 59 + 3661.9) == "Sun, 01 Mar 2026 01:01:01 GMT");
  int64_t s = 0;
  REQUIRE(ParseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT", s));
  CHECK(s + kEpochUnixSeconds == 784111777);
  for (double t : {0.0, 1.0, 12345.0, 1e8}) {
    REQUIRE(ParseHttpDate(HttpDate(t), s));
    CHECK(s == static_cast<int64_t>(t));
  }
  CHECK_FALSE(ParseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", s));  // obsolete RFC 850 form
  CHECK_FALSE(ParseHttpDate("Sun, 06 Nov 1994 08:49:37 UTC", s));
  CHECK_FALSE(ParseHttpDate("Sun, 06 Foo 1994 08:49:37 GMT", s));
  CHECK_FALSE(ParseHttpDate("", s));
}

TEST_CASE("the change model needs a web without misbehaviours or spam, and a sane interval", "[unit]") {
  UniverseOptions o;
  o.hosts = 30;
  o.pages = 600;
  o.preset = "misbehaving";
  REQUIRE(ApplyPreset(o).ok());
  o.change_mean_interval_s = 10;
  CHECK_FALSE(Validate(o).ok());
  UniverseOptions clean;
  clean.change_mean_interval_s = -1;
  CHECK_FALSE(Validate(clean).ok());
  clean.change_mean_interval_s = std::nan("");
  CHECK_FALSE(Validate(clean).ok());
  clean.change_mean_interval_s = 10;
  CHECK(Validate(clean).ok());
}

}  // namespace
}  // namespace crawl::testweb
