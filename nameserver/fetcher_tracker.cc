// The fetchers the name server has heard from (fetcher_tracker.h).
#include "nameserver/fetcher_tracker.h"

namespace crawl::nameserver {
namespace {

// What a counter grew by: a smaller value means the fetcher restarted.
uint64_t Growth(uint64_t before, uint64_t now) { return now >= before ? now - before : now; }

void AddGrowth(const v1::FetcherStats& before, const v1::FetcherStats& now, v1::FetcherStats* total) {
  total->set_fetches(total->fetches() + Growth(before.fetches(), now.fetches()));
  total->set_bytes(total->bytes() + Growth(before.bytes(), now.bytes()));
  total->set_schedules(total->schedules() + Growth(before.schedules(), now.schedules()));
  total->set_batches_shipped(total->batches_shipped() +
                             Growth(before.batches_shipped(), now.batches_shipped()));
  total->set_batches_dropped(total->batches_dropped() +
                             Growth(before.batches_dropped(), now.batches_dropped()));
  total->set_fetch_errors(total->fetch_errors() + Growth(before.fetch_errors(), now.fetch_errors()));
  total->set_in_flight(now.in_flight());
}

}  // namespace

void FetcherTracker::Saw(const std::string& id, const v1::FetcherStats& stats) {
  if (id.empty() || id.size() > 256) return;
  MutexLock lock(mu_);
  // Bounded: a misbehaving client inventing ids cannot grow this forever.
  if (fetchers_.size() < 10'000 || fetchers_.count(id)) {
    Seen& f = fetchers_[id];
    f.last_seen_ms = clock_->NowUnixMs();
    if (f.told_crawl != 0) AddGrowth(f.stats, stats, &f.per_crawl[f.told_crawl]);
    f.stats = stats;
  }
}

void FetcherTracker::Told(const std::string& id, uint64_t crawl_id) {
  MutexLock lock(mu_);
  auto it = fetchers_.find(id);
  if (it == fetchers_.end()) return;  // Saw refused it
  Seen& f = it->second;
  f.told_crawl = crawl_id;
  if (crawl_id == 0) return;
  (void)f.per_crawl[crawl_id];
  while (f.per_crawl.size() > kCrawlsKept) f.per_crawl.erase(f.per_crawl.begin());  // the oldest crawl
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

std::vector<FetcherTracker::View> FetcherTracker::ViewsOf(uint64_t crawl_id) const {
  MutexLock lock(mu_);
  const int64_t now = clock_->NowUnixMs();
  std::vector<View> views;
  for (const auto& [id, f] : fetchers_) {
    const auto it = f.per_crawl.find(crawl_id);
    if (it != f.per_crawl.end()) views.push_back({id, now - f.last_seen_ms, it->second});
  }
  return views;
}

}  // namespace crawl::nameserver
