// URL canonicalisation and resolution for http(s) crawling.
//
// Parsing and resolution follow the WHATWG URL Standard, the way browsers
// read hrefs (common/url/whatwg_url.h: trimming of spaces and C0 controls,
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
//     upper-cased (RFC 3986 section 6.2.2), and a '%' that starts no "%XX"
//     encoded as "%25" (WHATWG keeps it bare; servers refuse it).
// As in WHATWG: scheme and host lower-case, the default port dropped, dot
// segments removed, the path at least "/", an empty query kept as "?".
// The form is a fixed point: Canonicalize(Canonicalize(x)) == Canonicalize(x).
//
// Tracking parameters: a crawl may also remove query
// parameters that identify a visit rather than a page (campaign tags, click
// ids, session ids), so that one page is one URL. TrackingParams holds the
// list; the overloads that take one remove the matching "name[=value]"
// pairs from the query (split on '&'), and ";name=value" path parameters
// (how Java servlets put jsessionid in the path). A query left empty by the
// removal is dropped with its '?'. Names compare case-insensitively, after
// the percent-encoding normalisation ("utm%5Fsource" is "utm_source").
// The one-argument functions remove nothing (WHATWG form + the changes
// above), so conformance suites test the parser alone.
//
// The default list (kDefaultTrackingParams) and why:
//   utm_*                      Google Analytics campaign tags (any utm_ key);
//   gclid dclid gbraid wbraid  Google Ads click ids; _ga _gl: GA linker;
//   fbclid                     Facebook; msclkid: Microsoft Ads; yclid:
//                              Yandex; igshid: Instagram; twclid: Twitter;
//                              ttclid: TikTok; mc_cid mc_eid: Mailchimp;
//                              _hsenc _hsmi: HubSpot; mkt_tok: Marketo;
//   jsessionid phpsessid       session ids of Java servlets and PHP, and
//   sessionid                  the generic spelling (the synthetic web uses
//                              it): the name says what it is, and the page
//                              is the same whatever its value.
// Deliberately not in the default: "sid", "session", "ref",
// "source": short generic names that many sites also use for content (a
// story id, a sort key); removing them would merge different pages. A crawl
// can add them (CrawlParams.tracking_params).
// All functions are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/status.h"
#include "common/url/whatwg_url.h"

namespace crawl::url {

// Longest URL the crawler accepts anywhere (links, sitemaps, redirects,
// seeds, RPCs): 2,048 bytes, what sitemaps.org allows and most servers and
// browsers handle. A longer one is almost always a trap or an attack, and
// every stored copy of it costs memory and disk.
inline constexpr std::size_t kMaxUrlBytes = 2048;

// True if `u` is longer than kMaxUrlBytes.
[[nodiscard]] inline bool UrlTooLong(std::string_view u) { return u.size() > kMaxUrlBytes; }

// The default tracking-parameter patterns (see the header comment).
extern const std::vector<std::string> kDefaultTrackingParams;

// A set of query-parameter name patterns: "name" (exact) or "prefix*".
// Matching is ASCII case-insensitive. Immutable, thread-safe.
class TrackingParams {
 public:
  // Matches nothing.
  TrackingParams() = default;
  // kDefaultTrackingParams.
  [[nodiscard]] static const TrackingParams& Default();
  // Errors: an empty pattern, a bare "*" (would drop every parameter), or
  // a character outside [A-Za-z0-9._~-] (before a final '*').
  [[nodiscard]] static Result<TrackingParams> FromList(const std::vector<std::string>& patterns);

  // True if a parameter named `name` (as in the canonical URL) matches.
  [[nodiscard]] bool Matches(std::string_view name) const;
  [[nodiscard]] bool empty() const { return exact_.empty() && prefixes_.empty(); }

