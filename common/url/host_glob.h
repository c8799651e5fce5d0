// Host globs for crawl scope parameters (include_hosts / exclude_hosts):
// '*' matches any run of characters, matching is case-insensitive, and the
// glob covers the whole host ("example.test" is that host only,
// "*.example.test" its subdomains). Pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"

namespace crawl {

// True when `host` matches the glob `pattern`. Linear-time in practice (one
// backtrack point), never exponential.
[[nodiscard]] bool HostGlobMatch(std::string_view pattern, std::string_view host);

// Checks a pattern list from a crawl's parameters: each pattern non-empty,
// at most 253 characters of letters, digits, '.', '-', '_' and '*'; at most
// 1,000 patterns. `what` names the parameter in the message.
[[nodiscard]] Status ValidateHostPatterns(const std::vector<std::string>& patterns, const char* what);

}  // namespace crawl
