// The robots.txt of a synthetic host, as data: a few groups of user agents
// with plain path-prefix Disallow rules. It renders the file the server sends
// and answers "may this agent fetch this path" for the export, so both always
// agree. Follows RFC 9309 for the subset generated here: a crawler obeys the
// group naming its product token, else the "*" group; an empty Disallow
// allows everything; a rule matches a path it is a prefix of. No wildcards,
// no Allow lines, no Crawl-delay yet (later presets may add them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace crawl::testweb {

struct RobotsGroup {
  std::vector<std::string> agents;    // product tokens, or "*"
  std::vector<std::string> disallow;  // path prefixes; "" = allow all
};

class RobotsRules {
 public:
  RobotsRules() = default;
  explicit RobotsRules(std::vector<RobotsGroup> groups) : groups_(std::move(groups)) {}

  // The robots.txt body (text/plain).
  [[nodiscard]] std::string Render() const;

  // Whether `agent` (a product token such as "mybot", or "*" for a crawler
  // that no group names) may fetch `path` (path and query, starting "/").
  [[nodiscard]] bool Allows(std::string_view agent, std::string_view path) const;

  [[nodiscard]] const std::vector<RobotsGroup>& groups() const { return groups_; }

 private:
  std::vector<RobotsGroup> groups_;
};

}  // namespace crawl::testweb
