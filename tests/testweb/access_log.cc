// The append-only request log; see access_log.h.
#include "tests/testweb/access_log.h"

#include <cerrno>
#include <cstring>
#include <ctime>

namespace crawl::testweb {

AccessLog::~AccessLog() {
  if (file_ != nullptr) std::fclose(file_);
}

Status AccessLog::Open(const std::string& path) {
  std::lock_guard lock(mu_);
  if (file_ != nullptr) std::fclose(file_);
  file_ = std::fopen(path.c_str(), "a");
  if (file_ == nullptr)
    return Status::IoError("cannot open access log " + path + ": " + std::strerror(errno));
  return Status::Ok();
}

std::string AccessLog::FormatTimestamp(std::chrono::system_clock::time_point when) {
  using namespace std::chrono;
  const auto us = duration_cast<microseconds>(when.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(us / 1'000'000);
  long frac = static_cast<long>(us % 1'000'000);
  if (frac < 0) {
    frac += 1'000'000;
    --secs;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  const size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%06ldZ", frac);
  return buf;
}

void AccessLog::Write(std::chrono::system_clock::time_point when, std::string_view host,
                      std::string_view target, unsigned status, uint64_t bytes, std::string_view remote,
                      double duration_ms, uint64_t connection) {
  std::string line = FormatTimestamp(when);
  auto field = [&line](std::string_view s) {
    line += '\t';
    // A field must not break the line format.
    for (char c : s) line += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  };
  field(host.empty() ? "-" : host);
  field(target);
  field(std::to_string(status));
  field(std::to_string(bytes));
  field(remote);
  char duration[32];
  std::snprintf(duration, sizeof duration, "%.3f", duration_ms);
  field(duration);
  field(std::to_string(connection));
  line += '\n';
  std::lock_guard lock(mu_);
  if (file_ == nullptr) return;
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

}  // namespace crawl::testweb
