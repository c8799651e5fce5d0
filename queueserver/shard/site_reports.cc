#include "queueserver/shard/site_reports.h"

#include <spdlog/spdlog.h>

#include "queueserver/frontier/structure_order.h"

namespace crawl::queueserver {

SiteReports::SiteReports(FrontierOrder& order, size_t keep)
    : structure_(dynamic_cast<StructureOrder*>(&order)), log_(keep) {}

void SiteReports::EndSessions(v1::CrawlState state) {
  if (structure_) structure_->EndSessions(state == v1::CRAWL_STATE_STOPPED ? "crawl stopped" : "crawl ended");
}

void SiteReports::FileEnded(uint64_t crawl_id) {
  if (!structure_) return;
  if (Status s = log_.Add(structure_->TakeReports()); !s.ok())
    spdlog::warn("crawl {}: {}", crawl_id, s.message());
}

}  // namespace crawl::queueserver
