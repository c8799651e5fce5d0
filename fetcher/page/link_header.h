// The other directives a page gives about itself: Link header values
// (RFC 8288: rel=canonical, rel=alternate hreflang) and the content of
// <meta http-equiv="refresh"> (WHATWG HTML 4.2.5.3). Parsers only;
// fetcher/page/page_directives.h acts on them.
//
// Pure functions of their input; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crawl::fetcher {

// One link of a Link header (RFC 8288 section 3).
struct LinkValue {
  std::string target;    // between '<' and '>', trimmed, not resolved
  std::string rel;       // the rel parameter, lower-cased ("" if none)
  std::string hreflang;  // the hreflang parameter, lower-cased ("" if none)
};

// The links of Link header values (several fields joined by ","): each
// "<URI>" and its ";"-separated parameters, token or quoted-string values
// (so a quoted "," or ";" does not split). Malformed links are skipped; at
// most `max_links` are returned.
[[nodiscard]] std::vector<LinkValue> ParseLinkHeader(std::string_view value, std::size_t max_links = 100);

// Whether a space-separated rel value holds `type` (case-insensitive).
[[nodiscard]] bool RelHas(std::string_view rel, std::string_view type);

// <meta http-equiv="refresh" content="5; url=/next"> (WHATWG HTML 4.2.5.3
// "refresh" state, shared declarative refresh steps): the delay and the
// URL as written (not resolved); nullopt when the content has no URL (a
// plain reload) or does not start with a delay.
struct MetaRefresh {
  uint64_t delay_seconds = 0;
  std::string url;
};
[[nodiscard]] std::optional<MetaRefresh> ParseMetaRefresh(std::string_view content);

}  // namespace crawl::fetcher
