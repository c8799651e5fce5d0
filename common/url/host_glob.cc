#include "common/url/host_glob.h"

#include <cctype>

#include "common/url/glob.h"

namespace crawl {

bool HostGlobMatch(std::string_view pattern, std::string_view host) { return GlobMatch(pattern, host, true); }

Status ValidateHostPatterns(const std::vector<std::string>& patterns, const char* what) {
  if (patterns.size() > 1000) return Status::InvalidArgument(std::string(what) + ": more than 1000 patterns");
  for (const std::string& p : patterns) {
    if (p.empty() || p.size() > 253)
      return Status::InvalidArgument(std::string(what) + ": a pattern must hold 1 to 253 characters");
    for (char c : p) {
      const bool ok =
          std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || c == '*';
      if (!ok)
        return Status::InvalidArgument(std::string(what) + ": '" + p +
                                       "' is not a host pattern (letters, digits, . - _ *)");
    }
  }
  return Status::Ok();
}

}  // namespace crawl
