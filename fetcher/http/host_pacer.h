// HostPacer: the pacing of one host's requests within a FetchSequence
// (docs/ARCHITECTURE.md "Politeness per address and pacing"; the settings
// and their defaults are CrawlParams 137-140, common/crawl/politeness_params.h).
// Heritrix-style: the wait before the host's next request follows its recent
// response times and backs off on errors, so a server that slows down under
// the crawl's load gets asked less often, and gets the speed back when it
// recovers.
//
// Gap() with adaptive pacing is the largest of
//   - clamp(max(response_gap, floor) x error_multiplier, floor, ceiling), where
//     response_gap is factor_percent / 100 x the response time: it rises at
//     once to a slower answer's value and falls halfway to a faster one's
//     per answer (a slow host stays slow for a few answers; noise in fast
//     answers does not make it oscillate). Before the first answer it is the
//     start pace, the gap the host's previous sequence ended with
//     (ScheduledUrl.start_pace_ms), so a slow host stays slow across
//     schedules;
//   - the robots.txt Crawl-delay (it wins when larger, even above ceiling);
//   - the address pace (SetAddressPace: a lower bound from the cluster-wide
//     per-address slot grant; 0 until set).
// error_multiplier starts at 1, doubles on each 5xx, 429, timeout or
// network error (up to where the gap reaches the ceiling) and halves back
// toward 1 on each other answer. With fixed pacing Gap() is the largest of
// the Crawl-delay and the address pace: the fetcher's behaviour before
// pacing existed.
//
// Pure: no I/O, no clock; times come in. Not thread-safe (one per sequence,
// used on its strand).
#pragma once

#include <chrono>
#include <cstdint>

namespace crawl::fetcher {

// A crawl's pacing settings (CrawlParams.pacing, pace_factor_percent,
// pace_floor_ms, pace_ceiling_ms after NormalizePoliteness). The defaults
// here are "fixed": pacing by Crawl-delay only.
struct PacingOptions {
  bool adaptive = false;
  // The gap is this percent of the response time. REQUIRES: > 0 if adaptive.
  uint32_t factor_percent = 200;
  std::chrono::milliseconds floor{10};
  // REQUIRES: >= floor.
  std::chrono::milliseconds ceiling{30'000};
};

class HostPacer {
 public:
  // `crawl_delay`: the host's robots.txt Crawl-delay (0: none);
  // `start_pace`: the gap its previous sequence ended with (0: none).
  HostPacer(PacingOptions options, std::chrono::milliseconds crawl_delay,
            std::chrono::milliseconds start_pace = std::chrono::milliseconds(0));

  // An HTTP answer with `status` (> 0) that took `fetch_time` from the
  // request's start. Returns true if it made the pacing back off (a 5xx or
  // 429 with adaptive pacing).
  bool OnAnswer(std::chrono::milliseconds fetch_time, int status);
  // A request that got no answer: `error` is its FetchError
  // (common/crawl/fetch_error.h). A timeout or a network error (kTimeout,
  // kConnectError) backs off, a timeout also counting `fetch_time` as a
  // response time; other errors (a bad URL, a cancel, TLS, DNS) say nothing
  // about the server's load and change nothing. Returns true if it backed
  // off (adaptive pacing only).
  bool OnFailure(std::chrono::milliseconds fetch_time, int error);
  // Either of the above by the sign of `status`.
  bool OnResult(std::chrono::milliseconds fetch_time, int status);

  // A lower bound on Gap() from the per-address slot grant (0: none).
  void SetAddressPace(std::chrono::milliseconds pace) { address_pace_ = pace; }

  // The wait before the host's next request.
  [[nodiscard]] std::chrono::milliseconds Gap() const;

  [[nodiscard]] bool adaptive() const { return options_.adaptive; }
  // The current error multiplier (1: no back-off).
  [[nodiscard]] uint32_t error_multiplier() const { return error_multiplier_; }

 private:
  void NoteResponseTime(std::chrono::milliseconds fetch_time);
  bool BackOff();
  void Recover();

  const PacingOptions options_;
  const std::chrono::milliseconds crawl_delay_;
  std::chrono::milliseconds address_pace_{0};
  // factor x response time, smoothed downward (see above); before the
  // first answer, the start pace.
  int64_t response_gap_ms_ = 0;
  uint32_t error_multiplier_ = 1;
};

}  // namespace crawl::fetcher
