#include "queueserver/site_report_log.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>

namespace crawl::queueserver {
namespace {

constexpr int kStatsIterations = 20;

uint32_t Clamp(uint64_t v) {
  return static_cast<uint32_t>(std::min<uint64_t>(v, std::numeric_limits<uint32_t>::max()));
}

}  // namespace

v1::SiteReport SiteReportToProto(const SiteReport& r) {
  v1::SiteReport p;
  p.set_site(r.site);
  p.set_end_reason(r.end_reason);
  p.set_started_unix_ms(r.started_unix_ms);
  p.set_ended_unix_ms(r.ended_unix_ms);
  if (r.started_unix_ms > 0 && r.ended_unix_ms >= r.started_unix_ms)
    p.set_seconds(static_cast<double>(r.ended_unix_ms - r.started_unix_ms) / 1000.0);
  p.set_iterations(Clamp(r.iterations));
  p.set_pages_loaded(Clamp(r.pages_loaded));
  p.set_pages_crawled(Clamp(r.pages_crawled));
  p.set_targets_seen(Clamp(r.targets_seen));
  p.set_excluded(Clamp(r.excluded));
  p.set_dismissed(Clamp(r.dismissed));
  p.set_targets_left(Clamp(r.targets_left));
  p.set_report_number(Clamp(r.report_number));
  for (const std::string& n : r.layer_names) p.add_layer_names(n);
  for (const auto& row : r.layer_sizes) {
    auto* l = p.add_layer_sizes();
    for (uint32_t v : row) l->add_sizes(v);
  }
  return p;
}

SiteReportLog::SiteReportLog(size_t keep) : keep_(keep == 0 ? 100 : keep) {}

Status SiteReportLog::Open(std::string path) {
  path_ = std::move(path);
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) return Status::Ok();
  std::ifstream in(path_);
  if (!in) return Status::IoError("cannot read site reports '" + path_ + "'");
  std::string line;
  while (std::getline(in, line)) {
    v1::SiteReport r;
    if (!google::protobuf::util::JsonStringToMessage(line, &r).ok()) continue;  // a torn last line
    ++total_;
    Remember(std::move(r));
  }
  return Status::Ok();
}

void SiteReportLog::Remember(v1::SiteReport r) {
  // One report per site: the newer one replaces the older.
  recent_.erase(std::remove_if(recent_.begin(), recent_.end(),
                               [&](const v1::SiteReport& old) { return old.site() == r.site(); }),
                recent_.end());
  // Memory and stats keep the last iterations only; the file has them all.
  const int extra = r.layer_sizes_size() - kStatsIterations;
  if (extra > 0) {
    r.mutable_layer_sizes()->DeleteSubrange(0, extra);
    r.set_layer_sizes_omitted(r.layer_sizes_omitted() + static_cast<uint32_t>(extra));
  }
  recent_.push_back(std::move(r));
  while (recent_.size() > keep_) recent_.pop_front();
}

Status SiteReportLog::Add(const std::vector<SiteReport>& reports) {
  if (reports.empty()) return Status::Ok();
  std::string lines;
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  for (const SiteReport& r : reports) {
    v1::SiteReport p = SiteReportToProto(r);
    std::string json;
    if (google::protobuf::util::MessageToJsonString(p, &json, options).ok()) lines += json + "\n";
    ++total_;
    Remember(std::move(p));
  }
  if (path_.empty()) return Status::Ok();
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
  std::ofstream out(path_, std::ios::app);
  out << lines;
  out.flush();
  if (!out) return Status::IoError("cannot append to site reports '" + path_ + "'");
  return Status::Ok();
}

void SiteReportLog::Fill(v1::QueueServerStats* stats) const {
  stats->set_sites_reported(total_);
  for (auto it = recent_.rbegin(); it != recent_.rend(); ++it) *stats->add_site_reports() = *it;
}

}  // namespace crawl::queueserver
