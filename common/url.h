// URL canonicalisation and resolution for http(s) crawling, on Boost.URL
// (RFC 3986 parsing and reference resolution, section 5.2).
//
// Canonical form (one string per page, so URL-seen sets and logs agree):
//   - scheme and host lower-cased; the scheme's default port dropped;
//   - percent-encoding normalised (hex upper-cased, unreserved octets decoded,
//     RFC 3986 section 6.2.2);
//   - dot segments removed; an empty path becomes "/";
//   - the fragment dropped (it never reaches the server);
//   - only http and https accepted; a host is required.
// Before parsing, input is cleaned the way browsers do it: surrounding
// whitespace and C0 controls trimmed, tabs and newlines removed, "\" in the
// path read as "/", and octets RFC 3986 does not allow (space, non-ASCII,
// '"', '<', '>', '^', '`', '{', '|', '}') percent-encoded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace crawl::url {

// Canonical form of an absolute http(s) URL, or why it is not one.
[[nodiscard]] Result<std::string> Canonicalize(std::string_view absolute);

// Resolves `reference` (an href as written in a page) against `base` (an
// absolute URL) and canonicalises the result.
[[nodiscard]] Result<std::string> Resolve(std::string_view base, std::string_view reference);

// The parts of a canonical URL that a fetcher needs.
struct UrlParts {
  std::string scheme;   // "http" or "https"
  std::string host;     // lower-case host name or IP literal (no brackets)
  uint16_t port = 0;    // effective port (80/443 when the URL has none)
  std::string target;   // path and query: what goes on the request line
};

// Splits an absolute URL. REQUIRES nothing: bad input gets an error.
[[nodiscard]] Result<UrlParts> Split(std::string_view absolute);

// The host part of an absolute URL, lower-cased ("" if it has none).
[[nodiscard]] std::string HostOf(std::string_view absolute);

// "scheme://host[:port]" of an absolute URL: the unit of politeness and of
// robots.txt (RFC 9309 section 2.3: rules apply per scheme, host and port).
[[nodiscard]] Result<std::string> OriginOf(std::string_view absolute);

// The robots.txt URL for the origin of `absolute`.
[[nodiscard]] Result<std::string> RobotsUrlFor(std::string_view absolute);

}  // namespace crawl::url
