#include "crawlctl/site_report_format.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "common/base/json.h"

namespace crawl::crawlctl {

std::vector<v1::SiteReport> SiteReportsOf(const v1::CrawlStatusResponse& status) {
  std::vector<v1::SiteReport> out;
  for (const auto& qs : status.queue_servers())
    out.insert(out.end(), qs.site_reports().begin(), qs.site_reports().end());
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.ended_unix_ms() > b.ended_unix_ms(); });
  return out;
}

namespace {

uint64_t SitesReported(const v1::CrawlStatusResponse& status) {
  uint64_t n = 0;
  for (const auto& qs : status.queue_servers()) n += qs.sites_reported();
  return n;
}

}  // namespace

std::string SitesJson(const v1::CrawlStatusResponse& status) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  boost::json::array sites;
  for (const auto& r : SiteReportsOf(status)) {
    // Each report in protobuf's own JSON mapping (a library too), read
    // back to sit in the one object Boost.JSON prints.
    std::string json;
    if (!google::protobuf::util::MessageToJsonString(r, &json, options).ok()) continue;
    boost::json::error_code ec;
    boost::json::value site = boost::json::parse(json, ec);
    if (!ec) sites.push_back(std::move(site));
  }
  return JsonLine(boost::json::object{{"crawl_id", status.crawl().crawl_id()},
                                      {"sites_reported", SitesReported(status)},
                                      {"sites", std::move(sites)}});
}

std::string SitesText(const v1::CrawlStatusResponse& status) {
  std::ostringstream o;
  const auto reports = SiteReportsOf(status);
  o << "crawl " << status.crawl().crawl_id() << ": " << SitesReported(status) << " site sessions reported";
  if (reports.empty()) return o.str() + " (the structure order reports a site when its session ends)\n";
  o << ", latest first\n";
  o << "site\tended by\tseconds\titerations\tloaded\tcrawled\ttargets\texcluded\tdismissed\tlast layers\n";
  for (const auto& r : reports) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f", r.seconds());
    std::string layers;
    if (r.layer_sizes_size() > 0) {
      const auto& last = r.layer_sizes(r.layer_sizes_size() - 1);
      for (int j = 0; j < last.sizes_size(); ++j) {
        const std::string name = j < r.layer_names_size() ? r.layer_names(j) + " " : "";
        layers += (j ? ", " : "") + name + std::to_string(last.sizes(j));
      }
    }
    o << r.site() << "\t" << r.end_reason() << "\t" << secs << "\t" << r.iterations() << "\t"
      << r.pages_loaded() << "\t" << r.pages_crawled() << "\t" << r.targets_seen() << "\t" << r.excluded()
      << "\t" << r.dismissed() << "\t" << (layers.empty() ? "-" : layers) << "\n";
  }
  return o.str();
}

}  // namespace crawl::crawlctl
