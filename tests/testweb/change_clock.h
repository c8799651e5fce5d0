// The time of the change model (change_model.h): seconds since the server
// started (real, the default), or a logical clock that only moves when a
// test sets it (`testweb serve --clock logical`, then
// `POST /_testweb/clock?t=SECONDS` on any host's address; see
// request_handler.h). Thread-safe.
#pragma once

#include <atomic>
#include <chrono>

namespace crawl::testweb {

class ChangeClock {
 public:
  enum class Mode { kReal, kLogical };

  explicit ChangeClock(Mode mode = Mode::kReal) : mode_(mode), start_(std::chrono::steady_clock::now()) {}

  [[nodiscard]] Mode mode() const { return mode_; }
  [[nodiscard]] bool logical() const { return mode_ == Mode::kLogical; }

  // Seconds since the epoch of the web (>= 0).
  [[nodiscard]] double Now() const {
    if (logical()) return logical_.load(std::memory_order_relaxed);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  // Sets the logical time. REQUIRES: logical(), t >= 0 and finite.
  void Set(double t) { logical_.store(t, std::memory_order_relaxed); }

 private:
  const Mode mode_;
  const std::chrono::steady_clock::time_point start_;
  std::atomic<double> logical_{0};
};

}  // namespace crawl::testweb
