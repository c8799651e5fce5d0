#include "queueserver/frontier/site_report.h"

#include <algorithm>

namespace crawl::queueserver {

SiteReport MakeSiteReport(const SiteContext& ctx, const std::vector<std::string>& layer_names,
                          std::string end_reason, int64_t now_ms, uint64_t report_number) {
  const SiteMetrics& m = ctx.metrics();
  SiteReport r;
  r.site = ctx.host();
  r.end_reason = std::move(end_reason);
  r.started_unix_ms = ctx.started_ms();
  r.ended_unix_ms = now_ms;
  r.iterations = m.iterations;
  r.pages_loaded = m.loaded - std::min(m.loaded, m.returned);
  r.pages_crawled = m.crawled;
  r.targets_seen = m.targets;
  r.excluded = m.excluded;
  r.dismissed = m.dismissed;
  r.targets_left = ctx.active_size();
  r.report_number = report_number;
  r.layer_names = layer_names;
  r.layer_sizes = m.layer_sizes;
  return r;
}

}  // namespace crawl::queueserver
