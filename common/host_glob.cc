#include "common/host_glob.h"

#include <cctype>

namespace crawl {
namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

}  // namespace

bool HostGlobMatch(std::string_view pattern, std::string_view host) {
  // Iterative glob with one backtrack point per '*': linear in practice,
  // never exponential.
  size_t p = 0, h = 0, star = std::string_view::npos, mark = 0;
  while (h < host.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = h;
    } else if (p < pattern.size() && Lower(pattern[p]) == Lower(host[h])) {
      ++p;
      ++h;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      h = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

Status ValidateHostPatterns(const std::vector<std::string>& patterns, const char* what) {
  if (patterns.size() > 1000) return Status::InvalidArgument(std::string(what) + ": more than 1000 patterns");
  for (const std::string& p : patterns) {
    if (p.empty() || p.size() > 253)
      return Status::InvalidArgument(std::string(what) + ": a pattern must hold 1 to 253 characters");
    for (char c : p) {
      const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || c == '*';
      if (!ok) return Status::InvalidArgument(std::string(what) + ": '" + p + "' is not a host pattern (letters, digits, . - _ *)");
    }
  }
  return Status::Ok();
}

}  // namespace crawl
