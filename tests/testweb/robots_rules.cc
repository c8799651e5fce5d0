// robots.txt rendering and RFC 9309 matching; see robots_rules.h.
#include "tests/testweb/robots_rules.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace crawl::testweb {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string FormatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

}  // namespace

std::string RobotsRules::Render() const {
  std::string out;
  for (size_t g = 0; g < groups_.size(); ++g) {
    const RobotsGroup& group = groups_[g];
    if (g > 0) out += '\n';
    for (const auto& agent : group.agents) out += "User-agent: " + agent + "\n";
    for (const auto& rule : group.allow) out += "Allow: " + rule + "\n";
    if (group.disallow.empty() && group.allow.empty()) out += "Disallow:\n";
    for (const auto& rule : group.disallow) out += rule.empty() ? "Disallow:\n" : "Disallow: " + rule + "\n";
    if (group.crawl_delay > 0) out += "Crawl-delay: " + FormatSeconds(group.crawl_delay) + "\n";
  }
  return out;
}

bool RobotsRules::Matches(std::string_view pattern, std::string_view path) {
  const bool anchored = !pattern.empty() && pattern.back() == '$';
  if (anchored) pattern.remove_suffix(1);
  // Iterative glob with backtracking to the last '*' (linear in practice).
  size_t p = 0, s = 0, star = std::string_view::npos, star_s = 0;
  while (true) {
    if (p == pattern.size()) {
      if (!anchored || s == path.size()) return true;
    } else if (pattern[p] == '*') {
      star = p++;
      star_s = s;
      continue;
    } else if (s < path.size() && pattern[p] == path[s]) {
      ++p;
      ++s;
      continue;
    }
    if (star == std::string_view::npos || star_s >= path.size()) return false;
    p = star + 1;
    s = ++star_s;
  }
}

const RobotsGroup* RobotsRules::GroupFor(std::string_view agent) const {
  // RFC 9309 section 2.2.1: the group naming the agent wins over "*".
  if (agent != "*") {
    for (const auto& g : groups_) {
      for (const auto& a : g.agents) {
        if (EqualsIgnoreCase(a, agent)) return &g;
      }
    }
  }
  for (const auto& g : groups_) {
    if (std::find(g.agents.begin(), g.agents.end(), "*") != g.agents.end()) return &g;
  }
  return nullptr;
}

bool RobotsRules::Allows(std::string_view agent, std::string_view path) const {
  if (path == "/robots.txt") return true;
  const RobotsGroup* chosen = GroupFor(agent);
  if (chosen == nullptr) return true;
  // RFC 9309 section 2.2.2: the most specific (longest) match wins; Allow
  // wins a tie.
  long best_disallow = -1, best_allow = -1;
  for (const auto& rule : chosen->disallow) {
    if (!rule.empty() && Matches(rule, path))
      best_disallow = std::max<long>(best_disallow, long(rule.size()));
  }
  for (const auto& rule : chosen->allow) {
    if (Matches(rule, path)) best_allow = std::max<long>(best_allow, long(rule.size()));
  }
  return best_disallow < 0 || best_allow >= best_disallow;
}

double RobotsRules::CrawlDelay(std::string_view agent) const {
  const RobotsGroup* chosen = GroupFor(agent);
  return chosen == nullptr ? 0 : chosen->crawl_delay;
}

}  // namespace crawl::testweb
