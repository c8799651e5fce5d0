// robots.txt parser and matcher (RFC 9309). See robots.h for what is
// followed and every deliberate deviation from RFC 9309 and from Google's
// parser.
#include "common/url/robots.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_set>
#include <utility>

#include "common/base/find_any.h"

namespace crawl::robots {
namespace {

constexpr char kHexUpper[] = "0123456789ABCDEF";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (LowerAscii(a[i]) != LowerAscii(b[i])) return false;
  }
  return true;
}

bool IsTokenChar(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// RFC 3986 2.3.
bool IsUnreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

void AppendEscaped(unsigned char c, std::string& out) {
  out.push_back('%');
  out.push_back(kHexUpper[c >> 4]);
  out.push_back(kHexUpper[c & 0xF]);
}

enum class NormalMode { kPattern, kPath };

// Shared by NormalizePattern and NormalizePath (robots.h says what each does).
void AppendNormalized(std::string_view in, NormalMode mode, std::string& out) {
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto c = static_cast<unsigned char>(in[i]);
    if (c == '%' && i + 2 < in.size() && HexValue(in[i + 1]) >= 0 && HexValue(in[i + 2]) >= 0) {
      const auto v = static_cast<unsigned char>(HexValue(in[i + 1]) * 16 + HexValue(in[i + 2]));
      if (IsUnreserved(v)) {
        out.push_back(static_cast<char>(v));
      } else {
        AppendEscaped(v, out);
      }
      i += 2;
    } else if (c >= 0x80 || c <= 0x20 || c == 0x7F) {
      AppendEscaped(c, out);
    } else if (c == '$' && (mode == NormalMode::kPath || i + 1 != in.size())) {
      // Only a final "$" is an anchor (as in Google's matcher); elsewhere it
      // is a literal, which the path side encodes the same way.
      AppendEscaped(c, out);
    } else if (c == '*' && mode == NormalMode::kPath) {
      AppendEscaped(c, out);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
}

// True when NormalizePath(path) could differ from path.
bool PathNeedsNormalizing(std::string_view path) {
  if (path.empty() || path.front() != '/') return true;
  for (char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '%' || c == '*' || c == '$' || c >= 0x80 || c <= 0x20 || c == 0x7F) return true;
  }
  return false;
}

// RFC 9309 2.2.2-2.2.3: does `pattern` (normalised; "*" any sequence, final
// "$" end of path) match a prefix of `path` (normalised)? Greedy leftmost
// matching of the literal pieces between stars is exact for this pattern
// language and runs in about O(|path| + |pattern|) for real rules, unlike
// the position-set walk of Google's matcher (O(|path| * |pattern|)).
bool Matches(std::string_view path, std::string_view pattern) {
  const bool anchored = !pattern.empty() && pattern.back() == '$';
  if (anchored) pattern.remove_suffix(1);
  std::size_t star = pattern.find('*');
  if (star == std::string_view::npos) {
    return anchored ? path == pattern : path.starts_with(pattern);
  }
  if (!path.starts_with(pattern.substr(0, star))) return false;
  std::size_t pos = star;
  pattern.remove_prefix(star + 1);
  while ((star = pattern.find('*')) != std::string_view::npos) {
    const std::string_view piece = pattern.substr(0, star);
    pattern.remove_prefix(star + 1);
    if (piece.empty()) continue;
    const std::size_t found = path.find(piece, pos);
    if (found == std::string_view::npos) return false;
    pos = found + piece.size();
  }
  // `pattern` is now the piece after the last star.
  if (!anchored) return pattern.empty() || path.find(pattern, pos) != std::string_view::npos;
  return path.size() - pos >= pattern.size() && path.ends_with(pattern);
}

// A crawl-delay value: a finite, non-negative number, possibly followed by
// junk ("10 seconds"), which is ignored.
std::optional<double> ParseCrawlDelay(std::string_view value) {
  double d = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), d);
  if (ec != std::errc() || ptr == value.data() || !std::isfinite(d) || d < 0) return std::nullopt;
  return d;
}

enum class Key { kUserAgent, kAllow, kDisallow, kSitemap, kCrawlDelay, kUnknown };

