// Frontier::QueueOfHost (frontier.h): what the frontier holds of one host,
// for the console's host page (proto QueueServer.HostQueue). A read-only
// scan: no per-host counters are kept on the hot path, so the queued URLs
// are found by reading the order's queue (bounded by max_scan) and the
// wait lists and open leases, which are in RAM.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/url/url.h"
#include "queueserver/frontier/frontier.h"

namespace crawl::queueserver {
namespace {

// Whether canonical `url` is on `host` (url::HostOf's form). Most queued
// URLs are of other hosts: a substring test rejects them without a parse.
bool OnHost(std::string_view url, std::string_view host) {
  if (url.find(host) == std::string_view::npos) return false;
  if (const std::string_view origin = url::FastOriginOf(url); !origin.empty()) {
    std::string_view h = origin.substr(origin.find("://") + 3);
    return h.substr(0, h.find(':')) == host;
  }
  return url::HostOf(url) == host;
}

}  // namespace

Result<HostQueueCounts> Frontier::QueueOfHost(std::string_view host, uint64_t max_scan, size_t sample) const {
  HostQueueCounts out;
  // The first `sample` URLs of the host in each tier, in the order the
  // order visits them (its hand-out order within a tier).
  std::map<int32_t, std::vector<std::string>> firsts;
  Status read = order_->VisitQueued([&](int32_t tier, const FrontierEntry& e) {
    if (out.scanned >= max_scan) {
      out.truncated = true;  // one more entry was there
      return false;
    }
    ++out.scanned;
    if (!OnHost(e.url, host)) return true;
    ++out.tiers[tier];
    std::vector<std::string>& urls = firsts[tier];
    if (urls.size() < sample) urls.push_back(e.url);
    return true;
  });
  if (!read.ok()) return read;
  for (auto& [tier, urls] : firsts) {
    for (std::string& u : urls) {
      if (out.sample.size() == sample) break;
      out.sample.push_back(std::move(u));
    }
  }
  for (const auto& [origin, state] : origins_) {
    if (state.waiting.empty() && state.record.urls_added == 0 && state.record.over_cap == 0) continue;
    // An origin has no path; OnHost's fast path reads URLs.
    if (!OnHost(origin + "/", host)) continue;
    out.waiting_for_robots += state.waiting.size();
    out.urls_added += state.record.urls_added;
    out.over_host_cap += state.record.over_cap;
  }
  for (const auto& [id, lease] : leases_) {
    for (const auto& [hash, e] : lease.outstanding)
      if (OnHost(e.url, host)) ++out.leased;
  }
  return out;
}

}  // namespace crawl::queueserver
