// Politeness as fetchers report it (docs/ARCHITECTURE.md "Politeness per address and pacing"; FetchRecord
// 50-53 and fetch_ms), kept per origin in RAM beside the frontier's OriginState
// (queueserver/frontier/frontier.h), and a small board of the origins with
// the largest pace for the queue server's /metrics.
//
// Not durable: nothing here is journaled, so a queue server restart forgets
// the last pace, address and response times of every origin (its first
// schedules after a restart carry no start_pace_ms; the fetchers' pacing
// then starts afresh). The back-off state (OriginRecord) is durable and is
// not kept here.
//
// Bounded: OriginPace is 60 bytes (the address as 16 bytes, 16 response
// times as uint16 ms, saturating at 65,535); PaceBoard holds at most
// kPaceBoardSize hosts. Not thread-safe: the frontier's owner serialises calls.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace crawl::queueserver {

class OriginPace {
 public:
  static constexpr size_t kRecent = 16;

  // One fetch record of the origin, reported at `now_ms`. `remote_ip` that
  // is empty or not an IPv4/IPv6 text keeps the address known before;
  // `fetch_ms` is kept when the fetch got an answer (status >= 0) or took
  // time (a timeout), so a DNS failure adds no zero.
  void Note(std::string_view remote_ip, uint32_t pace_ms, uint32_t fetch_ms, int status, int64_t now_ms);

  [[nodiscard]] bool known() const { return last_s_ != 0; }
  // The gap (ms) before the origin's last request (0: none reported).
  [[nodiscard]] uint32_t pace_ms() const { return pace_ms_; }
  // The address of the last answer, in text ("" when none is known).
  [[nodiscard]] std::string Address() const;
  // Response times of the last fetches, oldest first (at most kRecent).
  [[nodiscard]] std::vector<uint32_t> Recent() const;
  // The median of Recent() (the lower middle one; 0 when none).
  [[nodiscard]] uint32_t MedianMs() const;
  // Unix seconds of the last report (0: none): the freshest origin of a host wins.
  [[nodiscard]] uint32_t last_s() const { return last_s_; }

 private:
  uint32_t pace_ms_ = 0;
  uint32_t last_s_ = 0;
  std::array<uint16_t, kRecent> recent_{};  // a ring: next_ is the oldest once full
  std::array<uint8_t, 16> ip_{};            // IPv4 in the first 4 bytes
  uint8_t family_ = 0;                      // 0: none, 4 or 6
  uint8_t count_ = 0;
  uint8_t next_ = 0;
};

// One host's line on the board.
struct HostPace {
  std::string host;
  uint32_t pace_ms = 0;
  uint32_t median_ms = 0;  // of its recent response times
};

inline constexpr size_t kPaceBoardSize = 64;
// A host not reported for this long leaves the board (it is not being
// crawled now, whatever its last pace was).
inline constexpr int64_t kPaceBoardStaleMs = 300'000;

// The hosts with the largest last pace among those reported recently. Each
// report updates the host's line or, when the board is full, replaces the
// smallest pace if the new one is larger; so a host's line may lag until
// its next report, and a host pushed out comes back with its next report.
class PaceBoard {
 public:
  void Note(std::string_view host, uint32_t pace_ms, uint32_t median_ms, int64_t now_ms);
  // The `n` largest paces (ties by host name), leaving out paces of 0 and
  // dropping lines older than kPaceBoardStaleMs.
  [[nodiscard]] std::vector<HostPace> Top(size_t n, int64_t now_ms);
  void Clear() { lines_.clear(); }
  [[nodiscard]] size_t size() const { return lines_.size(); }

 private:
  struct Line {
    uint32_t pace_ms = 0;
    uint32_t median_ms = 0;
    int64_t at_ms = 0;
  };
  std::map<std::string, Line, std::less<>> lines_;
};

}  // namespace crawl::queueserver
