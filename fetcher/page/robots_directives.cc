// Robots meta / X-Robots-Tag, Link header and meta refresh parsing (see
// robots_directives.h).
#include "fetcher/page/robots_directives.h"

#include <algorithm>
#include <charconv>

#include "common/base/civil_time.h"

namespace crawl::fetcher {
namespace {

constexpr std::string_view kSpace = " \t\r\n\f\v";

bool IsSpace(char c) { return kSpace.find(c) != std::string_view::npos; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool EqualsLower(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != lower[i]) return false;
  }
  return true;
}

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = Lower(c);
  return out;
}

// Directives written "name: value": their name is no user agent.
bool IsValueDirective(std::string_view name) {
  return EqualsLower(name, "unavailable_after") || EqualsLower(name, "max-snippet") ||
         EqualsLower(name, "max-image-preview") || EqualsLower(name, "max-video-preview");
}

void ApplyWord(std::string_view word, RobotsDirectives* d) {
  if (EqualsLower(word, "none")) {
    d->noindex = d->nofollow = true;
  } else if (EqualsLower(word, "noindex")) {
    d->noindex = true;
  } else if (EqualsLower(word, "nofollow")) {
    d->nofollow = true;
  } else if (EqualsLower(word, "noarchive") || EqualsLower(word, "nocache")) {
    d->noarchive = true;
  } else if (EqualsLower(word, "nosnippet")) {
    d->nosnippet = true;
  }
  // all, notranslate, noimageindex, indexifembedded, unknown: nothing to do.
}

void ApplyWords(std::string_view piece, RobotsDirectives* d) {
  std::size_t i = 0;
  while (i < piece.size()) {
    while (i < piece.size() && IsSpace(piece[i])) ++i;
    std::size_t j = i;
    while (j < piece.size() && !IsSpace(piece[j])) ++j;
    if (j > i) ApplyWord(piece.substr(i, j - i), d);
    i = j;
  }
}

void NoteUnavailableAfter(int64_t when, RobotsDirectives* d) {
  if (when <= 0) when = 1;  // a date before 1970 is long past; 0 means none
  if (d->unavailable_after_unix_s == 0 || when < d->unavailable_after_unix_s)
    d->unavailable_after_unix_s = when;
}

std::vector<std::string_view> SplitCommas(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == ',') {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

// One list of directives (a meta content, or one X-Robots-Tag field).
// With `agents`, "AGENT:" prefixes scope what follows them.
void ParseList(std::string_view list, bool agents, std::string_view token, RobotsDirectives* d) {
  const std::vector<std::string_view> pieces = SplitCommas(list);
  bool applies = true;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    std::string_view piece = Trim(pieces[i]);
    std::size_t colon = piece.find(':');
    if (agents && colon != std::string_view::npos) {
      const std::string_view name = Trim(piece.substr(0, colon));
      if (!name.empty() && !IsValueDirective(name) &&
          std::none_of(name.begin(), name.end(), [](char c) { return IsSpace(c); })) {
        applies = !token.empty() && name.size() == token.size() && EqualsLower(name, ToLower(token));
        piece = Trim(piece.substr(colon + 1));
        colon = piece.find(':');
      }
    }
    if (!applies || piece.empty()) continue;
    if (colon == std::string_view::npos) {
      ApplyWords(piece, d);
      continue;
    }
    if (!EqualsLower(Trim(piece.substr(0, colon)), "unavailable_after")) continue;  // max-snippet etc.
    const std::string_view value = Trim(piece.substr(colon + 1));
    auto date = ParseDirectiveDate(value);
    if (!date && i + 1 < pieces.size()) {
      // "Friday, 25-Jun-10 15:00:00 PST": the weekday's comma split the date.
      date = ParseDirectiveDate(std::string(value) + "," + std::string(pieces[i + 1]));
      if (date) ++i;
    }
    if (date) NoteUnavailableAfter(*date, d);
  }
}

struct DateParts {
  int year = -1, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  int64_t offset_s = 0;  // east of UTC
};

std::optional<int64_t> ToUnix(const DateParts& p) {
  if (p.year < 1900 || p.year > 9999 || p.month < 1 || p.month > 12 || p.day < 1 || p.day > 31 ||
      p.hour > 23 || p.minute > 59 || p.second > 60)
    return std::nullopt;
  return DaysFromCivil(p.year, p.month, p.day) * 86400 + p.hour * 3600 + p.minute * 60 + p.second -
         p.offset_s;
}

// Reads `n` digits at *pos (exactly n).
bool Digits(std::string_view s, std::size_t* pos, std::size_t n, int* out) {
  if (*pos + n > s.size()) return false;
  int v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[*pos + i];
    if (!IsDigit(c)) return false;
    v = v * 10 + (c - '0');
  }
  *pos += n;
  *out = v;
  return true;
}

// "+hh:mm", "+hhmm", "+hh" at *pos.
bool Offset(std::string_view s, std::size_t* pos, int64_t* out) {
  if (*pos >= s.size() || (s[*pos] != '+' && s[*pos] != '-')) return false;
  const int sign = s[(*pos)++] == '-' ? -1 : 1;
  int h = 0, m = 0;
  if (!Digits(s, pos, 2, &h)) return false;
  if (*pos < s.size() && s[*pos] == ':') ++*pos;
  if (*pos < s.size() && !Digits(s, pos, 2, &m)) return false;
  if (h > 23 || m > 59) return false;
  *out = sign * (h * 3600 + m * 60);
  return true;
}

