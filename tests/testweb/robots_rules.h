// The robots.txt of a synthetic host, as data: a few groups of user agents
// with path rules. It renders the file the server sends and answers "may
// this agent fetch this path" for the export and the politeness checker, so
// all three always agree. Follows RFC 9309:
//   - section 2.2.1: a crawler obeys the group naming its product token
//     (case-insensitive), else the "*" group;
//   - section 2.2.2: a rule matches a path it is a prefix of; "*" matches any
//     run of characters and a final "$" anchors the end; the longest
//     matching rule (in pattern characters) wins, Allow wins a tie; an empty
//     Disallow allows everything;
//   - Crawl-delay is not in RFC 9309; it is rendered after the rules of its
//     group as "Crawl-delay: SECONDS", the common extension.
// The clean web only uses plain Disallow prefixes (rendered exactly as
// before Allow and Crawl-delay existed).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace crawl::testweb {

struct RobotsGroup {
  std::vector<std::string> agents;      // product tokens, or "*"
  std::vector<std::string> disallow;    // patterns; "" = allow all
  std::vector<std::string> allow = {};  // patterns
  double crawl_delay = 0;               // seconds; 0 = none
};

class RobotsRules {
 public:
  RobotsRules() = default;
  explicit RobotsRules(std::vector<RobotsGroup> groups) : groups_(std::move(groups)) {}

  // The robots.txt body (text/plain).
  [[nodiscard]] std::string Render() const;

  // Whether `agent` (a product token such as "mybot", or "*" for a crawler
  // that no group names) may fetch `path` (path and query, starting "/").
  // "/robots.txt" itself is always allowed (RFC 9309 section 2.2.2).
  [[nodiscard]] bool Allows(std::string_view agent, std::string_view path) const;

  // The Crawl-delay (seconds) of the group `agent` obeys; 0 if none.
  [[nodiscard]] double CrawlDelay(std::string_view agent) const;

  [[nodiscard]] const std::vector<RobotsGroup>& groups() const { return groups_; }

  // Whether `pattern` (with "*" and a final "$") matches a prefix of `path`
  // (or all of it when anchored).
  [[nodiscard]] static bool Matches(std::string_view pattern, std::string_view path);

 private:
  [[nodiscard]] const RobotsGroup* GroupFor(std::string_view agent) const;

  std::vector<RobotsGroup> groups_;
};

}  // namespace crawl::testweb