Key ClassifyKey(std::string_view key) {
  // Whole-key comparison, with the misspellings Google accepts (robots.h).
  static constexpr std::pair<std::string_view, Key> kKeys[] = {
      {"user-agent", Key::kUserAgent},   {"useragent", Key::kUserAgent},
      {"user agent", Key::kUserAgent},   {"allow", Key::kAllow},
      {"disallow", Key::kDisallow},      {"dissallow", Key::kDisallow},
      {"dissalow", Key::kDisallow},      {"disalow", Key::kDisallow},
      {"diasllow", Key::kDisallow},      {"disallaw", Key::kDisallow},
      {"sitemap", Key::kSitemap},        {"site-map", Key::kSitemap},
      {"crawl-delay", Key::kCrawlDelay},
  };
  for (const auto& [name, k] : kKeys) {
    if (EqualsIgnoreCase(key, name)) return k;
  }
  return Key::kUnknown;
}

// Splits one line (without its line break) into key and value; false if the
// line holds no directive.
bool SplitKeyValue(std::string_view line, std::string_view& key, std::string_view& value) {
  const std::size_t hash = line.find('#');
  if (hash != std::string_view::npos) line = line.substr(0, hash);
  line = Trim(line);
  if (line.empty()) return false;
  const std::size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    key = Trim(line.substr(0, colon));
    value = Trim(line.substr(colon + 1));
    return true;
  }
  // Google leniency: "disallow /" (exactly two whitespace-separated tokens).
  const std::size_t space = line.find_first_of(" \t\v\f");
  if (space == std::string_view::npos) return false;
  key = line.substr(0, space);
  value = Trim(line.substr(space));
  return value.find_first_of(" \t\v\f") == std::string_view::npos;
}

}  // namespace

std::string NormalizePattern(std::string_view pattern) {
  std::string out;
  out.reserve(pattern.size());
  AppendNormalized(pattern, NormalMode::kPattern, out);
  return out;
}

std::string NormalizePath(std::string_view path_and_query) {
  std::string out;
  out.reserve(path_and_query.size() + 1);
  if (path_and_query.empty() || path_and_query.front() != '/') out.push_back('/');
  AppendNormalized(path_and_query, NormalMode::kPath, out);
  return out;
}

bool IsValidUserAgentToken(std::string_view token) {
  return !token.empty() && std::all_of(token.begin(), token.end(), IsTokenChar);
}

void ParseRobotsTxt(std::string_view body, RobotsParseHandler& handler) {
  // RFC 9309 2.5: parse the first 500 KiB. A line cut by the limit is
  // dropped rather than read half-written.
  if (body.size() > kMaxRobotsBodyBytes) {
    const char next = body[kMaxRobotsBodyBytes];
    body = body.substr(0, kMaxRobotsBodyBytes);
    if (next != '\n' && next != '\r') {
      const std::size_t last_break = body.find_last_of("\r\n");
      body = last_break == std::string_view::npos ? std::string_view() : body.substr(0, last_break + 1);
    }
  }
  // A UTF-8 byte order mark, or the start of one, is skipped (Google).
  static constexpr std::string_view kBom = "\xEF\xBB\xBF";
  for (std::size_t i = 0; i < kBom.size() && !body.empty() && body.front() == kBom[i]; ++i) {
    body.remove_prefix(1);
  }

  handler.HandleRobotsStart();
  std::string pattern;  // reused for every rule, to avoid an allocation per line
  int line_num = 0;
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t end = body.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) end = body.size();
    const std::string_view line = body.substr(pos, end - pos);
    ++line_num;
    pos = end;
    if (pos < body.size()) {
      // CR, LF and CRLF each end one line.
      pos += (body[pos] == '\r' && pos + 1 < body.size() && body[pos + 1] == '\n') ? 2 : 1;
    }

    std::string_view key;
    std::string_view value;
    if (!SplitKeyValue(line, key, value)) continue;
    const Key kind = ClassifyKey(key);
    switch (kind) {
      case Key::kUserAgent:
        handler.HandleUserAgent(line_num, value);
        break;
      case Key::kAllow:
      case Key::kDisallow:
        pattern.clear();
        AppendNormalized(value, NormalMode::kPattern, pattern);
        if (kind == Key::kAllow) {
          handler.HandleAllow(line_num, pattern);
        } else {
          handler.HandleDisallow(line_num, pattern);
        }
        break;
      case Key::kSitemap:
        handler.HandleSitemap(line_num, value);
        break;
      case Key::kCrawlDelay:
        handler.HandleCrawlDelay(line_num, value);
        break;
      case Key::kUnknown:
        handler.HandleUnknownAction(line_num, key, value);
        break;
    }
  }
  handler.HandleRobotsEnd();
}

// Keeps the groups that apply to one product token (RFC 9309 2.2.1), the way
// Google's RobotsMatcher tracks them: a run of user-agent lines opens a
// group; the first rule after it marks the run as closed, so the next
// user-agent line starts a new group.
class RulesBuilder final : public RobotsParseHandler {
 public:
  explicit RulesBuilder(std::string_view token) : token_(token), token_valid_(IsValidUserAgentToken(token)) {}

