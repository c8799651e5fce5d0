#include "common/crawl/report_text.h"

#include <cstdio>
#include <ctime>

namespace crawl {

std::string StateName(v1::CrawlState state) {
  switch (state) {
    case v1::CRAWL_STATE_RUNNING:
      return "running";
    case v1::CRAWL_STATE_STOPPED:
      return "stopped";
    case v1::CRAWL_STATE_DONE:
      return "done";
    default:
      return "unknown";
  }
}

std::string Iso8601Micros(int64_t unix_us) {
  const std::time_t secs = static_cast<std::time_t>(unix_us / 1'000'000);
  const int64_t micros = unix_us % 1'000'000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(micros));
  return buf;
}

}  // namespace crawl
