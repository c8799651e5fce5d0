// robots.txt parsing and matching after RFC 9309 (Robots Exclusion Protocol),
// modelled on google/robotstxt: ParseRobotsTxt() reads a body line by line
// and pushes events to a RobotsParseHandler; Parse() drives a handler that
// keeps only the groups that apply to our product token and returns them as
// RobotsRules, a small value (serialisable, so the queue server can store
// it) that answers IsAllowed().
//
// What we follow:
//   - RFC 9309 2.1-2.2: groups of user-agent lines followed by allow/disallow
//     rules; several groups for the same agent are merged; without a group
//     for our token, the "*" group(s) apply; lines before the first
//     user-agent line are ignored; sitemap and unknown lines do not end a
//     group. Keys are case-insensitive; the user-agent value is matched
//     case-insensitively; rule values are case-sensitive.
//   - RFC 9309 2.2.2: the longest (most octets) matching rule wins; on a tie
//     allow wins; no match = allowed; /robots.txt is always allowed. Octets
//     outside US-ASCII are percent-encoded and %-escapes of unreserved
//     characters are decoded, in rules AND in the path being checked, so
//     "/%7Efoo", "/~foo" and "/ツ" vs "/%E3%83%84" compare equal (the same
//     normal form that common/url/url.h gives canonical URLs).
//   - RFC 9309 2.2.3: "*" matches any sequence, a final "$" anchors the end;
//     "%2A" and "%24" in a rule match a literal "*" and "$" in the path.
//   - RFC 9309 2.3.1 (fetch outcomes): RobotsRules::AllowAll() for 4xx,
//     RobotsRules::DisallowAll() for 5xx or an unreachable server.
//   - RFC 9309 2.5: at least 500 KiB are parsed; the rest is ignored (cut at
//     the last line break inside the limit, so no rule is read half-written).
//
// Google leniencies we ALSO follow (they read what the author evidently
// meant; authors check their files against Google's tester):
//   - a UTF-8 byte order mark, full or partial, at the start is skipped;
//   - a line without a colon is read as "key value" when it has exactly two
//     whitespace-separated tokens ("disallow /");
//   - the user-agent value is cut at the first character outside
//     [a-zA-Z_-] ("User-agent: Foo Bar" and "Foo/1.0" name "Foo"); "*"
//     followed by whitespace and text is still the global group;
//   - common misspellings of keys: useragent, "user agent"; dissallow,
//     dissalow, disalow, diasllow, disallaw; site-map;
//   - an empty path is checked as "/".
//
// Deliberate deviations from Google's parser (github.com/google/robotstxt):
//   - Keys are matched whole (case-insensitively), not by prefix: Google
//     reads "disallowance: /" as "disallow: /"; we count it as unknown.
//   - Percent-encoding is normalised on both sides (RFC 9309 2.2.2, see
//     above). Google compares the URL as given and keeps "%62" undecoded.
//   - No "index.html" rewrite: Google lets "Allow: /d/index.html" also allow
//     "/d/"; we apply the rule as written.
//   - No line-length limit (Google cuts lines after 16,663 bytes and then
//     uses the shortened rule, which widens an allow or disallow rule);
//     only the 500 KiB body limit applies.
//   - Crawl-delay (not in RFC 9309) is read as a member of its group, like
//     allow/disallow: it ends a run of user-agent lines. Google ignores it.
//
// Thread-safety: all functions are reentrant; a RobotsRules is immutable
// after construction and safe to share between threads.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"

namespace crawl::robots {

// RFC 9309 2.5: a crawler must parse at least 500 kibibytes.
inline constexpr std::size_t kMaxRobotsBodyBytes = 500 * 1024;

// Receives the lines of a robots.txt in order. line_num is 1-based; LF, CR
// and CRLF each end one line. Values are trimmed and have comments removed;
// they point into the parsed body or a parser buffer and are valid only
// during the call.
class RobotsParseHandler {
 public:
  virtual ~RobotsParseHandler() = default;

