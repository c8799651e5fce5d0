// Back-off of a host that answers 429 (Too Many Requests) or 503 (Service
// Unavailable), or cannot be reached (RFC 9110 section
// 10.2.3 for Retry-After). Pure: the frontier keeps the per-origin state
// (OriginRecord) and applies the decision.
//   - Retry-After, when the answer has one, is the delay, bounded by max_ms;
//   - otherwise base_ms * 2^(k-1) for the k-th failure in a row, bounded by
//     max_ms;
//   - from the park_after-th failure in a row on, the host is parked for
//     park_ms: its URLs stay queued and it is tried again afterwards, never
//     dropped. A success ends the run of failures.
#pragma once

#include <algorithm>
#include <cstdint>

namespace crawl::queueserver {

struct BackoffOptions {
  int64_t base_ms = 2'000;
  int64_t max_ms = 600'000;
  uint32_t park_after = 8;
  int64_t park_ms = 1'800'000;
  // Times one URL answered 429/503 goes back to the queue before that
  // answer is taken as final (it is in the crawl log either way).
  uint32_t max_url_retries = 5;
};

struct BackoffDecision {
  int64_t delay_ms = 0;
  bool park = false;
};

// The delay after the `failures`-th failure in a row (failures >= 1).
// retry_after_s: the answer's Retry-After in seconds (0: none).
[[nodiscard]] inline BackoffDecision NextBackoff(const BackoffOptions& o, uint32_t failures,
                                                 uint32_t retry_after_s) {
  if (failures >= o.park_after) return {o.park_ms, true};
  if (retry_after_s > 0) return {std::min<int64_t>(int64_t{retry_after_s} * 1000, o.max_ms), false};
  const uint32_t shift = std::min<uint32_t>(failures > 0 ? failures - 1 : 0, 40);
  const int64_t d = o.base_ms > (o.max_ms >> shift) ? o.max_ms : o.base_ms << shift;
  return {std::min(d, o.max_ms), false};
}

// Whether an answer asks the host to be left alone for a while.
[[nodiscard]] inline bool IsBackoffStatus(int status) { return status == 429 || status == 503; }
// Whether an answer counts as a failure of the host (back-off, parking):
// 429, 503, or no answer at all (network error: negative status).
[[nodiscard]] inline bool IsHostFailure(int status) { return IsBackoffStatus(status) || status < 0; }

}  // namespace crawl::queueserver
