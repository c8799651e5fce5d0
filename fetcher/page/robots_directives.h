// Indexing directives of a page: the content of <meta name="robots"> and
// the X-Robots-Tag HTTP header, after Google's documented syntax
// (developers.google.com/search/docs/crawling-indexing/robots-meta-tag):
// a comma-separated list of directives, case-insensitive; in the header an
// optional user-agent prefix ("X-Robots-Tag: googlebot: noindex") makes the
// directives after it, up to the next prefix or the end of that header
// field, apply to that agent only; several header fields may be sent.
//
// Obeyed: all (nothing), noindex, nofollow, none (= noindex, nofollow),
// noarchive and nocache, nosnippet, unavailable_after: <date> (RFC 822 /
// RFC 850 / asctime / ISO 8601). Parsed and ignored: max-snippet,
// max-image-preview, max-video-preview, notranslate, noimageindex,
// indexifembedded, and anything unknown. The most restrictive directive
// wins; of several unavailable_after dates, the earliest.
//
// Pure functions of their input; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crawl::fetcher {

struct RobotsDirectives {
  bool noindex = false;
  bool nofollow = false;
  bool noarchive = false;
  bool nosnippet = false;
  // Unix seconds after which the page leaves search results; 0: none.
  int64_t unavailable_after_unix_s = 0;

  // Adds `other`'s directives (the most restrictive of both wins).
  void Merge(const RobotsDirectives& other);
};

// The content of a robots meta tag (the tag's name already chose the
// agent): directives separated by commas (or, as many pages write, spaces).
[[nodiscard]] RobotsDirectives ParseRobotsMeta(std::string_view content);

// X-Robots-Tag values, one header field per line ("\n" separates fields:
// an agent prefix in one field does not reach into the next). Directives
// without a prefix apply to all agents; those after "AGENT:" only when
// AGENT equals `product_token` (case-insensitive; "" : none do).
[[nodiscard]] RobotsDirectives ParseXRobotsTag(std::string_view fields, std::string_view product_token);

// An unavailable_after date as Unix seconds: RFC 822 ("25 Jun 2010
// 15:00:00 PST", with or without a weekday, two- or four-digit year),
// RFC 850 ("Friday, 25-Jun-10 15:00:00 GMT"), asctime, or ISO 8601
// ("2020-09-21", "2020-09-21T15:00:00Z", "...+02:00"). Zones: GMT, UT,
// UTC, Z, the US zones of RFC 822 and +hhmm / +hh:mm offsets; none is UTC.
[[nodiscard]] std::optional<int64_t> ParseDirectiveDate(std::string_view date);

}  // namespace crawl::fetcher
