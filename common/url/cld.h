// Company level domain (docs/DESIGN.md §4): the registrable domain of a
// host, from the Public Suffix List (libpsl with the system list from the
// `publicsuffix` package), or by the simple rule the literature's figures use:
// "x.2chars.2chars" keeps three labels, everything else keeps two.
//
// Thread-safe: the PSL context is loaded once and only read afterwards.
#pragma once

#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl {

enum class CldRule {
  kPublicSuffixList,  // default
  kSimple,
};

// The CLD of `host` (lower-cased, punycode; a trailing dot is ignored). An IP
// literal is its own CLD; a host that is itself a public suffix is its own
// CLD. Fails only on an empty or malformed host.
[[nodiscard]] Result<std::string> CompanyLevelDomain(std::string_view host,
                                                     CldRule rule = CldRule::kPublicSuffixList);

// Parses "psl" or "simple".
[[nodiscard]] Result<CldRule> ParseCldRule(std::string_view name);

}  // namespace crawl
