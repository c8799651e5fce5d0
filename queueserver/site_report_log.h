// The queue server's side of imbWEM's Reporting Engine for one crawl: the
// structure order's finished-site reports (queueserver/frontier/site_report.h)
// go to the crawl's report file, DATA_DIR/reports/crawl-<id>-sites.jsonl, one
// JSON object a line (the proto3 JSON form of crawl.v1.SiteReport, field
// names as in crawl.proto; 64-bit times as strings), and the latest ones stay
// in memory for the stats (QueueServerStats.site_reports). A site reported
// again (re-opened by later links) has a newer line; readers take the last
// line of a site. Not thread-safe: the shard's owner serialises calls.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/frontier/site_report.h"

namespace crawl::queueserver {

// The wire form of a report.
[[nodiscard]] v1::SiteReport SiteReportToProto(const SiteReport& r);

class SiteReportLog {
 public:
  // Keeps the latest `keep` reports in memory (0: 100).
  explicit SiteReportLog(size_t keep);
  // Reports are appended to `path` from now on; the latest ones it already
  // holds (a restart) are read back. A line that does not parse is skipped.
  // kIoError when the file exists and cannot be read.
  [[nodiscard]] Status Open(std::string path);
  // Files the reports (oldest first). kIoError when the file cannot be
  // written; the reports are still kept in memory.
  [[nodiscard]] Status Add(const std::vector<SiteReport>& reports);
  // The latest reports, newest first, and the count written. In memory a
  // report keeps its last 20 iterations' layer sizes (the file has all).
  void Fill(v1::QueueServerStats* stats) const;
  [[nodiscard]] uint64_t total() const { return total_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  void Remember(v1::SiteReport r);

  size_t keep_;
  std::string path_;
  std::deque<v1::SiteReport> recent_;  // oldest first
  uint64_t total_ = 0;
};

}  // namespace crawl::queueserver
