// The change model; see change_model.h for its formulas.
#include "tests/testweb/change_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "tests/testweb/rng.h"

namespace crawl::testweb {
namespace {

enum Salt : uint64_t {
  kSaltRate = 0x72617465,
  kSaltEvents = 0x65766E74,
  kSaltSlot = 0x736C6F74,
  kSaltLife = 0x6C696665,
  kSaltETag = 0x65746167,
};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;

// Days since 1970-01-01 of a civil date and back (H. Hinnant, "chrono-
// compatible low-level date algorithms").
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void CivilFromDays(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2);
}

constexpr const char* kDays[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};  // 1970-01-01: Thu
constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

bool Digits(std::string_view s, size_t at, size_t n, int64_t& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

}  // namespace

double ChangeModel::MeanInterval(uint32_t host, uint64_t page) const {
  if (!enabled()) return kInf;
  Rng rng(Hash(seed_, host, page, kSaltRate));
  if (rng.PerMille(kNeverPermille)) return kInf;
  const double u1 = rng.Uniform(), u2 = rng.Uniform();
  const double z = std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * kPi * u2);
  return std::max(kMinIntervalS, mean_ * std::exp(kSigma * z));
}

uint64_t ChangeModel::SlotEvents(uint32_t host, uint64_t page, double interval, double origin, double t,
                                 double* last) const {
  // One event uniformly placed in each slot [origin + k I, origin + (k+1) I).
  auto slot_event = [&](uint64_t k) {
    return origin +
           (static_cast<double>(k) + Rng(Hash(seed_, host, page, kSaltSlot ^ Mix64(k))).Uniform()) * interval;
  };
  if (!(t > origin)) return 0;
  const auto n = static_cast<uint64_t>(std::floor((t - origin) / interval));
  const double in_slot = slot_event(n);
  if (in_slot <= t) {
    *last = in_slot;
    return n + 1;
  }
  if (n > 0) *last = slot_event(n - 1);
  return n;
}

uint64_t ChangeModel::Version(uint32_t host, uint64_t page, double t, double* last) const {
  double ignored = 0;
  if (last == nullptr) last = &ignored;
  *last = 0;
  const double interval = MeanInterval(host, page);
  if (!(t > 0) || std::isinf(interval)) return 0;
  if (interval < mean_ / kSlotBelow) return SlotEvents(host, page, interval, 0, t, last);
  // Poisson up to the horizon: walk the exponential gaps.
  const double horizon = kPoissonHorizon * mean_;
  Rng rng(Hash(seed_, host, page, kSaltEvents));
  uint64_t version = 0;
  const double until = std::min(t, horizon);
  for (;;) {
    const double next = *last - std::log(1.0 - rng.Uniform()) * interval;
    if (next > until) break;
    *last = next;
    ++version;
  }
  if (t <= horizon) return version;
  // Beyond it, one event per slot: the walk's cost stays bounded.
  double slot_last = 0;
  const uint64_t more = SlotEvents(host, page, interval, horizon, t, &slot_last);
  if (more > 0) *last = slot_last;
  return version + more;
}

PageLifetime ChangeModel::Lifetime(uint32_t host, uint64_t page, bool mortal) const {
  PageLifetime life;
  life.death = kInf;
  if (!enabled() || !mortal) return life;
  Rng rng(Hash(seed_, host, page, kSaltLife));
  const uint64_t c = rng.Below(1000);
  const double horizon = kLifetimeHorizon * mean_;
  if (c < kBornPermille) {
    life.birth = rng.Uniform() * horizon;
  } else if (c < kBornPermille + kDiesPermille) {
    life.death = rng.Uniform() * horizon;
  } else if (c < kBornPermille + kDiesPermille + kBornDiesPermille) {
    life.birth = rng.Uniform() * horizon / 2;
    life.death = life.birth + rng.Uniform() * horizon / 2;
  } else {
    return life;
  }
  if (rng.Below(3) == 0) life.gone_status = 410;
  return life;
}

PageState ChangeModel::StateAt(uint32_t host, uint64_t page, double t, bool mortal) const {
  PageState s;
  if (!enabled()) return s;
  const PageLifetime life = Lifetime(host, page, mortal);
  if (t < life.birth) {
    s.status = 404;
    return s;
  }
  if (t >= life.death) {
    s.status = life.gone_status;
    return s;
  }
  double last = 0;
  s.version = Version(host, page, t, &last);
  s.last_modified = std::max(life.birth, last);
  return s;
}

std::string ChangeModel::ETag(uint32_t host, uint64_t page, uint64_t version, uint64_t links) const {
  char buf[24];
  std::snprintf(buf, sizeof buf, "\"%016llx\"",
                static_cast<unsigned long long>(Hash(seed_ ^ kSaltETag, host, page, version) ^ Mix64(links)));
  return buf;
}

std::string HttpDate(double seconds_after_epoch) {
  const int64_t unix = kEpochUnixSeconds + static_cast<int64_t>(std::floor(seconds_after_epoch));
  const int64_t days = unix >= 0 ? unix / 86400 : (unix - 86399) / 86400;
  const int64_t secs = unix - days * 86400;
  int64_t y = 0;
  unsigned m = 0, d = 0;
  CivilFromDays(days, y, m, d);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s, %02u %s %04lld %02lld:%02lld:%02lld GMT", kDays[((days % 7) + 7) % 7],
                d, kMonths[m - 1], static_cast<long long>(y), static_cast<long long>(secs / 3600),
                static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
  return buf;
}

bool ParseHttpDate(std::string_view s, int64_t& seconds_after_epoch) {
  // "Sun, 06 Nov 1994 08:49:37 GMT": 29 bytes.
  if (s.size() != 29 || s.substr(3, 2) != ", " || s[7] != ' ' || s[11] != ' ' || s[16] != ' ' ||
      s[19] != ':' || s[22] != ':' || s.substr(25) != " GMT")
    return false;
  int64_t day = 0, year = 0, hh = 0, mm = 0, ss = 0;
  if (!Digits(s, 5, 2, day) || !Digits(s, 12, 4, year) || !Digits(s, 17, 2, hh) || !Digits(s, 20, 2, mm) ||
      !Digits(s, 23, 2, ss))
    return false;
  unsigned month = 0;
  for (unsigned i = 0; i < 12; ++i) {
    if (s.substr(8, 3) == kMonths[i]) month = i + 1;
  }
  if (month == 0 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60) return false;
  const int64_t unix =
      DaysFromCivil(year, month, static_cast<unsigned>(day)) * 86400 + hh * 3600 + mm * 60 + ss;
  seconds_after_epoch = unix - kEpochUnixSeconds;
  return true;
}

std::string ContentDigest(std::string_view bytes) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001B3ULL;
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace crawl::testweb
