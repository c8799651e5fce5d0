// Conditional GET/HEAD for the change model: whether a request's
// preconditions say "not modified" (RFC 9110 section 13.1.2 If-None-Match,
// 13.1.3 If-Modified-Since, evaluated in the order of section 13.2.2).
// Deliberate simplifications: If-Match, If-Unmodified-Since and If-Range
// are not evaluated (testweb pages are never written to); If-Modified-Since
// only in IMF-fixdate form (the obsolete forms make the request
// unconditional, which the RFC allows a recipient to do with a date it
// cannot parse).
#pragma once

#include <cstdint>
#include <string_view>

namespace crawl::testweb {

// Whether If-None-Match (a comma-separated list of entity tags, or "*")
// matches `etag` by the weak comparison of RFC 9110 section 8.8.3.2 (W/
// prefixes are ignored), as 13.1.2 requires for GET and HEAD.
[[nodiscard]] bool IfNoneMatchMatches(std::string_view header, std::string_view etag);

// True when a GET/HEAD with these header values (empty: absent) is to be
// answered 304: If-None-Match present and matching; or, only when
// If-None-Match is absent, If-Modified-Since a valid date at or after
// `last_modified` (seconds after the epoch of change_model.h, cut to whole
// seconds as Last-Modified shows it).
[[nodiscard]] bool NotModified(std::string_view if_none_match, std::string_view if_modified_since,
                               std::string_view etag, double last_modified);

}  // namespace crawl::testweb