  void HandleUserAgent(int, std::string_view value) override {
    if (seen_separator_) {
      seen_global_ = seen_specific_ = seen_separator_ = false;
    }
    // "*" alone, or followed by whitespace and anything, is the global group.
    if (!value.empty() && value.front() == '*' && (value.size() == 1 || IsSpace(value[1]))) {
      seen_global_ = true;
      return;
    }
    std::size_t n = 0;
    while (n < value.size() && IsTokenChar(value[n])) ++n;
    if (token_valid_ && n > 0 && EqualsIgnoreCase(value.substr(0, n), token_)) {
      seen_specific_ = ever_seen_specific_ = true;
    }
  }

  void HandleAllow(int, std::string_view pattern) override { AddRule(true, pattern); }
  void HandleDisallow(int, std::string_view pattern) override { AddRule(false, pattern); }

  void HandleCrawlDelay(int, std::string_view value) override {
    if (!seen_global_ && !seen_specific_) return;
    seen_separator_ = true;
    const std::optional<double> d = ParseCrawlDelay(value);
    if (!d) return;
    // Merged groups: the most polite (largest) delay wins.
    if (seen_specific_) specific_delay_ = std::max(specific_delay_.value_or(0.0), *d);
    if (seen_global_) global_delay_ = std::max(global_delay_.value_or(0.0), *d);
  }

  void HandleSitemap(int, std::string_view value) override {
    if (value.empty()) return;
    if (sitemaps_seen_.emplace(value).second) rules_.sitemaps_.emplace_back(value);
  }

  RobotsRules Build() && {
    // RFC 9309 2.2.1: a group for our token, if any, replaces the "*" groups
    // entirely, even if none of its rules match.
    if (ever_seen_specific_) {
      rules_.rules_ = std::move(specific_);
      rules_.crawl_delay_ = specific_delay_;
    } else {
      rules_.rules_ = std::move(global_);
      rules_.crawl_delay_ = global_delay_;
    }
    rules_.Finish();
    return std::move(rules_);
  }

 private:
  void AddRule(bool allow, std::string_view pattern) {
    if (!seen_global_ && !seen_specific_) return;  // before any user-agent line, or not ours
    seen_separator_ = true;
    // An empty pattern matches nothing (RFC 9309 2.2.2: "Disallow:" allows all).
    if (pattern.empty()) return;
    if (seen_specific_) specific_.push_back({allow, std::string(pattern)});
    if (seen_global_) global_.push_back({allow, std::string(pattern)});
  }

  std::string_view token_;
  bool token_valid_;
  bool seen_global_ = false;
  bool seen_specific_ = false;
  bool ever_seen_specific_ = false;
  bool seen_separator_ = false;
  std::vector<RobotsRule> specific_;
  std::vector<RobotsRule> global_;
  std::optional<double> specific_delay_;
  std::optional<double> global_delay_;
  std::unordered_set<std::string> sitemaps_seen_;
  RobotsRules rules_;
};

RobotsRules Parse(std::string_view body, std::string_view user_agent_token) {
  RulesBuilder builder(user_agent_token);
  ParseRobotsTxt(body, builder);
  return std::move(builder).Build();
}

RobotsRules RobotsRules::AllowAll() { return RobotsRules(); }

RobotsRules RobotsRules::DisallowAll() {
  RobotsRules r;
  r.rules_.push_back({false, "/"});
  return r;
}

void RobotsRules::Finish() {
  // Longest first, allow before disallow on equal length: the first rule
  // that matches is then the answer (longest match, allow wins a tie).
  std::sort(rules_.begin(), rules_.end(), [](const RobotsRule& a, const RobotsRule& b) {
    if (a.pattern.size() != b.pattern.size()) return a.pattern.size() > b.pattern.size();
    if (a.allow != b.allow) return a.allow;
    return a.pattern < b.pattern;
  });
  rules_.erase(std::unique(rules_.begin(), rules_.end()), rules_.end());
}

bool RobotsRules::IsAllowed(std::string_view path_and_query) const {
  if (rules_.empty()) return true;
  std::string normalized;
  std::string_view path = path_and_query;
  if (PathNeedsNormalizing(path)) {
    normalized = NormalizePath(path);
    path = normalized;
  }
  if (path == "/robots.txt") return true;  // RFC 9309 2.2.2
  for (const RobotsRule& rule : rules_) {
    if (Matches(path, rule.pattern)) return rule.allow;
  }
  return true;
}

