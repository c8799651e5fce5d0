// The one glob matcher behind host globs (common/url/host_glob.h) and URL globs
// (common/url/url_glob.h): '*' matches any run of characters, every other
// character itself, and the glob covers the whole text. Pure.
#pragma once

#include <string_view>

namespace crawl {

// True when `text` matches `pattern`, ASCII case folded when `fold_case`.
// Iterative with one backtrack point per '*': linear in practice, never
// exponential.
[[nodiscard]] bool GlobMatch(std::string_view pattern, std::string_view text, bool fold_case);

}  // namespace crawl
