// HTTP-date and Retry-After parsing: see http_date.h.
#include "fetcher/http/http_date.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string>

#include "fetcher/http/http_field_values.h"

namespace crawl::fetcher {

namespace {

// Unix seconds of a broken-down UTC time (no time zone involved).
int64_t UnixSeconds(int year, int month, int day, int hour, int minute, int second) {
  // Days from civil (H. Hinnant's algorithm), month 1-12.
  year -= month <= 2 ? 1 : 0;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t yoe = year - era * 400;
  const int64_t doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const int64_t days = era * 146097 + doe - 719468;
  return days * 86400 + hour * 3600 + minute * 60 + second;
}

int MonthNumber(std::string_view name) {
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (int i = 0; i < 12; ++i) {
    if (name == kMonths[i]) return i + 1;
  }
  return 0;
}

}  // namespace

std::optional<int64_t> ParseHttpDate(std::string_view v) {
  char weekday[16] = {}, month[4] = {}, zone[4] = {};
  int day = 0, year = 0, hour = 0, minute = 0, second = 0;
  const std::string text(v);
  int consumed = 0;
  // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
  if (std::sscanf(text.c_str(), "%15[A-Za-z], %2d %3s %4d %2d:%2d:%2d %3s%n", weekday, &day, month, &year,
                  &hour, &minute, &second, zone, &consumed) == 8 &&
      consumed == static_cast<int>(text.size()) && std::string_view(zone) == "GMT") {
  } else if (std::sscanf(text.c_str(), "%15[A-Za-z], %2d-%3s-%2d %2d:%2d:%2d %3s%n", weekday, &day, month,
                         &year, &hour, &minute, &second, zone, &consumed) == 8 &&
             consumed == static_cast<int>(text.size()) && std::string_view(zone) == "GMT") {
    // RFC 850 "Sunday, 06-Nov-94 08:49:37 GMT": two-digit years (RFC 9110
    // 5.6.7: more than 50 years ahead means the past century).
    year += year < 70 ? 2000 : 1900;
  } else if (std::sscanf(text.c_str(), "%3s %3s %2d %2d:%2d:%2d %4d%n", weekday, month, &day, &hour, &minute,
                         &second, &year, &consumed) == 7 &&
             consumed == static_cast<int>(text.size())) {
    // asctime "Sun Nov  6 08:49:37 1994"
  } else {
    return std::nullopt;
  }
  // "%3s" also stops at 3 characters for "Nov-94": month must be exact.
  const int m = MonthNumber(month);
  if (m == 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || year < 1900)
    return std::nullopt;
  return UnixSeconds(year, m, day, hour, minute, second);
}

std::optional<uint32_t> ParseRetryAfter(std::string_view value, int64_t now_unix_seconds) {
  value = Trim(value);
  if (value.empty()) return std::nullopt;
  if (value.front() >= '0' && value.front() <= '9') {
    uint64_t seconds = 0;
    auto [end, err] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (err == std::errc::result_out_of_range) return UINT32_MAX;
    if (err != std::errc() || end != value.data() + value.size()) return std::nullopt;
    return static_cast<uint32_t>(std::min<uint64_t>(seconds, UINT32_MAX));
  }
  auto date = ParseHttpDate(value);
  if (!date) return std::nullopt;
  const int64_t delta = *date - now_unix_seconds;
  return static_cast<uint32_t>(std::clamp<int64_t>(delta, 0, UINT32_MAX));
}

}  // namespace crawl::fetcher
