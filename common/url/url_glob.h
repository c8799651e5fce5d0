// URL globs for the structure order's target control rules (CrawlParams
// site_exclude_patterns / site_dismiss_patterns): '*' matches any run of
// characters, every other character itself (case-sensitive: URL paths are),
// and the glob covers the whole URL ("*/calendar/*" matches any URL with a
// /calendar/ folder). Pure functions, shared by the name server (checks a
// crawl's parameters) and the queue server (applies them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"

namespace crawl {

// True when `url` matches the glob `pattern`. Linear-time in practice (one
// backtrack point), never exponential.
[[nodiscard]] bool UrlGlobMatch(std::string_view pattern, std::string_view url);

// Checks a pattern list from a crawl's parameters: at most 100 patterns, each
// 1 to 1,000 printable ASCII characters without spaces. `what` names the
// parameter in the message.
[[nodiscard]] Status ValidateUrlPatterns(const std::vector<std::string>& patterns, const char* what);

}  // namespace crawl
