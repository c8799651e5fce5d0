// robots.txt rendering and prefix matching; see robots_rules.h.
#include "tests/testweb/robots_rules.h"

#include <algorithm>
#include <cctype>

namespace crawl::testweb {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::string RobotsRules::Render() const {
  std::string out;
  for (size_t g = 0; g < groups_.size(); ++g) {
    if (g > 0) out += '\n';
    for (const auto& agent : groups_[g].agents) out += "User-agent: " + agent + "\n";
    if (groups_[g].disallow.empty()) out += "Disallow:\n";
    for (const auto& rule : groups_[g].disallow)
      out += rule.empty() ? "Disallow:\n" : "Disallow: " + rule + "\n";
  }
  return out;
}

bool RobotsRules::Allows(std::string_view agent, std::string_view path) const {
  // RFC 9309 section 2.2.1: the group naming the agent wins over "*".
  const RobotsGroup* chosen = nullptr;
  for (const auto& g : groups_) {
    for (const auto& a : g.agents) {
      if (agent != "*" && EqualsIgnoreCase(a, agent)) chosen = &g;
    }
    if (chosen != nullptr) break;
  }
  if (chosen == nullptr) {
    for (const auto& g : groups_) {
      if (std::find(g.agents.begin(), g.agents.end(), "*") != g.agents.end()) {
        chosen = &g;
        break;
      }
    }
  }
  if (chosen == nullptr) return true;
  for (const auto& rule : chosen->disallow) {
    if (!rule.empty() && path.substr(0, rule.size()) == rule) return false;
  }
  return true;
}

}  // namespace crawl::testweb
