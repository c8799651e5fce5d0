// Injected time (algorithms have no clock of their own: tests set the time).
// Services pass a SystemClock; tests pass a ManualClock they advance.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace crawl {

// How far this process's wall clock runs ahead of the system's (negative:
// behind), in ms. Always 0 in production; only the fault harness moves it,
// through CRAWL_TEST_CLOCK_SKEW_FILE (common/base/clock_skew.h).
inline std::atomic<int64_t> g_clock_skew_ms{0};

class Clock {
 public:
  virtual ~Clock() = default;
  // Wall-clock time in Unix milliseconds. Thread-safe.
  [[nodiscard]] virtual int64_t NowUnixMs() const = 0;
};

class SystemClock final : public Clock {
 public:
  [[nodiscard]] int64_t NowUnixMs() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count() +
           g_clock_skew_ms.load(std::memory_order_relaxed);
  }
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

// Current wall-clock time in Unix microseconds (log and fetch timestamps),
// skewed as SystemClock is.
[[nodiscard]] inline int64_t NowUnixUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
             .count() +
         g_clock_skew_ms.load(std::memory_order_relaxed) * 1000;
}

}  // namespace crawl
