// HTTP-date (RFC 9110 5.6.7) and Retry-After (RFC 9110 10.2.3) parsing.
// Pure functions: the current time is a parameter.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace crawl::fetcher {

// Parses an HTTP-date (RFC 9110 5.6.7) into Unix seconds.
[[nodiscard]] std::optional<int64_t> ParseHttpDate(std::string_view v);

// Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP-date (IMF-fixdate,
// and the obsolete RFC 850 and asctime forms, RFC 9110 5.6.7), as seconds
// from `now_unix_seconds`; a date in the past gives 0. nullopt when the
// value is neither. Large values are capped at UINT32_MAX. Pure.
[[nodiscard]] std::optional<uint32_t> ParseRetryAfter(std::string_view value, int64_t now_unix_seconds);

}  // namespace crawl::fetcher
