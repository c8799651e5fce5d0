#include "common/crawl/log_time.h"

#include <charconv>
#include <ctime>

namespace crawl {
namespace {

bool AllDigits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// Reads exactly `n` digits at s[*pos] into *v.
bool Digits(const std::string& s, size_t* pos, size_t n, int* v) {
  if (*pos + n > s.size()) return false;
  *v = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = s[*pos + i];
    if (c < '0' || c > '9') return false;
    *v = *v * 10 + (c - '0');
  }
  *pos += n;
  return true;
}

bool Expect(const std::string& s, size_t* pos, char c) {
  if (*pos >= s.size() || s[*pos] != c) return false;
  ++*pos;
  return true;
}

}  // namespace

Result<int64_t> ParseLogTime(const std::string& text) {
  const Status bad = Status::InvalidArgument(
      "'" + text + "' is not a time (2026-11-25, 2026-11-25T12:00:00Z or Unix seconds)");
  if (AllDigits(text)) {
    int64_t seconds = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (ec != std::errc() || seconds > INT64_MAX / 1'000'000) return bad;
    return seconds * 1'000'000;
  }
  std::tm tm{};
  size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, micros = 0;
  if (!Digits(text, &pos, 4, &year) || !Expect(text, &pos, '-') || !Digits(text, &pos, 2, &month) ||
      !Expect(text, &pos, '-') || !Digits(text, &pos, 2, &day))
    return bad;
  if (pos < text.size()) {
    if (!Expect(text, &pos, 'T') || !Digits(text, &pos, 2, &hour) || !Expect(text, &pos, ':') ||
        !Digits(text, &pos, 2, &minute) || !Expect(text, &pos, ':') || !Digits(text, &pos, 2, &second))
      return bad;
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      int scale = 100'000, digits = 0;
      for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos, ++digits, scale /= 10)
        if (scale > 0) micros += (text[pos] - '0') * scale;
      if (digits == 0) return bad;
    }
    if (!Expect(text, &pos, 'Z') || pos != text.size()) return bad;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return bad;
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  const time_t t = timegm(&tm);
  if (t < 0) return bad;
  return static_cast<int64_t>(t) * 1'000'000 + micros;
}

}  // namespace crawl
