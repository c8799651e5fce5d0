// Hosts that degrade under load, for testing a crawler's adaptive pacing
// (docs/ARCHITECTURE.md "Politeness per address and pacing"; testweb serve
// --degrading-hosts N --degrade-base-ms B --degrade-capacity R).
//
// Hosts 0 .. N-1 of the universe answer every request after a delay that
// grows with the request rate they receive, like a server past the knee of
// its load curve (queueing delay rising faster than linearly with load):
//
//   latency = B x (1 + (r / R)^2)
//
// where r counts the requests that reached the host in the last second,
// this one included, and R is its capacity in requests per second. A
// crawler that waits a multiple of the response time between requests
// finds a rate where latency stays near B; one that asks as fast as
// answers come drives it well up. With one connection and k = 1 / (B R),
// x = latency / B settles where x = 1 + (k / ((1 + f) x))^2 for a client
// that waits f x latency between requests: for B = 20 ms, R = 12.5 (k = 4),
// x ~ 2.9 with no wait and x ~ 1.65 with f = 2.
// The delay is served as a first-byte delay; the access log's DURATION_MS
// (access_log.h) shows it.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace crawl::testweb {

struct DegradeOptions {
  uint32_t hosts = 0;                  // hosts 0 .. hosts-1 degrade; 0: none
  std::chrono::milliseconds base{50};  // B: the latency of an unloaded host
  double capacity = 10;                // R: requests per second. REQUIRES: > 0
};

// Thread-safe.
class DegradingHosts {
 public:
  // `names`: the host names that degrade (as Handled.host names them).
  DegradingHosts(DegradeOptions options, std::vector<std::string> names);

  // A request to `host` arrived at `now`: its added first-byte delay (0 for
  // a host that does not degrade).
  [[nodiscard]] std::chrono::milliseconds Delay(std::string_view host,
                                                std::chrono::steady_clock::time_point now);

  // The latency of a host that received `rate` requests in the last second.
  [[nodiscard]] static std::chrono::milliseconds Latency(const DegradeOptions& options, size_t rate);

 private:
  const DegradeOptions options_;
  std::mutex mu_;
  // Per degrading host: the arrival times of its requests in the last second.
  std::unordered_map<std::string, std::deque<std::chrono::steady_clock::time_point>> arrivals_;
};

}  // namespace crawl::testweb
