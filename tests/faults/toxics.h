// Toxics: how FaultProxy (fault_proxy.h) degrades its link right now. A
// plain value; the proxy keeps one under its lock.
#pragma once

#include <cstdint>

namespace crawl::faults {

struct Toxics {
  uint32_t latency_ms = 0;  // one-way delay added to each chunk
  uint32_t jitter_ms = 0;   // +- uniform around latency_ms (never below 0)
  uint64_t bandwidth = 0;   // bytes/s per direction per connection; 0: no limit
  bool blackhole = false;   // read and drop every byte, keep connections open
  bool refuse = false;      // accept new connections and reset them at once

  bool operator==(const Toxics&) const = default;
};

}  // namespace crawl::faults
