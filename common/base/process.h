// Process plumbing shared by the binaries: shutdown signals, port files,
// logging set-up, host:port flags.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl {

// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread and every thread it starts
// afterwards. REQUIRES: called first thing in main, before any thread exists.
void BlockShutdownSignals();

// Caps glibc malloc at two arenas (unless MALLOC_ARENA_MAX is set). glibc
// gives each thread that contends for the heap its own arena, up to 8 per
// core; the servers' gRPC threads each decode multi-megabyte requests, and
// memory they free stays in their arena, so RSS grew with the number of
// threads that ever handled a large request rather than with live data.
// Has no effect when the binary allocates with jemalloc (the servers, when
// CMakeLists.txt's CRAWL_JEMALLOC is on: common/base/jemalloc_conf.cc); it is
// what keeps a glibc-malloc build's RSS in check.
// REQUIRES: called first thing in main, before any thread exists.
void LimitMallocArenas();

// What the waiting thread does besides waiting for the end.
struct SignalHooks {
  std::function<void()> on_reload;  // on SIGHUP (re-read tokens and the like)
  std::function<void()> on_tick;    // every tick_interval (e.g. a warning)
  std::chrono::steady_clock::duration tick_interval = std::chrono::hours(1);
};

// Waits until SIGINT or SIGTERM arrives; returns the signal number. SIGHUP
// runs hooks.on_reload and goes on waiting.
// REQUIRES: BlockShutdownSignals() was called.
int WaitForShutdownSignal(const SignalHooks& hooks = {});

// Reads a whole file.
[[nodiscard]] Result<std::string> ReadFile(const std::string& path);

// Checks a "host:port" address (port 0..65535; host non-empty).
[[nodiscard]] Status ValidateHostPort(const std::string& address);

// Configures spdlog: level name (trace, debug, info, warn, error) and an
// optional log file (empty: stderr). Log lines carry the process name.
[[nodiscard]] Status InitLogging(const std::string& process_name, const std::string& level,
                                 const std::string& log_file);

}  // namespace crawl
