#include "common/base/process.h"

#include <malloc.h>
#include <signal.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace crawl {

namespace {
sigset_t ShutdownSet() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}
}  // namespace

void BlockShutdownSignals() {
  sigset_t set = ShutdownSet();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  // A peer that closes a socket mid-write must not kill the process.
  signal(SIGPIPE, SIG_IGN);
}

void LimitMallocArenas() {
  if (std::getenv("MALLOC_ARENA_MAX") == nullptr) mallopt(M_ARENA_MAX, 2);
}

int WaitForShutdownSignal(const SignalHooks& hooks) {
  sigset_t set = ShutdownSet();
  auto next_tick = std::chrono::steady_clock::now() + hooks.tick_interval;
  for (;;) {
    int sig = 0;
    if (hooks.on_tick) {
      const auto left =
          std::max(std::chrono::steady_clock::duration::zero(), next_tick - std::chrono::steady_clock::now());
      const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
      timespec timeout{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
      sig = sigtimedwait(&set, nullptr, &timeout);
      if (sig < 0) {
        if (errno == EAGAIN) {
          hooks.on_tick();
          next_tick = std::chrono::steady_clock::now() + hooks.tick_interval;
        }
        continue;
      }
    } else if (sigwait(&set, &sig) != 0) {
      continue;
    }
    if (sig != SIGHUP) return sig;
    spdlog::info("SIGHUP: reloading");
    if (hooks.on_reload) hooks.on_reload();
  }
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Status::IoError("cannot read " + path);
  return ss.str();
}

Status ValidateHostPort(const std::string& address) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size())
    return Status::InvalidArgument("expected host:port, got '" + address + "'");
  const std::string port = address.substr(colon + 1);
  unsigned value = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || value > 65535)
    return Status::InvalidArgument("bad port in '" + address + "'");
  return Status::Ok();
}

Status InitLogging(const std::string& process_name, const std::string& level, const std::string& log_file) {
  const auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off")
    return Status::InvalidArgument("unknown log level '" + level + "'");
  std::shared_ptr<spdlog::logger> logger;
  try {
    if (log_file.empty()) {
      logger =
          std::make_shared<spdlog::logger>(process_name, std::make_shared<spdlog::sinks::stderr_sink_mt>());
    } else {
      logger = std::make_shared<spdlog::logger>(
          process_name, std::make_shared<spdlog::sinks::basic_file_sink_mt>(log_file));
    }
  } catch (const spdlog::spdlog_ex& e) {
    return Status::IoError(std::string("cannot open log: ") + e.what());
  }
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%f %n %l %v");
  logger->set_level(lvl);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
  return Status::Ok();
}

}  // namespace crawl
