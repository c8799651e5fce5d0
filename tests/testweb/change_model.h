// The change model of the synthetic web: when and how
// often each page changes, and when it appears or disappears, as a pure
// function of (seed, host, page, t). No clock of its own: t is seconds
// since the epoch of the web (server start, or a logical clock a test sets;
// see change_clock.h). Off (every page at version 0, always alive) unless
// UniverseOptions::change_mean_interval_s > 0.
//
// Formulas (M = change_mean_interval_s, u uniform in [0, 1) drawn from
// Hash(seed, host, page, salt), z standard normal by Box-Muller):
//   - never-changing pages: a share kNeverPermille;
//   - mean interval of the others: I = M * exp(kSigma * z), log-normal with
//     median M (a heavy tail both ways: 5% of pages change more than 12x as
//     often as the median page, 5% less than 1/12 as often), at least
//     kMinIntervalS;
//   - change events: for I >= M / kSlotBelow a Poisson process (Cho and
//     Garcia-Molina, "Effective page refresh policies for web crawlers",
//     TODS 2003, model page changes so): gaps -ln(1-u) * I from one Rng
//     stream, version(t) = number of events <= t, found by walking the
//     gaps; faster pages have one event uniformly placed in each slot
//     [k I, (k+1) I), so version(t) is O(1) for any t; after the horizon
//     P = kPoissonHorizon * M every page goes on with one event per slot
//     [P + k I, P + (k+1) I), so a walk takes about P * kSlotBelow / M
//     (2048) steps whatever t is;
//   - lifetime: only non-root leaves of a host's page tree (no page loses
//     its reachability) with horizon L = kLifetimeHorizon * M: a share
//     kBornPermille is born at u L (404 before), a share kDiesPermille dies
//     at u L (404, or 410 for a third of them, after), a share
//     kBornDiesPermille is born at u L / 2 and dies L / 2 * u' later;
//   - Last-Modified = max(birth, time of the last event <= t), in whole
//     seconds after kEpochUnixSeconds (2026-01-01T00:00:00Z), so it is the
//     same under a logical clock on every run;
//   - ETag = "\"" + 16 hex digits of Hash(seed, host, page, version) mixed
//     with a hash of which link targets live at t (Universe::ValidatorsAt) +
//     "\"": strong, since a page's bytes are a pure function of those.
//     Last-Modified then also counts the births and deaths of its targets.
//
// Thread-safety: const and stateless beyond its options; safe to share.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tests/testweb/universe_options.h"

namespace crawl::testweb {

// 2026-01-01T00:00:00Z: what t = 0 is in Last-Modified.
inline constexpr int64_t kEpochUnixSeconds = 1'767'225'600;

// Where and what a page is at time t.
struct PageState {
  unsigned status = 200;     // 200 alive, 404 not yet born or gone, 410 gone for good
  uint64_t version = 0;      // change events at or before t (0 when off)
  double last_modified = 0;  // seconds after the epoch: max(birth, last event)
  [[nodiscard]] bool alive() const { return status == 200; }
};

// When a page exists: [birth, death). death = +inf when it never dies.
struct PageLifetime {
  double birth = 0;
  double death = 0;  // set by the model; +inf when immortal
  unsigned gone_status = 404;
};

class ChangeModel {
 public:
  static constexpr uint32_t kNeverPermille = 200;
  static constexpr double kSigma = 1.5;
  static constexpr double kSlotBelow = 8;  // Poisson for I >= M / 8, slots below
  static constexpr double kMinIntervalS = 0.5;
  static constexpr double kPoissonHorizon = 256;  // in units of M
  static constexpr double kLifetimeHorizon = 10;
  static constexpr uint32_t kBornPermille = 100;
  static constexpr uint32_t kDiesPermille = 100;
  static constexpr uint32_t kBornDiesPermille = 50;

  // Off.
  ChangeModel() = default;
  explicit ChangeModel(const UniverseOptions& options)
      : seed_(options.seed), mean_(options.change_mean_interval_s) {}

  [[nodiscard]] bool enabled() const { return mean_ > 0; }

  // The page's mean interval between changes in seconds; +inf if it never
  // changes (and always when off).
  [[nodiscard]] double MeanInterval(uint32_t host, uint64_t page) const;
  // Change events at or before t, and the time of the last one (0 if none).
  [[nodiscard]] uint64_t Version(uint32_t host, uint64_t page, double t, double* last = nullptr) const;
  // `mortal`: the page may be born or die (the universe says which pages
  // can: non-root leaves). Immortal pages live over [0, +inf).
  [[nodiscard]] PageLifetime Lifetime(uint32_t host, uint64_t page, bool mortal) const;
  [[nodiscard]] PageState StateAt(uint32_t host, uint64_t page, double t, bool mortal) const;

  // The strong ETag of a version whose link targets' liveness hashes to
  // `links`, quotes included.
  [[nodiscard]] std::string ETag(uint32_t host, uint64_t page, uint64_t version, uint64_t links = 0) const;

 private:
  // Events at origin + (k + u_k) I <= t, k >= 0; *last: the latest (kept if none).
  [[nodiscard]] uint64_t SlotEvents(uint32_t host, uint64_t page, double interval, double origin, double t,
                                    double* last) const;

  uint64_t seed_ = 0;
  double mean_ = 0;
};

// An HTTP-date (RFC 9110 section 5.6.7, IMF-fixdate) for a time after the
// epoch: "Thu, 01 Jan 2026 00:00:00 GMT" for 0; fractions are cut.
[[nodiscard]] std::string HttpDate(double seconds_after_epoch);
// Parses an IMF-fixdate into seconds after the epoch (may be negative);
// false on anything else (obsolete formats are not matched: the request
// is then treated as unconditional, which RFC 9110 section 13.1.3 allows).
[[nodiscard]] bool ParseHttpDate(std::string_view text, int64_t& seconds_after_epoch);
// FNV-1a 64 of bytes, 16 hex digits: the export's content digest.
[[nodiscard]] std::string ContentDigest(std::string_view bytes);

}  // namespace crawl::testweb
