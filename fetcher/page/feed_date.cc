// Feed dates (feed_parser.h ParseFeedDate): RFC 3339 as Atom (RFC 4287 3.3)
// and Dublin Core (W3C-DTF) write them, RFC 822 as RSS 2.0 does.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "common/base/civil_time.h"
#include "fetcher/page/feed_parser.h"

namespace crawl::fetcher {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  // Exactly `n` digits.
  bool Digits(std::size_t n, int* out) {
    if (i_ + n > s_.size()) return false;
    int v = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const char c = s_[i_ + k];
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    i_ += n;
    *out = v;
    return true;
  }
  // One or more digits (at most 4).
  bool Number(int* out) {
    std::size_t n = 0;
    while (i_ + n < s_.size() && n < 4 && s_[i_ + n] >= '0' && s_[i_ + n] <= '9') ++n;
    return n > 0 && Digits(n, out);
  }
  bool Take(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void Spaces() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }
  std::string_view Word() {
    const std::size_t start = i_;
    while (i_ < s_.size() && ((s_[i_] >= 'A' && s_[i_] <= 'Z') || (s_[i_] >= 'a' && s_[i_] <= 'z'))) ++i_;
    return s_.substr(start, i_ - start);
  }
  [[nodiscard]] bool AtEnd() const { return i_ == s_.size(); }
  [[nodiscard]] char Peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
};

bool ValidDate(int y, int m, int d, int hh, int mm, int ss) {
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= 31 && hh <= 23 && mm <= 59 && ss <= 60;
}

// "Z", "+HH:MM" / "-HH:MM" (RFC 3339), "+HHMM" (RFC 822): offset seconds east.
std::optional<int> NumericZone(Reader& r, bool colon) {
  if (r.Take('Z')) return 0;
  const bool minus = r.Peek() == '-';
  if (!r.Take('+') && !r.Take('-')) return std::nullopt;
  int h = 0, m = 0;
  if (!r.Digits(2, &h)) return std::nullopt;
  if (colon && !r.Take(':')) return std::nullopt;
  if (!r.Digits(2, &m) || h > 23 || m > 59) return std::nullopt;
  return (minus ? -1 : 1) * (h * 3600 + m * 60);
}

std::optional<int64_t> Rfc3339(std::string_view text) {
  Reader r(text);
  int y = 0, mo = 0, d = 0, hh = 0, mm = 0, ss = 0;
  if (!r.Digits(4, &y) || !r.Take('-') || !r.Digits(2, &mo) || !r.Take('-') || !r.Digits(2, &d))
    return std::nullopt;
  int zone = 0;
  if (!r.AtEnd()) {
    if (!r.Take('T') && !r.Take('t') && !r.Take(' ')) return std::nullopt;
    if (!r.Digits(2, &hh) || !r.Take(':') || !r.Digits(2, &mm)) return std::nullopt;
    if (r.Take(':')) {
      if (!r.Digits(2, &ss)) return std::nullopt;
      if (r.Take('.')) {
        int frac = 0;
        while (r.Digits(1, &frac)) {
        }
      }
    }
    const auto z = r.Take('z') ? std::optional<int>(0) : NumericZone(r, true);
    if (!z) return std::nullopt;
    zone = *z;
  }
  if (!r.AtEnd() || !ValidDate(y, mo, d, hh, mm, ss)) return std::nullopt;
  return DaysFromCivil(y, mo, d) * 86400 + hh * 3600 + mm * 60 + ss - zone;
}

std::optional<int> MonthOf(std::string_view w) {
  static constexpr std::array<std::string_view, 12> kMonths = {"jan", "feb", "mar", "apr", "may", "jun",
                                                               "jul", "aug", "sep", "oct", "nov", "dec"};
  if (w.size() < 3) return std::nullopt;
  char lower[3];
  for (int k = 0; k < 3; ++k) lower[k] = static_cast<char>(w[k] | 0x20);
  for (std::size_t m = 0; m < kMonths.size(); ++m) {
    if (std::string_view(lower, 3) == kMonths[m]) return static_cast<int>(m) + 1;
  }
  return std::nullopt;
}

// RFC 822 section 5.1 zones (military single letters other than Z are not used).
std::optional<int> NamedZone(std::string_view w) {
  static constexpr std::pair<std::string_view, int> kZones[] = {
      {"GMT", 0},         {"UT", 0},          {"UTC", 0},         {"Z", 0},
      {"EST", -5 * 3600}, {"EDT", -4 * 3600}, {"CST", -6 * 3600}, {"CDT", -5 * 3600},
      {"MST", -7 * 3600}, {"MDT", -6 * 3600}, {"PST", -8 * 3600}, {"PDT", -7 * 3600}};
  for (const auto& [name, offset] : kZones) {
    if (w == name) return offset;
  }
  return std::nullopt;
}

std::optional<int64_t> Rfc822(std::string_view text) {
  Reader r(text);
  r.Spaces();
  if (r.Peek() < '0' || r.Peek() > '9') {  // day of week
    if (r.Word().empty()) return std::nullopt;
    r.Take(',');
    r.Spaces();
  }
  int d = 0, y = 0, hh = 0, mm = 0, ss = 0;
  if (!r.Number(&d)) return std::nullopt;
  r.Spaces();
  const auto month = MonthOf(r.Word());
  r.Spaces();
  if (!month || !r.Number(&y)) return std::nullopt;
  if (y < 100) y += y < 50 ? 2000 : 1900;  // RFC 822's two-digit years (RFC 2822 4.3)
  r.Spaces();
  if (!r.Digits(2, &hh) || !r.Take(':') || !r.Digits(2, &mm)) return std::nullopt;
  if (r.Take(':') && !r.Digits(2, &ss)) return std::nullopt;
  r.Spaces();
  std::optional<int> zone = 0;  // a missing zone is read as UTC
  if (!r.AtEnd()) zone = (r.Peek() == '+' || r.Peek() == '-') ? NumericZone(r, false) : NamedZone(r.Word());
  r.Spaces();
  if (!zone || !r.AtEnd() || !ValidDate(y, *month, d, hh, mm, ss)) return std::nullopt;
  return DaysFromCivil(y, *month, d) * 86400 + hh * 3600 + mm * 60 + ss - *zone;
}

}  // namespace

std::optional<int64_t> ParseFeedDate(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.size() >= 5 && text[0] >= '0' && text[0] <= '9' && text[4] == '-') return Rfc3339(text);
  return Rfc822(text);
}

}  // namespace crawl::fetcher
