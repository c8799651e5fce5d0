// Injected time (algorithms have no clock of their own: tests set the time).
// Services pass a SystemClock; tests pass a ManualClock they advance.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace crawl {

// How far this machine's wall clock runs ahead of the system's (negative:
// behind), in ms. Always 0 in production; only the fault harness moves it,
// through CRAWL_TEST_CLOCK_SKEW_FILE (common/base/clock_skew.h).
inline std::atomic<int64_t> g_clock_skew_ms{0};

// The machine's wall clock now, in Unix microseconds (plus the test skew).
// It may jump (ntp, an operator, a VM resumed): algorithms use a Clock.
[[nodiscard]] inline int64_t MachineWallUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
             .count() +
         g_clock_skew_ms.load(std::memory_order_relaxed) * 1000;
}

// Current time in Unix microseconds as this process sees it: the machine's
// wall clock when the process first asked, advanced by the monotonic clock
// since. A wall clock stepped while the process runs moves none of its
// leases, pacing, back-offs or timeouts (they would all expire at once
// after a step forward); a restart takes the wall clock afresh. The
// monotonic clock is slewed by ntp like the wall clock, so the two agree
// within ntp's slew over a process's life.
[[nodiscard]] inline int64_t NowUnixUs() {
  using std::chrono::steady_clock;
  struct Anchor {
    int64_t wall_us = MachineWallUs();
    steady_clock::time_point steady = steady_clock::now();
  };
  static const Anchor anchor;
  return anchor.wall_us +
         std::chrono::duration_cast<std::chrono::microseconds>(steady_clock::now() - anchor.steady).count();
}

class Clock {
 public:
  virtual ~Clock() = default;
  // Wall-clock time in Unix milliseconds. Thread-safe.
  [[nodiscard]] virtual int64_t NowUnixMs() const = 0;
};

// The process's clock (NowUnixUs).
class SystemClock final : public Clock {
 public:
  [[nodiscard]] int64_t NowUnixMs() const override { return NowUnixUs() / 1000; }
};

// A clock that moves only when told. Thread-safe.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_ms = 1'700'000'000'000) : now_ms_(start_ms) {}
  [[nodiscard]] int64_t NowUnixMs() const override { return now_ms_.load(); }
  void Advance(std::chrono::milliseconds d) { now_ms_ += d.count(); }

 private:
  std::atomic<int64_t> now_ms_;
};

}  // namespace crawl
