// The testweb access log: one line per request, appended, so a test can
// check politeness (request spacing per host, robots.txt fetched first...).
// Line format (tab-separated, '\n'-terminated):
//   TIMESTAMP  HOST  TARGET  STATUS  BYTES  REMOTE
//   2024-05-01T12:34:56.123456Z  www.site3.test  /p7.html  200  4312  127.0.0.1:50312
// TIMESTAMP is ISO 8601 in UTC with microseconds; HOST is the host that
// answered ("-" if none did); BYTES counts body bytes sent; REMOTE is ip:port.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

#include "common/status.h"

namespace crawl::testweb {

// Thread-safe. Each line reaches the file with one write (flushed per line)
// so readers never see half a line.
class AccessLog {
 public:
  AccessLog() = default;
  ~AccessLog();
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  // Opens `path` for appending. IoError if it cannot.
  [[nodiscard]] Status Open(const std::string& path);

  void Write(std::chrono::system_clock::time_point when, std::string_view host, std::string_view target,
             unsigned status, uint64_t bytes, std::string_view remote);

  // "2024-05-01T12:34:56.123456Z".
  [[nodiscard]] static std::string FormatTimestamp(std::chrono::system_clock::time_point when);

 private:
  std::mutex mu_;
  std::FILE* file_ = nullptr;  // guarded by mu_
};

}  // namespace crawl::testweb
