// URL canonicalisation and resolution for http(s) crawling.
//
// Parsing and resolution follow the WHATWG URL Standard, the way browsers
// read hrefs (common/whatwg_url.h: trimming of spaces and C0 controls,
// removal of tabs and newlines, a backslash read as "/", percent-encode sets, IDNA to
// punycode, IPv4 forms such as "0x7f.1", IPv6 compression, dot segments
// including "%2e"). Only http and https are accepted.
//
// Canonical form (one string per page, so URL-seen sets and logs agree), the
// WHATWG serialisation with these changes for the crawl:
//   - the fragment dropped (it never reaches the server);
//   - userinfo dropped;
//   - percent-encoding normalised in path and query: "%XX" of an unreserved
//     octet (ALPHA / DIGIT / "-" / "." / "_" / "~") decoded, other hex digits
//     upper-cased (RFC 3986 section 6.2.2).
// As in WHATWG: scheme and host lower-case, the default port dropped, dot
// segments removed, the path at least "/", an empty query kept as "?".
// The form is a fixed point: Canonicalize(Canonicalize(x)) == Canonicalize(x).
// All functions are thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "common/status.h"
#include "common/whatwg_url.h"

namespace crawl::url {

// Canonical form of an absolute http(s) URL, or why it is not one.
[[nodiscard]] Result<std::string> Canonicalize(std::string_view absolute);

// Resolves `reference` (an href as written in a page) against `base` (an
// absolute URL) and canonicalises the result.
[[nodiscard]] Result<std::string> Resolve(std::string_view base, std::string_view reference);

// Resolves many references against one base, parsing the base once (a page's
// links). Immutable after construction, so thread-safe.
class Resolver {
 public:
  // Fails if `base` is not an absolute http(s) URL.
  [[nodiscard]] static Result<Resolver> ForBase(std::string_view base);
  // Same result as url::Resolve(base, reference).
  [[nodiscard]] Result<std::string> Resolve(std::string_view reference) const;

 private:
  explicit Resolver(whatwg::Url base) : base_(std::move(base)) {}
  whatwg::Url base_;
};

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
