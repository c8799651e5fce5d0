// How `crawlctl sites` prints the structure order's per-site reports
// (imbWEM's Reporting Engine; crawl.proto SiteReport), gathered from every
// queue server's stats in a CrawlStatus answer. Pure functions.
#pragma once

#include <string>
#include <vector>

#include "proto/crawl.pb.h"

namespace crawl::crawlctl {

// Every queue server's latest reports, newest first.
[[nodiscard]] std::vector<v1::SiteReport> SiteReportsOf(const v1::CrawlStatusResponse& status);

// {"crawl_id":N,"sites_reported":N,"sites":[SiteReport as proto3 JSON, ...]}
// and a newline.
[[nodiscard]] std::string SitesJson(const v1::CrawlStatusResponse& status);
// A header line, then one line per site: site, what ended it, seconds,
// iterations, pages loaded and crawled, targets seen, excluded, dismissed,
// and the last iteration's layer sizes.
[[nodiscard]] std::string SitesText(const v1::CrawlStatusResponse& status);

}  // namespace crawl::crawlctl
