// Link header (RFC 8288 section 3) and meta refresh (WHATWG HTML 4.2.5.3)
// parsing: see link_header.h.
#include "fetcher/page/link_header.h"

#include <algorithm>

namespace crawl::fetcher {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = Lower(c);
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

class LinkReader {
 public:
  explicit LinkReader(std::string_view v) : v_(v) {}

  // The next link, or nullopt at the end; *ok false for a malformed one
  // (skipped up to the next top-level ',').
  std::optional<LinkValue> Next(bool* ok) {
    *ok = true;
    while (pos_ < v_.size() && (IsSpace(v_[pos_]) || v_[pos_] == ',')) ++pos_;
    if (pos_ >= v_.size()) return std::nullopt;
    LinkValue link;
    const std::size_t close = v_[pos_] == '<' ? v_.find('>', pos_) : std::string_view::npos;
    if (close == std::string_view::npos) return Malformed(ok, link);
    link.target = std::string(Trim(v_.substr(pos_ + 1, close - pos_ - 1)));
    pos_ = close + 1;
    bool rel_seen = false, hreflang_seen = false;
    for (;;) {
      SkipSpace();
      if (pos_ >= v_.size() || v_[pos_] == ',') break;
      if (v_[pos_] != ';') return Malformed(ok, link);
      ++pos_;
      SkipSpace();
      const std::size_t name_start = pos_;
      while (pos_ < v_.size() && !IsSpace(v_[pos_]) && v_[pos_] != '=' && v_[pos_] != ';' && v_[pos_] != ',')
        ++pos_;
      const std::string_view name = v_.substr(name_start, pos_ - name_start);
      SkipSpace();
      std::string value;
      if (pos_ < v_.size() && v_[pos_] == '=') {
        ++pos_;
        SkipSpace();
        value = Value();
      }
      // A parameter after the first of its name is ignored (RFC 8288 3.3).
      if (EqualsIgnoreCase(name, "rel") && !rel_seen) {
        rel_seen = true;
        link.rel = ToLower(Trim(value));
      } else if (EqualsIgnoreCase(name, "hreflang") && !hreflang_seen) {
        hreflang_seen = true;
        link.hreflang = ToLower(Trim(value));
      }
    }
    if (link.target.empty()) *ok = false;
    return link;
  }

 private:
  void SkipSpace() {
    while (pos_ < v_.size() && IsSpace(v_[pos_])) ++pos_;
  }

  // A token or quoted-string (RFC 9110 5.6.4: "\" quotes the next byte).
  std::string Value() {
    std::string out;
    if (pos_ < v_.size() && v_[pos_] == '"') {
      ++pos_;
      while (pos_ < v_.size() && v_[pos_] != '"') {
        if (v_[pos_] == '\\' && pos_ + 1 < v_.size()) ++pos_;
        out.push_back(v_[pos_++]);
      }
      if (pos_ < v_.size()) ++pos_;  // the closing quote
      return out;
    }
    while (pos_ < v_.size() && v_[pos_] != ';' && v_[pos_] != ',' && !IsSpace(v_[pos_]))
      out.push_back(v_[pos_++]);
    return out;
  }

  std::optional<LinkValue> Malformed(bool* ok, LinkValue& link) {
    *ok = false;
    bool quoted = false;
    while (pos_ < v_.size() && (quoted || v_[pos_] != ',')) {
      if (v_[pos_] == '"') quoted = !quoted;
      ++pos_;
    }
    return std::move(link);
  }

  std::string_view v_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<LinkValue> ParseLinkHeader(std::string_view value, std::size_t max_links) {
  std::vector<LinkValue> out;
  LinkReader reader(value);
  bool ok = true;
  while (out.size() < max_links) {
    auto link = reader.Next(&ok);
    if (!link) break;
    if (ok) out.push_back(std::move(*link));
  }
  return out;
}

bool RelHas(std::string_view rel, std::string_view type) {
  std::size_t i = 0;
  while (i < rel.size()) {
    while (i < rel.size() && IsSpace(rel[i])) ++i;
    std::size_t j = i;
    while (j < rel.size() && !IsSpace(rel[j])) ++j;
    if (j > i && EqualsIgnoreCase(rel.substr(i, j - i), type)) return true;
    i = j;
  }
  return false;
}

std::optional<MetaRefresh> ParseMetaRefresh(std::string_view content) {
  std::size_t pos = 0;
  const std::string_view s = content;
  while (pos < s.size() && IsSpace(s[pos])) ++pos;
  MetaRefresh out;
  const std::size_t digits = pos;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
    out.delay_seconds =
        std::min<uint64_t>(out.delay_seconds * 10 + static_cast<uint64_t>(s[pos] - '0'), 1u << 30);
    ++pos;
  }
  if (pos == digits && (pos >= s.size() || s[pos] != '.')) return std::nullopt;
  while (pos < s.size() && ((s[pos] >= '0' && s[pos] <= '9') || s[pos] == '.')) ++pos;
  if (pos >= s.size()) return std::nullopt;  // a reload of the page itself
  if (s[pos] != ';' && s[pos] != ',' && !IsSpace(s[pos])) return std::nullopt;
  while (pos < s.size() && IsSpace(s[pos])) ++pos;
  if (pos < s.size() && (s[pos] == ';' || s[pos] == ',')) ++pos;
  while (pos < s.size() && IsSpace(s[pos])) ++pos;
  if (pos >= s.size()) return std::nullopt;
  if (s.size() - pos >= 3 && EqualsIgnoreCase(s.substr(pos, 3), "url")) {
    std::size_t p = pos + 3;
    while (p < s.size() && IsSpace(s[p])) ++p;
    if (p < s.size() && s[p] == '=') {
      ++p;
      while (p < s.size() && IsSpace(s[p])) ++p;
      pos = p;
    }
  }
  std::string_view url = s.substr(pos);
  if (!url.empty() && (url.front() == '"' || url.front() == '\'')) {
    const char quote = url.front();
    url.remove_prefix(1);
    url = url.substr(0, url.find(quote));
  }
  url = Trim(url);
  if (url.empty()) return std::nullopt;
  out.url = std::string(url);
  return out;
}

}  // namespace crawl::fetcher
