// Groups a schedule's URLs by host for politeness (fetcher/crawl_worker.h):
// one group is one FetchSequence, so a host has one connection at a time.
// Pure: no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "proto/crawl.pb.h"

namespace crawl::fetcher {

// The URLs of one host (http and https of a host, and every port, share it).
struct HostGroup {
  // The host, or the URL itself when it has none.
  std::string host;
  // In the schedule's order.
  std::vector<std::string> urls;
  // The longest robots.txt Crawl-delay among the URLs (0: none): the
  // group's requests start at least this far apart.
  uint32_t crawl_delay_ms = 0;
  // The largest ScheduledUrl.start_pace_ms among the URLs (0: none): the
  // gap the host's previous sequence ended with, where its pacing starts.
  uint32_t start_pace_ms = 0;
};

struct ScheduleHosts {
  // In order of the hosts' first appearance in the schedule (its robots.txt
  // URLs come first, so their hosts start first).
  std::vector<HostGroup> groups;
  // Every scheduled URL (the first, if one is scheduled twice).
  std::unordered_map<std::string, v1::ScheduledUrl> by_url;
};

[[nodiscard]] ScheduleHosts GroupByHost(const google::protobuf::RepeatedPtrField<v1::ScheduledUrl>& urls);

}  // namespace crawl::fetcher
