// Groups a schedule's URLs by host (see host_groups.h).
#include "fetcher/host_groups.h"

#include <algorithm>

#include "common/url/url.h"

namespace crawl::fetcher {

ScheduleHosts GroupByHost(const google::protobuf::RepeatedPtrField<v1::ScheduledUrl>& urls) {
  ScheduleHosts result;
  std::unordered_map<std::string, size_t> group_index;
  for (const auto& u : urls) {
    std::string host = url::HostOf(u.url());
    const std::string key = host.empty() ? u.url() : std::move(host);
    auto [it, inserted] = group_index.emplace(key, result.groups.size());
    if (inserted) result.groups.push_back(HostGroup{key, {}, 0, 0});
    HostGroup& group = result.groups[it->second];
    group.urls.push_back(u.url());
    group.crawl_delay_ms = std::max(group.crawl_delay_ms, u.crawl_delay_ms());
    group.start_pace_ms = std::max(group.start_pace_ms, u.start_pace_ms());
    result.by_url.emplace(u.url(), u);
  }
  return result;
}

}  // namespace crawl::fetcher
