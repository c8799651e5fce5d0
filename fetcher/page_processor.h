// Turns one fetch outcome into what the queue servers need: the crawl-log
// record and the links found (DESIGN.md section 6, foundation subset):
// MIME type -> processor; for HTML, links from a/area/frame/iframe/img
// resolved against the URL and any <base href>, canonicalised, http(s)
// only, rel=nofollow and robots-meta nofollow honoured, at most
// `max_links` distinct links in page order; a redirect's target is a link.
//
// Pure: no I/O. Thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fetcher/http_fetcher.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

struct ProcessedPage {
  v1::FetchRecord record;
  std::vector<v1::DiscoveredLink> links;
};

struct ProcessOptions {
  uint32_t max_links = 300;
  // robots.txt bodies beyond this are cut (RFC 9309 section 2.5: 500 KiB).
  size_t max_robots_bytes = 500 * 1024;
};

// True for media types the HTML processor handles.
[[nodiscard]] bool IsHtmlMime(const std::string& mime);

// REQUIRES: result.url == scheduled.url().
[[nodiscard]] ProcessedPage ProcessFetch(const v1::ScheduledUrl& scheduled, const FetchResult& result,
                                         const ProcessOptions& options);

}  // namespace crawl::fetcher
