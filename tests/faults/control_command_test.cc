// Tests for the control protocol's parser (control_command.h), a pure
// function: every command, and the bad lines it must refuse.
#include "tests/faults/control_command.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace crawl::faults {
namespace {

ControlCommand Parsed(const std::string& line) {
  const Result<ControlCommand> command = ParseControlCommand(line);
  INFO(line);
  REQUIRE(command.ok());
  return *command;
}

TEST_CASE("control parser reads every command with its arguments", "[unit]") {
  CHECK(Parsed("latency 250") == ControlCommand{.kind = CommandKind::kLatency, .value = 250});
  CHECK(Parsed("latency 250 40") ==
        ControlCommand{.kind = CommandKind::kLatency, .value = 250, .jitter = 40});
  CHECK(Parsed("bandwidth 1000") == ControlCommand{.kind = CommandKind::kBandwidth, .value = 1000});
  CHECK(Parsed("bandwidth 0") == ControlCommand{.kind = CommandKind::kBandwidth, .value = 0});
  CHECK(Parsed("blackhole on") == ControlCommand{.kind = CommandKind::kBlackhole, .on = true});
  CHECK(Parsed("blackhole off") == ControlCommand{.kind = CommandKind::kBlackhole, .on = false});
  CHECK(Parsed("refuse on") == ControlCommand{.kind = CommandKind::kRefuse, .on = true});
  CHECK(Parsed("reset").kind == CommandKind::kReset);
  CHECK(Parsed("down").kind == CommandKind::kDown);
  CHECK(Parsed("up").kind == CommandKind::kUp);
  CHECK(Parsed("heal").kind == CommandKind::kHeal);
  CHECK(Parsed("stats").kind == CommandKind::kStats);
}

TEST_CASE("control parser ignores extra blanks and a trailing carriage return", "[unit]") {
  CHECK(Parsed("  latency\t10   2 \r") ==
        ControlCommand{.kind = CommandKind::kLatency, .value = 10, .jitter = 2});
  CHECK(Parsed("stats\r").kind == CommandKind::kStats);
}

TEST_CASE("control parser rejects bad lines with a reason", "[unit]") {
  const std::vector<std::string> lines = {"",
                                          "   ",
                                          "bogus",
                                          "LATENCY 10",
                                          "latency",
                                          "latency -1",
                                          "latency 10 20 30",
                                          "latency ten",
                                          "latency 3600001",
                                          "latency 10 3600001",
                                          "latency 99999999999999999999999",
                                          "bandwidth",
                                          "bandwidth 1e6",
                                          "bandwidth 1 2",
                                          "blackhole",
                                          "blackhole yes",
                                          "refuse on off",
                                          "reset now",
                                          "down 1",
                                          "heal please",
                                          std::string("stats\0x", 7),
                                          "latency 1\x01"};
  for (const std::string& line : lines) {
    INFO("line: " << line);
    const Result<ControlCommand> command = ParseControlCommand(line);
    REQUIRE_FALSE(command.ok());
    CHECK(command.status().code() == StatusCode::kInvalidArgument);
    CHECK_FALSE(command.status().message().empty());
  }
}

TEST_CASE("control parser names the unknown command without echoing a long line", "[unit]") {
  const Result<ControlCommand> command = ParseControlCommand(std::string(5000, 'x'));
  REQUIRE_FALSE(command.ok());
  CHECK(command.status().message().size() < 100);
}

}  // namespace
}  // namespace crawl::faults
