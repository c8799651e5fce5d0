// The name server's status page (docs/DESIGN.md §9):
// /status.json with the active (else latest) crawl, its progress over time,
// one row per queue server and per fetcher, top hosts and recent errors; and
// /status, an HTML page that fetches /status.json every two seconds and
// draws it (tables and SVG charts, no external scripts: the page works on a
// machine without internet). Pure functions of a service snapshot.
#pragma once

#include <cstdint>
#include <string>

#include "nameserver/service.h"

namespace crawl::nameserver {

// Pages and bytes per second of `crawl_id` over the last ~30 s of the
// snapshot's history (0 when it holds another crawl or too few samples).
struct RecentRate {
  double pages_per_second = 0;
  double bytes_per_second = 0;
};
[[nodiscard]] RecentRate RecentRates(const NameServerServiceImpl::Snapshot& snap, uint64_t crawl_id);

// One JSON object. `now_unix_ms` dates the rates.
[[nodiscard]] std::string StatusPageJson(const NameServerServiceImpl::Snapshot& snap, int64_t now_unix_ms);

// The page itself (static; it reads /status.json).
[[nodiscard]] const std::string& StatusPageHtml();
// Its Content-Security-Policy: the page's one style and one script element
// by hash, fetches only from us, nothing else.
[[nodiscard]] const std::string& StatusPageCsp();

}  // namespace crawl::nameserver
