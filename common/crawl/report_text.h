// Text pieces that the name server's status page and crawlctl both print:
// ISO 8601 times and crawl state names (JSON itself: common/base/json.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "proto/crawl.pb.h"

namespace crawl {

// "running", "stopped", "done" or "unknown".
[[nodiscard]] std::string StateName(v1::CrawlState state);

// ISO 8601 UTC with microseconds: 2026-11-22T17:04:41.123456Z.
[[nodiscard]] std::string Iso8601Micros(int64_t unix_us);

}  // namespace crawl
