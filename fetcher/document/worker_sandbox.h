// The document worker's confinement (docs/ARCHITECTURE.md "The document
// worker"): resource limits (setrlimit(2)), no inherited file descriptors
// but stdin/stdout/stderr, no new privileges, death with the fetcher, and a
// seccomp(2) filter (libseccomp) that leaves the process reading its
// requests on fd 0, writing its answers on fd 1, and managing its memory.
#pragma once

#include <cstddef>
#include <string>

namespace crawl::fetcher {

enum class SeccompMode {
  kKill,  // a forbidden system call kills the process (SIGSYS)
  kTrap,  // ... after writing "seccomp: forbidden system call N" on stderr (diagnosis)
  kOff,   // no filter: resource limits only
};

struct WorkerSandboxOptions {
  // RLIMIT_AS: address space (a parser's allocations fail past it).
  size_t memory_bytes = size_t{1} << 30;
  // RLIMIT_CPU over the worker's whole life (SIGXCPU, then SIGKILL a second
  // later); each document's wall-clock limit is the fetcher's.
  unsigned cpu_seconds = 3600;
  SeccompMode seccomp = SeccompMode::kKill;
};

// Confines the calling process for good. REQUIRES: single-threaded, called
// before any untrusted byte is read. Returns how: "seccomp filter and
// rlimits", or "rlimits only (...why...)" when the filter could not be
// installed (the process is then still limited, and the caller says so).
[[nodiscard]] std::string EnterWorkerSandbox(const WorkerSandboxOptions& options);

// "kill", "trap", "off" -> mode; false for another name.
[[nodiscard]] bool ParseSeccompMode(const std::string& name, SeccompMode* mode);

}  // namespace crawl::fetcher