std::optional<int64_t> ParseIso8601(std::string_view s) {
  DateParts p;
  std::size_t pos = 0;
  if (!Digits(s, &pos, 4, &p.year) || pos >= s.size() || s[pos++] != '-' || !Digits(s, &pos, 2, &p.month) ||
      pos >= s.size() || s[pos++] != '-' || !Digits(s, &pos, 2, &p.day))
    return std::nullopt;
  if (pos < s.size() && (s[pos] == 'T' || s[pos] == 't' || s[pos] == ' ')) {
    ++pos;
    if (!Digits(s, &pos, 2, &p.hour) || pos >= s.size() || s[pos++] != ':' || !Digits(s, &pos, 2, &p.minute))
      return std::nullopt;
    if (pos < s.size() && s[pos] == ':') {
      ++pos;
      if (!Digits(s, &pos, 2, &p.second)) return std::nullopt;
      if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
        ++pos;
        while (pos < s.size() && IsDigit(s[pos])) ++pos;  // fractions of a second
      }
    }
  }
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && !Offset(s, &pos, &p.offset_s)) {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  return ToUnix(p);
}

int MonthOf(std::string_view word) {
  static constexpr std::string_view kMonths[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                                 "jul", "aug", "sep", "oct", "nov", "dec"};
  if (word.size() < 3) return 0;
  for (int i = 0; i < 12; ++i) {
    if (EqualsLower(word.substr(0, 3), kMonths[i])) return i + 1;
  }
  return 0;
}

std::optional<int64_t> ZoneOffset(std::string_view word) {
  static constexpr std::pair<std::string_view, int> kZones[] = {
      {"gmt", 0},  {"ut", 0},   {"utc", 0},  {"z", 0},    {"est", -5}, {"edt", -4},
      {"cst", -6}, {"cdt", -5}, {"mst", -7}, {"mdt", -6}, {"pst", -8}, {"pdt", -7}};
  for (const auto& [name, hours] : kZones) {
    if (EqualsLower(word, name)) return int64_t{hours} * 3600;
  }
  return std::nullopt;
}

bool IsWeekday(std::string_view word) {
  static constexpr std::string_view kDays[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
  if (word.size() < 3) return false;
  return std::any_of(std::begin(kDays), std::end(kDays),
                     [&](std::string_view d) { return EqualsLower(word.substr(0, 3), d); });
}

// One word of an RFC 822 / 850 / asctime date into `p`.
bool DateWord(std::string_view w, DateParts* p) {
  if (IsAlpha(w.front())) {
    if (const int m = MonthOf(w); m != 0 && p->month == 0) {
      p->month = m;
    } else if (auto z = ZoneOffset(w)) {
      p->offset_s = *z;
    } else if (!IsWeekday(w)) {
      return false;
    }
    return true;
  }
  std::size_t pos = 0;
  if (w.front() == '+' || w.front() == '-') return Offset(w, &pos, &p->offset_s) && pos == w.size();
  if (w.find(':') != std::string_view::npos) {
    if (!Digits(w, &pos, 2, &p->hour) || pos >= w.size() || w[pos++] != ':' ||
        !Digits(w, &pos, 2, &p->minute))
      return false;
    if (pos < w.size() && (w[pos++] != ':' || !Digits(w, &pos, 2, &p->second))) return false;
    return pos == w.size();
  }
  int v = 0;
  auto [end, err] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (err != std::errc() || end != w.data() + w.size()) return false;
  if (p->day == 0 && w.size() <= 2) {
    p->day = v;
  } else if (p->year < 0) {
    p->year = w.size() <= 2 ? v + (v < 70 ? 2000 : 1900) : v;  // RFC 850 two-digit years
  } else {
    return false;
  }
  return true;
}

std::optional<int64_t> ParseRfc822(std::string_view s) {
  DateParts p;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (IsSpace(s[i]) || s[i] == ',')) ++i;
    if (i == s.size()) break;
    std::size_t j = i + 1;  // a leading sign belongs to the word
    // "25-Jun-10": a '-' after a letter or digit separates words.
    while (j < s.size() && !IsSpace(s[j]) && s[j] != ',' && s[j] != '-') ++j;
    if (!DateWord(s.substr(i, j - i), &p)) return std::nullopt;
    i = j < s.size() && s[j] == '-' ? j + 1 : j;
  }
  return ToUnix(p);
}

}  // namespace

void RobotsDirectives::Merge(const RobotsDirectives& other) {
  noindex |= other.noindex;
  nofollow |= other.nofollow;
  noarchive |= other.noarchive;
  nosnippet |= other.nosnippet;
  if (other.unavailable_after_unix_s != 0) NoteUnavailableAfter(other.unavailable_after_unix_s, this);
}

RobotsDirectives ParseRobotsMeta(std::string_view content) {
  RobotsDirectives d;
  ParseList(content, false, {}, &d);
  return d;
}

RobotsDirectives ParseXRobotsTag(std::string_view fields, std::string_view product_token) {
  RobotsDirectives d;
  std::size_t start = 0;
  while (start <= fields.size()) {
    const std::size_t end = std::min(fields.find('\n', start), fields.size());
    ParseList(fields.substr(start, end - start), true, product_token, &d);
    start = end + 1;
  }
  return d;
}

std::optional<int64_t> ParseDirectiveDate(std::string_view date) {
  date = Trim(date);
  if (date.empty() || date.size() > 100) return std::nullopt;
  if (date.size() >= 5 && IsDigit(date[0]) && IsDigit(date[3]) && date[4] == '-') return ParseIso8601(date);
  return ParseRfc822(date);
}

}  // namespace crawl::fetcher
