// DocumentText and the date parsers (fetcher/document/document_text.h).
#include "fetcher/document/document_text.h"

#include <cstring>

#include "common/text/utf8.h"

namespace crawl::fetcher::document {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// The longest prefix of valid UTF-8 `s` of at most `max` bytes that ends on
// a character boundary.
size_t Utf8Cut(std::string_view s, size_t max) {
  if (s.size() <= max) return s.size();
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

std::string Cleaned(std::string_view s) {
  if (text::ValidUtf8Prefix(s) == s.size()) return std::string(s);
  uint32_t invalid = 0;
  return text::Utf8Cleaned(s, &invalid);
}

// Reads `digits` decimal digits at s[*at]; false if they are not there.
bool Digits(std::string_view s, size_t* at, size_t digits, int* value) {
  if (*at + digits > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < digits; ++i) {
    const char c = s[*at + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *at += digits;
  *value = v;
  return true;
}

}  // namespace

void DocumentText::Append(std::string_view text) {
  if (truncated_ || text.empty()) return;
  const std::string clean = Cleaned(text);
  size_t i = 0;
  while (i < clean.size() && !truncated_) {
    if (IsSpace(clean[i])) {
      pending_space_ = paragraph_open_;
      ++i;
      continue;
    }
    size_t end = i;
    while (end < clean.size() && !IsSpace(clean[end])) ++end;
    AppendClean(std::string_view(clean).substr(i, end - i));
    i = end;
  }
}

void DocumentText::AppendClean(std::string_view word) {
  std::string_view separator;
  if (pending_break_ && !text_.empty()) {
    separator = "\n\n";
  } else if (pending_space_ && paragraph_open_) {
    separator = " ";
  }
  const size_t need = separator.size() + word.size();
  if (text_.size() + need > limits_.max_text_bytes) {
    const size_t room = limits_.max_text_bytes - text_.size();
    if (room > separator.size()) {
      text_.append(separator);
      text_.append(word.substr(0, Utf8Cut(word, room - separator.size())));
    }
    truncated_ = true;
    return;
  }
  text_.append(separator);
  text_.append(word);
  paragraph_open_ = true;
  pending_space_ = false;
  pending_break_ = false;
}

void DocumentText::EndParagraph() {
  if (paragraph_open_) pending_break_ = true;
  paragraph_open_ = false;
  pending_space_ = false;
}

void DocumentText::AddLink(std::string_view url, std::string_view anchor_text) {
  if (static_cast<size_t>(links_.size()) >= limits_.max_links) return;
  std::string clean_url = CleanField(url);
  if (clean_url.empty()) return;
  v1::ParsedLink* link = links_.Add();
  link->set_url(std::move(clean_url));
  link->set_anchor_text(CleanField(anchor_text, 1024));
}

void DocumentText::MoveTo(v1::ParsedDocument* doc) {
  doc->set_text(std::move(text_));
  doc->set_truncated(truncated_);
  doc->mutable_links()->Swap(&links_);
  text_.clear();
  links_.Clear();
}

std::string CleanField(std::string_view s, size_t max_bytes) {
  DocumentLimits limits;
  limits.max_text_bytes = max_bytes;
  DocumentText text(limits);
  text.Append(s);
  v1::ParsedDocument doc;
  text.MoveTo(&doc);
  return std::move(*doc.mutable_text());
}

int64_t UnixSeconds(int year, int month, int day, int hour, int minute, int second) {
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 ||
      hour < 0 || minute < 0 || second < 0) {
    return 0;
  }
  // Days from civil (H. Hinnant's algorithm).
  const int y = year - (month <= 2 ? 1 : 0);
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned mp = static_cast<unsigned>(month + (month > 2 ? -3 : 9));
  const unsigned doy = (153 * mp + 2) / 5 + static_cast<unsigned>(day) - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const int64_t days = static_cast<int64_t>(era) * 146097 + static_cast<int64_t>(doe) - 719468;
  return days * 86400 + hour * 3600 + minute * 60 + second;
}

int64_t ParseIsoDate(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  size_t at = 0;
  int year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  if (!Digits(s, &at, 4, &year)) return 0;
  if (at < s.size() && s[at] == '-' && (++at, !Digits(s, &at, 2, &month))) return 0;
  if (at < s.size() && s[at] == '-' && (++at, !Digits(s, &at, 2, &day))) return 0;
  if (at < s.size() && (s[at] == 'T' || s[at] == ' ')) {
    ++at;
    if (!Digits(s, &at, 2, &hour) || at >= s.size() || s[at++] != ':' || !Digits(s, &at, 2, &minute))
      return 0;
    if (at < s.size() && s[at] == ':' && (++at, !Digits(s, &at, 2, &second))) return 0;
    if (at < s.size() && (s[at] == '.' || s[at] == ',')) {
      ++at;
      while (at < s.size() && s[at] >= '0' && s[at] <= '9') ++at;
    }
  }
  int64_t offset = 0;
  if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
    const int sign = s[at] == '-' ? -1 : 1;
    ++at;
    int oh = 0, om = 0;
    if (!Digits(s, &at, 2, &oh)) return 0;
    if (at < s.size() && s[at] == ':') ++at;
    if (at < s.size() && !Digits(s, &at, 2, &om)) return 0;
    offset = sign * (oh * 3600 + om * 60);
  }
  const int64_t t = UnixSeconds(year, month, day, hour, minute, second);
  return t == 0 ? 0 : t - offset;
}

int64_t ParsePdfDate(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  if (s.substr(0, 2) == "D:") s.remove_prefix(2);
  size_t at = 0;
  int year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  if (!Digits(s, &at, 4, &year)) return 0;
  int* const parts[] = {&month, &day, &hour, &minute, &second};
  for (int* part : parts) {
    if (!Digits(s, &at, 2, part)) break;
  }
  int64_t offset = 0;
  if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
    const int sign = s[at] == '-' ? -1 : 1;
    ++at;
    int oh = 0, om = 0;
    if (Digits(s, &at, 2, &oh)) {
      if (at < s.size() && s[at] == '\'') ++at;
      (void)Digits(s, &at, 2, &om);
    }
    offset = sign * (oh * 3600 + om * 60);
  }
  const int64_t t = UnixSeconds(year, month, day, hour, minute, second);
  return t == 0 ? 0 : t - offset;
}

}  // namespace crawl::fetcher::document
