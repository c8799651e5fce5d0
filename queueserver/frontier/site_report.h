// imbWEM's Reporting Engine input for the structure order (docs/DESIGN.md §5.4):
// "at the end of a DLC session, before the instance is disposed, metrics
// relevant for the evaluation are sent to the Reporting Engine". A
// SiteReport is that record for one site (host): what its Crawling Context
// (site_frontier.h SiteContext) counted over its session. The queue server
// keeps the last ones in memory and appends every one to the crawl's report
// file as one JSON object a line (queueserver/site_report_log.h). Plain
// values; no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "queueserver/frontier/site_frontier.h"

namespace crawl::queueserver {

struct SiteReport {
  std::string site;             // the origin, "http://host:port"
  std::string end_reason;       // "exhausted", "crawl ended", or an Objective's or control module's name
  int64_t started_unix_ms = 0;  // the session's first iteration (0: no clock)
  int64_t ended_unix_ms = 0;
  uint64_t iterations = 0;
  uint64_t pages_loaded = 0;  // sent to fetch, less those that came back unfetched
  uint64_t pages_crawled = 0;
  uint64_t targets_seen = 0;
  uint64_t excluded = 0;  // exclusions (a target excluded in two iterations counts twice)
  uint64_t dismissed = 0;
  uint64_t targets_left = 0;  // still active when the session ended (excluded ones)
  // The site was reported before and re-opened by links found later (its
  // context and graphs kept): this report supersedes the earlier ones.
  uint64_t report_number = 1;
  std::vector<std::string> layer_names;  // of the first layer module
  // Per iteration, the sizes of those layers.
  std::vector<std::vector<uint32_t>> layer_sizes;
  bool operator==(const SiteReport&) const = default;
};

// The report of `ctx`'s session as it ends at `now_ms`.
[[nodiscard]] SiteReport MakeSiteReport(const SiteContext& ctx, const std::vector<std::string>& layer_names,
                                        std::string end_reason, int64_t now_ms, uint64_t report_number);

}  // namespace crawl::queueserver
