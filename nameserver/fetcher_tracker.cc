// The fetchers the name server has heard from (fetcher_tracker.h).
#include "nameserver/fetcher_tracker.h"

namespace crawl::nameserver {

void FetcherTracker::Saw(const std::string& id, const v1::FetcherStats& stats) {
  if (id.empty() || id.size() > 256) return;
  MutexLock lock(mu_);
  // Bounded: a misbehaving client inventing ids cannot grow this forever.
  if (fetchers_.size() < 10'000 || fetchers_.count(id)) {
    Seen& f = fetchers_[id];
    f.last_seen_ms = clock_->NowUnixMs();
    f.stats = stats;
  }
}

size_t FetcherTracker::LiveCount(std::chrono::milliseconds timeout) const {
  MutexLock lock(mu_);
  const int64_t now = clock_->NowUnixMs();
  size_t live = 0;
  for (const auto& [id, f] : fetchers_)
    if (now - f.last_seen_ms <= timeout.count()) ++live;
  return live;
}

std::vector<FetcherTracker::View> FetcherTracker::Views() const {
  MutexLock lock(mu_);
  const int64_t now = clock_->NowUnixMs();
  std::vector<View> views;
  for (const auto& [id, f] : fetchers_) views.push_back({id, now - f.last_seen_ms, f.stats});
  return views;
}

}  // namespace crawl::nameserver
