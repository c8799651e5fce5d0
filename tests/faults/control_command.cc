// ParseControlCommand (control_command.h): split into words, then one case
// per command.
#include "tests/faults/control_command.h"

#include <string>
#include <vector>

namespace crawl::faults {
namespace {

std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

// A decimal number no greater than `max`; false otherwise.
bool ParseNumber(std::string_view text, uint64_t max, uint64_t* out) {
  if (text.empty() || text.size() > 19) return false;
  uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (value > max) return false;
  *out = value;
  return true;
}

Status Bad(std::string_view what) { return Status::InvalidArgument(std::string(what)); }

Result<ControlCommand> ParseLatency(const std::vector<std::string_view>& words) {
  ControlCommand command{.kind = CommandKind::kLatency};
  if (words.size() < 2 || words.size() > 3) return Bad("usage: latency MS [JITTER_MS]");
  if (!ParseNumber(words[1], kMaxLatencyMs, &command.value)) return Bad("latency: MS must be 0..3600000");
  if (words.size() == 3 && !ParseNumber(words[2], kMaxLatencyMs, &command.jitter))
    return Bad("latency: JITTER_MS must be 0..3600000");
  return command;
}

Result<ControlCommand> ParseOnOff(CommandKind kind, const std::vector<std::string_view>& words) {
  const std::string name(words[0]);
  if (words.size() != 2) return Bad("usage: " + name + " on|off");
  if (words[1] != "on" && words[1] != "off") return Bad(name + ": say on or off");
  return ControlCommand{.kind = kind, .on = words[1] == "on"};
}

}  // namespace

Result<ControlCommand> ParseControlCommand(std::string_view line) {
  const std::vector<std::string_view> words = Words(line);
  if (words.empty()) return Bad("empty command");
  const std::string_view name = words[0];
  if (name == "latency") return ParseLatency(words);
  if (name == "bandwidth") {
    ControlCommand command{.kind = CommandKind::kBandwidth};
    if (words.size() != 2) return Bad("usage: bandwidth BYTES_PER_S");
    if (!ParseNumber(words[1], uint64_t{1} << 40, &command.value))
      return Bad("bandwidth: BYTES_PER_S must be 0..2^40");
    return command;
  }
  if (name == "blackhole") return ParseOnOff(CommandKind::kBlackhole, words);
  if (name == "refuse") return ParseOnOff(CommandKind::kRefuse, words);
  struct Bare {
    std::string_view name;
    CommandKind kind;
  };
  static constexpr Bare kBare[] = {{"reset", CommandKind::kReset},
                                   {"down", CommandKind::kDown},
                                   {"up", CommandKind::kUp},
                                   {"heal", CommandKind::kHeal},
                                   {"stats", CommandKind::kStats}};
  for (const Bare& bare : kBare) {
    if (name != bare.name) continue;
    if (words.size() != 1) return Bad(std::string(name) + " takes no argument");
    return ControlCommand{.kind = bare.kind};
  }
  // Not echoed in full: the line may be long or binary.
  return Bad("unknown command '" + std::string(name.substr(0, 32)) + "'");
}

}  // namespace crawl::faults
