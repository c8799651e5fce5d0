// See host_pacer.h.
#include "fetcher/http/host_pacer.h"

#include <algorithm>

#include "common/crawl/fetch_error.h"

namespace crawl::fetcher {

namespace {

// Bounds the multiplier whatever the ceiling: 2^16 x any gap is past it.
constexpr uint32_t kMaxErrorMultiplier = 1u << 16;

bool IsOverloadAnswer(int status) { return status >= 500 || status == 429; }

}  // namespace

HostPacer::HostPacer(PacingOptions options, std::chrono::milliseconds crawl_delay,
                     std::chrono::milliseconds start_pace)
    : options_(options),
      crawl_delay_(std::max(crawl_delay, std::chrono::milliseconds(0))),
      response_gap_ms_(std::max<int64_t>(start_pace.count(), 0)) {}

bool HostPacer::OnAnswer(std::chrono::milliseconds fetch_time, int status) {
  if (!options_.adaptive) return false;
  NoteResponseTime(fetch_time);
  if (IsOverloadAnswer(status)) return BackOff();
  Recover();
  return false;
}

bool HostPacer::OnFailure(std::chrono::milliseconds fetch_time, int error) {
  if (!options_.adaptive) return false;
  if (error == kTimeout) {
    NoteResponseTime(fetch_time);
    return BackOff();
  }
  if (error == kConnectError) return BackOff();
  return false;
}

bool HostPacer::OnResult(std::chrono::milliseconds fetch_time, int status) {
  return status > 0 ? OnAnswer(fetch_time, status) : OnFailure(fetch_time, status);
}

void HostPacer::NoteResponseTime(std::chrono::milliseconds fetch_time) {
  const int64_t sample = std::max<int64_t>(fetch_time.count(), 0) * options_.factor_percent / 100;
  // Up at once, down halfway: a slow answer is taken seriously at once.
  response_gap_ms_ = sample >= response_gap_ms_ ? sample : (response_gap_ms_ + sample) / 2;
}

bool HostPacer::BackOff() {
  // Doubling stops once the gap has reached the ceiling: past it the
  // multiplier would only delay the recovery.
  const int64_t base = std::max<int64_t>({response_gap_ms_, options_.floor.count(), 1});
  if (base * error_multiplier_ >= options_.ceiling.count() || error_multiplier_ >= kMaxErrorMultiplier) {
    return false;
  }
  error_multiplier_ *= 2;
  return true;
}

void HostPacer::Recover() { error_multiplier_ = std::max<uint32_t>(1, error_multiplier_ / 2); }

std::chrono::milliseconds HostPacer::Gap() const {
  std::chrono::milliseconds gap = std::max(crawl_delay_, address_pace_);
  if (!options_.adaptive) return gap;
  // The multiplier scales the floor too: a host that answers 503 at once
  // still backs off.
  const int64_t base = std::max<int64_t>(response_gap_ms_, options_.floor.count());
  const int64_t paced = std::clamp<int64_t>(base * error_multiplier_, options_.floor.count(),
                                            std::max(options_.floor, options_.ceiling).count());
  return std::max(gap, std::chrono::milliseconds(paced));
}

}  // namespace crawl::fetcher
