#include "common/url/url_glob.h"

#include "common/url/glob.h"

namespace crawl {

bool UrlGlobMatch(std::string_view pattern, std::string_view url) { return GlobMatch(pattern, url, false); }

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