bool IsAllowedUrl(const RobotsRules& rules, std::string_view absolute_url) {
  return rules.IsAllowed(GetPathParamsQuery(absolute_url));
}

std::string GetPathParamsQuery(std::string_view url) {
  constexpr auto npos = std::string_view::npos;
  // Two leading slashes start an authority ("//host/path").
  const std::size_t search_start = url.starts_with("//") ? 2 : 0;
  const std::size_t early_path = FindAnyOf(url, "/?;", search_start);
  std::size_t protocol_end = url.find("://", search_start);
  // A "://" after the path started is part of the path or query.
  if (early_path < protocol_end) protocol_end = npos;
  protocol_end = protocol_end == npos ? search_start : protocol_end + 3;
  const std::size_t path_start = FindAnyOf(url, "/?;", protocol_end);
  if (path_start == npos) return "/";
  const std::size_t hash = url.find('#', search_start);
  if (hash < path_start) return "/";
  const std::size_t path_end = hash == npos ? url.size() : hash;
  std::string out;
  if (url[path_start] != '/') out.push_back('/');
  out.append(url.substr(path_start, path_end - path_start));
  return out;
}

// Serialised form:
//   "crawl-robots-rules 1\n"
//   then records "<tag> <length>:<bytes>\n" with tag
//   C crawl delay (shortest round-trip decimal), S sitemap, A allow, D disallow,
//   and last "E 0:\n", so that a truncated copy is rejected, never read as
//   fewer rules.
namespace {

constexpr std::string_view kSerialHeader = "crawl-robots-rules 1\n";

void AppendRecord(char tag, std::string_view bytes, std::string& out) {
  out.push_back(tag);
  out.push_back(' ');
  out.append(std::to_string(bytes.size()));
  out.push_back(':');
  out.append(bytes);
  out.push_back('\n');
}

}  // namespace

std::string RobotsRules::Serialize() const {
  std::string out(kSerialHeader);
  if (crawl_delay_) {
    char buf[64];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, *crawl_delay_);
    AppendRecord('C', ec == std::errc() ? std::string_view(buf, ptr - buf) : "0", out);
  }
  for (const std::string& s : sitemaps_) AppendRecord('S', s, out);
  for (const RobotsRule& r : rules_) AppendRecord(r.allow ? 'A' : 'D', r.pattern, out);
  AppendRecord('E', "", out);
  return out;
}

Result<RobotsRules> RobotsRules::Deserialize(std::string_view data) {
  auto bad = [](std::string what) { return Status::InvalidArgument("robots rules: " + std::move(what)); };
  if (!data.starts_with(kSerialHeader)) return bad("missing header");
  data.remove_prefix(kSerialHeader.size());
  RobotsRules rules;
  bool ended = false;
  while (!data.empty()) {
    if (ended) return bad("data after end record");
    if (data.size() < 4 || data[1] != ' ') return bad("malformed record");
    const char tag = data[0];
    data.remove_prefix(2);
    std::size_t len = 0;
    const auto [ptr, ec] = std::from_chars(data.data(), data.data() + data.size(), len);
    if (ec != std::errc() || ptr == data.data() || ptr == data.data() + data.size() || *ptr != ':') {
      return bad("malformed length");
    }
    data.remove_prefix(static_cast<std::size_t>(ptr - data.data()) + 1);
    if (len >= data.size() || data[len] != '\n') return bad("truncated record");
    const std::string_view bytes = data.substr(0, len);
    data.remove_prefix(len + 1);
    switch (tag) {
      case 'C': {
        if (rules.crawl_delay_) return bad("two crawl delays");
        double d = 0;
        const auto [p, e] = std::from_chars(bytes.data(), bytes.data() + bytes.size(), d);
        if (e != std::errc() || p != bytes.data() + bytes.size() || !std::isfinite(d) || d < 0) {
          return bad("bad crawl delay");
        }
        rules.crawl_delay_ = d;
        break;
      }
      case 'S':
        rules.sitemaps_.emplace_back(bytes);
        break;
      case 'A':
      case 'D':
        if (bytes.empty()) return bad("empty pattern");
        rules.rules_.push_back({tag == 'A', std::string(bytes)});
        break;
      case 'E':
        if (!bytes.empty()) return bad("bad end record");
        ended = true;
        break;
      default:
        return bad(std::string("unknown record tag '") + tag + "'");
    }
  }
  if (!ended) return bad("truncated (no end record)");
  rules.Finish();
  return rules;
}

}  // namespace crawl::robots
