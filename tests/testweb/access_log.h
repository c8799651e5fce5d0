// The testweb access log: one line per request, appended, so a test can
// check politeness (request spacing per host, robots.txt fetched first...).
// Line format (tab-separated, '\n'-terminated):
//   TIMESTAMP  HOST  TARGET  STATUS  BYTES  REMOTE  DURATION_MS  CONNECTION
//   2024-05-01T12:34:56.123456Z  www.site3.test  /p7.html  200  4312  127.0.0.1:50312  1.250  17
// TIMESTAMP is when the request had been read (ISO 8601, UTC, microseconds);
// HOST is the host that answered ("-" if none did); STATUS is 0 when the
// connection was closed without an answer; BYTES counts body bytes sent;
// REMOTE is the client's ip:port; DURATION_MS runs from TIMESTAMP to the
// last byte written; CONNECTION numbers the server's connections from 1
// (unique, unlike REMOTE, whose ports get reused in long crawls). Lines are written when a request ends,
// so they are not quite in TIMESTAMP order.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

#include "common/base/status.h"

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
             unsigned status, uint64_t bytes, std::string_view remote, double duration_ms = 0,
             uint64_t connection = 0);

  // "2024-05-01T12:34:56.123456Z".
  [[nodiscard]] static std::string FormatTimestamp(std::chrono::system_clock::time_point when);

 private:
  std::mutex mu_;
  std::FILE* file_ = nullptr;  // guarded by mu_
};

}  // namespace crawl::testweb
