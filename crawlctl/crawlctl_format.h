// How crawlctl prints things: status as text or JSON, progress lines, crawl
// and server lists, and the crawl log's tab-separated lines. Pure functions,
// unit-tested, so scripts can rely on the formats.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/crawl/report_text.h"
#include "proto/crawl.pb.h"

namespace crawl::crawlctl {

using crawl::Iso8601Micros;  // common/crawl/report_text.h
using crawl::StateName;

// One JSON object (and a newline) with at least crawl_id, state,
// pages_fetched, frontier_size, and per queue server numbers.
[[nodiscard]] std::string StatusJson(const v1::CrawlStatusResponse& status);
[[nodiscard]] std::string StatusText(const v1::CrawlStatusResponse& status);
// "crawl 123 running  pages 1200  4.0 pages/s  frontier 345  ..." (no newline).
[[nodiscard]] std::string ProgressLine(const v1::CrawlStatusResponse& status, double pages_per_second);
// For a terminal: "[#######.............]  35%  " when the crawl has a page
// budget (pages fetched / max_pages), else "[   <=>   ]" moving with `tick`;
// then the progress line with MB/s.
[[nodiscard]] std::string ProgressBarLine(const v1::CrawlStatusResponse& status, double pages_per_second,
                                          double bytes_per_second, uint64_t tick, int bar_width = 24);

[[nodiscard]] std::string CrawlListJson(const v1::ListCrawlsResponse& list);
[[nodiscard]] std::string CrawlListText(const v1::ListCrawlsResponse& list);
[[nodiscard]] std::string ServersJson(const v1::ListQueueServersResponse& servers);
[[nodiscard]] std::string ServersText(const v1::ListQueueServersResponse& servers);

// One crawl-log line, tab-separated: timestamp, status, bytes, URL, referrer,
// MIME type, fetch milliseconds, content digest; and a ninth field only on
// a revisit of unchanged content: "not-modified" (a 304 to a conditional
// request) or "unchanged" (a 2xx with the last fetch's digest); then, for a
// near-duplicate, "near-duplicate-of URL" (its cluster's first page). Empty fields
// print as "-"; tabs and newlines inside fields become spaces.
[[nodiscard]] std::string LogLine(const v1::FetchRecord& record);

}  // namespace crawl::crawlctl
