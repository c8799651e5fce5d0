// The structure order's finished-site reports for one crawl (imbWEM's
// Reporting Engine): the crawl's end ends every open site session, and the
// reports of ended sessions are filed once the request that ended them is
// committed (queueserver/site_report_log.h keeps and writes them). Under
// the other orders there are no sessions and nothing is filed.
//
// Owned by CrawlShard and, like it, not thread-safe: called under the
// service's lock (queueserver/service.h).
#pragma once

#include <cstdint>
#include <string>

#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/site_report_log.h"

namespace crawl::queueserver {

class FrontierOrder;
class StructureOrder;

class SiteReports {
 public:
  // `order`: the frontier's order (outlives this). Keeps the latest `keep`
  // reports in memory (0: 100).
  SiteReports(FrontierOrder& order, size_t keep);

  // Reports go to `path` too, and the ones it holds come back
  // (SiteReportLog::Open).
  [[nodiscard]] Status Open(std::string path) { return log_.Open(std::move(path)); }
  [[nodiscard]] const SiteReportLog& log() const { return log_; }

  // The crawl ended (`state`): every open site session ends with it.
  void EndSessions(v1::CrawlState state);
  // Files the reports of the sessions that ended; call after the commit
  // that made their end durable. A report that cannot be written is logged
  // (and kept in memory).
  void FileEnded(uint64_t crawl_id);
  void FillStats(v1::QueueServerStats* stats) const { log_.Fill(stats); }

 private:
  StructureOrder* structure_;  // null: not the structure order
  SiteReportLog log_;
};

}  // namespace crawl::queueserver
