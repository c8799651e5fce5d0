#include "common/url_glob.h"

namespace crawl {

bool UrlGlobMatch(std::string_view pattern, std::string_view url) {
  // Iterative glob with one backtrack point per '*' (as HostGlobMatch).
  size_t p = 0, u = 0, star = std::string_view::npos, mark = 0;
  while (u < url.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = u;
    } else if (p < pattern.size() && pattern[p] == url[u]) {
      ++p;
      ++u;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      u = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

Status ValidateUrlPatterns(const std::vector<std::string>& patterns, const char* what) {
  if (patterns.size() > 100) return Status::InvalidArgument(std::string(what) + ": more than 100 patterns");
  for (const std::string& p : patterns) {
    if (p.empty() || p.size() > 1000)
      return Status::InvalidArgument(std::string(what) + ": a pattern must hold 1 to 1000 characters");
    for (char c : p) {
      if (c <= ' ' || c > '~')
        return Status::InvalidArgument(std::string(what) + ": '" + p +
                                       "' holds a space or a character outside printable ASCII");
    }
  }
  return Status::Ok();
}

}  // namespace crawl
