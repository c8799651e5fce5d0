// Text pieces that the name server's status page and crawlctl both print:
// JSON string literals, ISO 8601 times and crawl state names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "proto/crawl.pb.h"

namespace crawl {

// "running", "stopped", "done" or "unknown".
[[nodiscard]] std::string StateName(v1::CrawlState state);

// JSON string literal for `s` (quotes included; control and non-ASCII-safe
// escaping; invalid UTF-8 bytes become U+FFFD).
[[nodiscard]] std::string JsonString(std::string_view s);

// ISO 8601 UTC with microseconds: 2026-11-22T17:04:41.123456Z.
[[nodiscard]] std::string Iso8601Micros(int64_t unix_us);

}  // namespace crawl
