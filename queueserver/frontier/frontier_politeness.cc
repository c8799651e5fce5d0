// The frontier's politeness view (frontier.h: PolitenessOfHost,
// CountBackoffs, TopPaces): what fetchers report of each origin
// (origin_pace.h, RAM only) and the back-off the frontier applies
// (host_backoff.h), for the console's host page (QueueServer.HostQueue
// 11-17) and the queue server's /metrics.
#include <algorithm>
#include <string>
#include <string_view>

#include "queueserver/frontier/frontier.h"

namespace crawl::queueserver {
namespace {

// The host of an origin ("https://a.example:8443" -> "a.example",
// "http://[::1]:80" -> "[::1]"), as url::HostOf gives it.
std::string_view HostOfOrigin(std::string_view origin) {
  const size_t scheme = origin.find("://");
  std::string_view h = scheme == std::string_view::npos ? origin : origin.substr(scheme + 3);
  if (!h.empty() && h.front() == '[') return h.substr(0, h.find(']') + 1);
  return h.substr(0, h.find(':'));
}

}  // namespace

void Frontier::NotePoliteness(const std::string& origin, OriginState& state, const FetchOutcome& outcome,
                              int64_t now_ms) {
  state.pace.Note(outcome.remote_ip, outcome.pace_ms, outcome.fetch_ms, outcome.status, now_ms);
  pace_board_.Note(HostOfOrigin(origin), state.pace.pace_ms(), state.pace.MedianMs(), now_ms);
}

HostPoliteness Frontier::PolitenessOfHost(std::string_view host, int64_t now_ms) const {
  HostPoliteness out;
  uint32_t freshest = 0;
  for (const auto& [origin, state] : origins_) {
    if (HostOfOrigin(origin) != host) continue;
    if (state.leased_by != 0) out.leased_now = true;
    const OriginPace& pace = state.pace;
    if (pace.known() && pace.last_s() >= freshest) {
      freshest = pace.last_s();
      out.pace_ms = pace.pace_ms();
      out.address = pace.Address();
      out.recent_fetch_ms = pace.Recent();
    }
    const OriginRecord& r = state.record;
    out.consecutive_failures = std::max(out.consecutive_failures, r.failures);
    if (r.backoff_until_ms > now_ms && r.backoff_until_ms > out.backoff_until_ms) {
      out.backoff_until_ms = r.backoff_until_ms;
      out.parked = r.parked;
    }
  }
  return out;
}

BackoffCounts Frontier::CountBackoffs(int64_t now_ms) {
  BackoffCounts out;
  for (auto it = backed_off_.begin(); it != backed_off_.end();) {
    const auto found = origins_.find(*it);
    if (found == origins_.end() || found->second.record.backoff_until_ms <= now_ms) {
      it = backed_off_.erase(it);  // over: Backoff adds it again on its next failure
      continue;
    }
    ++out.backing_off;
    if (found->second.record.parked) ++out.parked;
    ++it;
  }
  return out;
}

}  // namespace crawl::queueserver