  virtual void HandleRobotsStart() {}
  virtual void HandleRobotsEnd() {}
  // The raw value, e.g. "FooBot/1.0" or "*".
  virtual void HandleUserAgent(int line_num, std::string_view value) = 0;
  // The rule's pattern after NormalizePattern() (may be empty).
  virtual void HandleAllow(int line_num, std::string_view pattern) = 0;
  virtual void HandleDisallow(int line_num, std::string_view pattern) = 0;
  virtual void HandleSitemap(int line_num, std::string_view value) = 0;
  // Not part of RFC 9309; the raw value.
  virtual void HandleCrawlDelay(int line_num, std::string_view value) {}
  // A "key: value" line whose key is not one of the above.
  virtual void HandleUnknownAction(int line_num, std::string_view key, std::string_view value) {}
};

// Parses the first kMaxRobotsBodyBytes of `body` (any bytes; never fails)
// and reports each recognised line to `handler`.
void ParseRobotsTxt(std::string_view body, RobotsParseHandler& handler);

// One allow or disallow rule of the group(s) that apply to us.
struct RobotsRule {
  bool allow = false;
  std::string pattern;  // normalised (NormalizePattern), non-empty
  bool operator==(const RobotsRule&) const = default;
};

// The rules that apply to one product token on one origin
// (scheme://host:port, RFC 9309 2.3). A default-constructed value allows
// everything.
class RobotsRules {
 public:
  RobotsRules() = default;

  // RFC 9309 2.3.1.3: robots.txt unavailable (4xx): everything is allowed.
  [[nodiscard]] static RobotsRules AllowAll();
  // RFC 9309 2.3.1.4: unreachable (5xx, network error): nothing is allowed.
  [[nodiscard]] static RobotsRules DisallowAll();

  // Whether `path_and_query` (path, params and query of a URL, no scheme,
  // host or fragment; "" means "/") may be fetched. Longest match wins,
  // allow wins a tie, /robots.txt is always allowed.
  [[nodiscard]] bool IsAllowed(std::string_view path_and_query) const;

  // Allow and disallow rules, longest first, allow before disallow on equal
  // length, without duplicates.
  [[nodiscard]] const std::vector<RobotsRule>& rules() const { return rules_; }
  // Crawl-delay in seconds of the applying group(s) (the largest if several
  // give one); nullopt when none gave a valid, finite, non-negative number.
  [[nodiscard]] std::optional<double> crawl_delay() const { return crawl_delay_; }
  // Every Sitemap line of the file, whatever its group, in file order,
  // without duplicates.
  [[nodiscard]] const std::vector<std::string>& sitemaps() const { return sitemaps_; }

  // A stable text form (versioned, length-prefixed, binary-safe) for storage.
  [[nodiscard]] std::string Serialize() const;
  // Reads what Serialize() wrote; any other input gets kInvalidArgument.
  [[nodiscard]] static Result<RobotsRules> Deserialize(std::string_view data);

  bool operator==(const RobotsRules&) const = default;

 private:
  friend class RulesBuilder;
  // Sorts rules_ into matching order and removes duplicates.
  void Finish();

  std::vector<RobotsRule> rules_;
  std::optional<double> crawl_delay_;
  std::vector<std::string> sitemaps_;
};

// Parses `body` and keeps what applies to `user_agent_token` (our product
// token, e.g. "CrawlBot"; see IsValidUserAgentToken). A token that is not
// valid never matches a named group, so only "*" groups can apply.
[[nodiscard]] RobotsRules Parse(std::string_view body, std::string_view user_agent_token);

// IsAllowed() for an absolute URL (or a scheme-less "host/path"): checks
// GetPathParamsQuery(absolute_url).
[[nodiscard]] bool IsAllowedUrl(const RobotsRules& rules, std::string_view absolute_url);

// Path, params and query of a URL without the fragment, as Google's
// GetPathParamsQuery: "http://a.b/c?d#e" -> "/c?d"; "" or no path -> "/";
// "example.com/a" -> "/a"; "//a/b" -> "/b".
[[nodiscard]] std::string GetPathParamsQuery(std::string_view url);

// RFC 9309 2.2.1: a product token is non-empty and only [a-zA-Z_-].
[[nodiscard]] bool IsValidUserAgentToken(std::string_view token);

// Normal form of a rule pattern (RFC 9309 2.2.2): octets >= 0x80, controls
// and space percent-encoded, %-escape hex upper-cased, escapes of unreserved
// characters (A-Z a-z 0-9 - . _ ~) decoded. "*" and "$" stay (wildcards).
// Like Google's MaybeEscapePattern, plus the decoding step.
[[nodiscard]] std::string NormalizePattern(std::string_view pattern);

// Normal form of a path for matching: NormalizePattern(), then literal "*"
// and "$" encoded as %2A and %24 (so they only match "%2A"/"%24" in rules),
// and a leading "/" ensured ("" -> "/").
[[nodiscard]] std::string NormalizePath(std::string_view path_and_query);

}  // namespace crawl::robots
