#include "common/crawl/report_text.h"

#include <cstdio>
#include <ctime>

namespace crawl {

std::string StateName(v1::CrawlState state) {
  switch (state) {
    case v1::CRAWL_STATE_RUNNING: return "running";
    case v1::CRAWL_STATE_STOPPED: return "stopped";
    case v1::CRAWL_STATE_DONE: return "done";
    default: return "unknown";
  }
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else {
      // Copy a well-formed UTF-8 sequence; replace anything else.
      size_t len = (c >= 0xc2 && c <= 0xdf) ? 2 : (c >= 0xe0 && c <= 0xef) ? 3 : (c >= 0xf0 && c <= 0xf4) ? 4 : 0;
      bool ok = len > 0 && i + len <= s.size();
      for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
      if (ok) {
        out.append(s.substr(i, len));
        i += len - 1;
      } else {
        out += "\\ufffd";
      }
    }
  }
  out.push_back('"');
  return out;
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
