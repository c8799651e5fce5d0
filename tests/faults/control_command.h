// ControlCommand: one line of FaultProxy's control protocol (fault_proxy.h)
// parsed, a pure function so the grammar is tested apart from sockets.
//   latency MS [JITTER_MS]   bandwidth BYTES_PER_S   blackhole on|off
//   refuse on|off   reset   down   up   heal   stats
// Words are separated by spaces or tabs; a trailing '\r' is ignored.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/base/status.h"

namespace crawl::faults {

enum class CommandKind { kLatency, kBandwidth, kBlackhole, kRefuse, kReset, kDown, kUp, kHeal, kStats };

struct ControlCommand {
  CommandKind kind = CommandKind::kStats;
  uint64_t value = 0;   // latency: ms; bandwidth: bytes/s
  uint64_t jitter = 0;  // latency: jitter ms
  bool on = false;      // blackhole, refuse

  bool operator==(const ControlCommand&) const = default;
};

// The largest latency or jitter accepted: one hour.
inline constexpr uint64_t kMaxLatencyMs = 3'600'000;

// Parses one line. InvalidArgument naming what is wrong for an empty line,
// an unknown command, a missing, extra or malformed argument, or a number
// out of range. Never throws.
[[nodiscard]] Result<ControlCommand> ParseControlCommand(std::string_view line);

}  // namespace crawl::faults