 private:
  std::vector<std::string> exact_;     // lower-case
  std::vector<std::string> prefixes_;  // lower-case, without the '*'
};

// Canonical form of an absolute http(s) URL, or why it is not one.
[[nodiscard]] Result<std::string> Canonicalize(std::string_view absolute);

// The same, with the parameters `tracking` matches removed.
[[nodiscard]] Result<std::string> Canonicalize(std::string_view absolute, const TrackingParams& tracking);

// Removes what `tracking` matches from an already canonical URL (a link
// from url::Resolve). Equal to Canonicalize(canonical, tracking) on
// canonical input, without parsing again.
[[nodiscard]] std::string RemoveTrackingParams(std::string_view canonical, const TrackingParams& tracking);

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
  // The fast path: a relative reference of plain characters (as
  // IsPlainCanonical reads them) against a plain canonical base, merged and
  // its dot segments removed as text; nullopt when the parser must decide
  // (a scheme, an authority, an escape the normalisation would change...).
  [[nodiscard]] std::optional<std::string> ResolvePlain(std::string_view reference) const;
  whatwg::Url base_;
  std::string plain_base_;  // the base's canonical form if IsPlainCanonical, else ""
  size_t origin_size_ = 0;  // "scheme://host[:port]" of plain_base_
  size_t path_end_ = 0;     // where plain_base_'s path ends (its '?' or its end)
};

// The parts of a canonical URL that a fetcher needs.
struct UrlParts {
  std::string scheme;  // "http" or "https"
  std::string host;    // lower-case host name or IP literal (no brackets)
  uint16_t port = 0;   // effective port (80/443 when the URL has none)
  std::string target;  // path and query: what goes on the request line
};

// Splits an absolute URL. REQUIRES nothing: bad input gets an error.
[[nodiscard]] Result<UrlParts> Split(std::string_view absolute);

// The host part of an absolute URL, lower-cased ("" if it has none).
[[nodiscard]] std::string HostOf(std::string_view absolute);

// "scheme://host[:port]" of an absolute URL: the unit of politeness and of
// robots.txt (RFC 9309 section 2.3: rules apply per scheme, host and port).
[[nodiscard]] Result<std::string> OriginOf(std::string_view absolute);

// Fast path of OriginOf for the URLs the frontier holds: for an http(s) URL
// already in canonical form whose authority is plain (lower-case letters,
// digits, '-' and '.', a host that cannot be an IPv4 address or is one in
// dotted-decimal form, an optional non-default port), the leading
// "scheme://host[:port]" of `canonical`,
// which is what OriginOf returns; "" when the URL needs the full parse.
[[nodiscard]] std::string_view FastOriginOf(std::string_view canonical);

// FastOriginOf over a run of URLs that mostly share one origin (a page's
// links, a schedule's URLs). A URL that starts with the last origin found
// followed by '/' has that origin (FastOriginOf's answer depends only on
// the bytes before the first '/' after the scheme), so one compare
// recognises it instead of FastOriginOf's checks of every byte of the
// authority. The same answers as FastOriginOf; not thread-safe.
class OriginMemo {
 public:
  // FastOriginOf(canonical): a view into `canonical`, "" if it needs a parse.
  [[nodiscard]] std::string_view Origin(std::string_view canonical);
  // The host of Origin(canonical) (no port), a view into `canonical`; ""
  // if it needs a parse.
  [[nodiscard]] std::string_view Host(std::string_view canonical);

 private:
  std::string last_;       // the last origin found, "" before the first
  size_t host_begin_ = 0;  // its host: after "://", up to ':' or the end
  size_t host_size_ = 0;
};

// Whether `u` is already canonical in the plainest way, checked in one
// scan without parsing: a FastOriginOf authority, then a path and query of
// unreserved characters, sub-delims, ':', '@', '/', '?' and upper-case
// "%XX" escapes of reserved octets, with no "." or ".." segment. True only
// when Canonicalize(u) == u (Canonicalize uses it as its fast path: links
// arrive canonical from fetchers and the queue server checks every one);
// false means "parse it", not "invalid".
[[nodiscard]] bool IsPlainCanonical(std::string_view u);

// The robots.txt URL for the origin of `absolute`.
[[nodiscard]] Result<std::string> RobotsUrlFor(std::string_view absolute);

}  // namespace crawl::url
