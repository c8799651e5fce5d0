// Times for the crawl log's filters (GetCrawlLogRequest since/until), as
// people type them: "2026-11-25", "2026-11-25T12:00:00Z" (with an optional
// fraction of a second), or Unix seconds ("1764072000"). Used by crawlctl
// log's --since/--until and the console's log page. Pure.
#pragma once

#include <cstdint>
#include <string>

#include "common/base/status.h"

namespace crawl {

// Unix microseconds; InvalidArgument naming the accepted forms otherwise.
[[nodiscard]] Result<int64_t> ParseLogTime(const std::string& text);

}  // namespace crawl
