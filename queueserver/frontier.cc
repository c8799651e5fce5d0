#include "queueserver/frontier.h"

#include <algorithm>

#include "common/hash.h"
#include "common/url.h"

namespace crawl::queueserver {

Frontier::Frontier(FrontierOptions options) : options_(std::move(options)) {}

Frontier::OriginState& Frontier::OriginFor(const std::string& origin) { return origins_[origin]; }

bool Frontier::Add(const FrontierEntry& entry, int64_t now_ms) {
  // 8-byte URL hash: with n URLs the chance of any collision is about
  // n^2 / 2^65 (3e-8 at a million URLs), the price of a fixed-size key.
  if (!seen_.insert(hash::Hash8(entry.url)).second) return false;
  ++activity_;
  auto origin = url::OriginOf(entry.url);
  if (!origin.ok()) return true;  // cannot be fetched; seen so it is not offered again
  OriginState& state = OriginFor(*origin);
  switch (state.robots) {
    case RobotsState::kKnown:
      if (robots::IsAllowedUrl(state.rules, entry.url)) {
        ready_.push_back(entry);
      } else {
        ++robots_disallowed_;
      }
      break;
    case RobotsState::kUnknown:
      state.waiting.push_back(entry);
      ++waiting_count_;
      QueueRobotsFetch(*origin, now_ms);
      break;
    case RobotsState::kFetching:
      state.waiting.push_back(entry);
      ++waiting_count_;
      break;
  }
  return true;
}

void Frontier::QueueRobotsFetch(const std::string& origin, int64_t now_ms) {
  OriginState& state = OriginFor(origin);
  state.robots = RobotsState::kFetching;
  FrontierEntry robots_entry;
  robots_entry.url = origin + "/robots.txt";
  robots_entry.kind = UrlKind::kRobots;
  robots_ready_.push_back(std::move(robots_entry));
}

Schedule Frontier::Lease(const std::string& fetcher_id, size_t max_urls, int64_t now_ms, size_t max_pages) {
  Tick(now_ms);
  Schedule schedule;
  if (max_urls == 0 || (robots_ready_.empty() && ready_.empty())) return schedule;

  const uint64_t id = next_schedule_id_;
  OpenLease lease;
  lease.fetcher_id = fetcher_id;
  lease.deadline_ms = now_ms + options_.lease_ms;

  auto take = [&](FrontierEntry&& e, const std::string& origin) {
    OriginState& st = OriginFor(origin);
    if (st.leased_by != id) {
      st.leased_by = id;
      lease.origins.push_back(origin);
    }
    schedule.entries.push_back(e);
    lease.outstanding.emplace(e.url, std::move(e));
  };

  // robots.txt first: each is its origin's only URL in flight.
  while (!robots_ready_.empty() && schedule.entries.size() < max_urls) {
    FrontierEntry e = std::move(robots_ready_.front());
    robots_ready_.pop_front();
    auto origin = url::OriginOf(e.url);
    take(std::move(e), origin.ok() ? *origin : std::string());
  }

  // Pages in FIFO order; entries of origins held by another schedule are set
  // aside and go back to the front in their original order.
  std::deque<FrontierEntry> skipped;
  size_t scanned = 0;
  size_t pages = 0;
  while (!ready_.empty() && schedule.entries.size() < max_urls && pages < max_pages &&
         scanned < options_.lease_scan_limit) {
    FrontierEntry e = std::move(ready_.front());
    ready_.pop_front();
    ++scanned;
    auto origin = url::OriginOf(e.url);
    const std::string key = origin.ok() ? *origin : std::string();
    const OriginState& st = OriginFor(key);
    if (st.leased_by != 0 && st.leased_by != id) {
      skipped.push_back(std::move(e));
      continue;
    }
    take(std::move(e), key);
    ++pages;
  }
  while (!skipped.empty()) {
    ready_.push_front(std::move(skipped.back()));
    skipped.pop_back();
  }

  if (schedule.entries.empty()) return schedule;
  ++next_schedule_id_;
  ++activity_;
  schedule.id = id;
  schedule.lease_deadline_ms = lease.deadline_ms;
  leased_count_ += lease.outstanding.size();
  leases_.emplace(id, std::move(lease));
  return schedule;
}

void Frontier::Report(uint64_t schedule_id, const FetchOutcome& outcome, int64_t now_ms) {
  ++activity_;
  auto it = leases_.find(schedule_id);
  if (it != leases_.end()) {
    if (it->second.outstanding.erase(outcome.url) > 0) --leased_count_;
  }
  if (outcome.kind == UrlKind::kRobots) {
    auto origin = url::OriginOf(outcome.url);
    if (origin.ok()) ApplyRobots(*origin, outcome, now_ms);
  }
}

void Frontier::ApplyRobots(const std::string& origin, const FetchOutcome& outcome, int64_t now_ms) {
  OriginState& state = OriginFor(origin);
  if (state.robots == RobotsState::kKnown) return;  // a late duplicate
  const int s = outcome.status;
  if (s >= 200 && s < 300) {
    state.rules = robots::Parse(outcome.robots_body, options_.user_agent);
  } else if (s >= 300 && s < 500) {
    // RFC 9309 2.3.1.3: 4xx means no restrictions. The fetcher follows
    // redirects itself; one it could not follow is treated as unavailable
    // in the 4xx sense (RFC 9309 2.3.1.2 allows either reading).
    state.rules = robots::RobotsRules::AllowAll();
  } else {
    // 5xx or unreachable: complete disallow for now (RFC 9309 2.3.1.4); try
    // again later, and give up after options_.robots_attempts.
    ++state.robots_failures;
    if (state.robots_failures < options_.robots_attempts) {
      state.robots_retry_at_ms = now_ms + options_.robots_retry_ms;
      robots_retry_.push_back(origin);
      return;  // pages keep waiting
    }
    state.rules = robots::RobotsRules::DisallowAll();
  }
  state.robots = RobotsState::kKnown;
  ReleaseWaiting(state);
}

void Frontier::ReleaseWaiting(OriginState& state) {
  waiting_count_ -= state.waiting.size();
  for (auto& e : state.waiting) {
    if (robots::IsAllowedUrl(state.rules, e.url)) {
      ready_.push_back(std::move(e));
    } else {
      ++robots_disallowed_;
    }
  }
  state.waiting.clear();
  state.waiting.shrink_to_fit();
}

void Frontier::Complete(uint64_t schedule_id, int64_t now_ms) {
  EndLease(schedule_id, /*put_back=*/true);
  Tick(now_ms);
}

void Frontier::EndLease(uint64_t schedule_id, bool put_back) {
  auto it = leases_.find(schedule_id);
  if (it == leases_.end()) return;
  ++activity_;
  OpenLease& lease = it->second;
  for (const std::string& origin : lease.origins) {
    OriginState& st = OriginFor(origin);
    if (st.leased_by == schedule_id) st.leased_by = 0;
  }
  leased_count_ -= lease.outstanding.size();
  if (put_back) {
    // Unreported URLs go back to the front, robots.txt to its own queue.
    std::vector<FrontierEntry> back;
    for (auto& [u, e] : lease.outstanding) back.push_back(std::move(e));
    std::sort(back.begin(), back.end(),
              [](const FrontierEntry& a, const FrontierEntry& b) { return a.url > b.url; });
    for (auto& e : back) {
      if (e.kind == UrlKind::kRobots) {
        robots_ready_.push_front(std::move(e));
      } else {
        ready_.push_front(std::move(e));
      }
    }
  }
  leases_.erase(it);
}

void Frontier::Tick(int64_t now_ms) {
  std::vector<uint64_t> expired;
  for (const auto& [id, lease] : leases_) {
    if (lease.deadline_ms <= now_ms) expired.push_back(id);
  }
  for (uint64_t id : expired) EndLease(id, /*put_back=*/true);

  if (!robots_retry_.empty()) {
    std::vector<std::string> still_waiting;
    for (const std::string& origin : robots_retry_) {
      OriginState& st = OriginFor(origin);
      if (st.robots_retry_at_ms <= now_ms) {
        QueueRobotsFetch(origin, now_ms);
        ++activity_;
      } else {
        still_waiting.push_back(origin);
      }
    }
    robots_retry_.swap(still_waiting);
  }
}

bool Frontier::Idle() const {
  return ready_.empty() && robots_ready_.empty() && waiting_count_ == 0 && leases_.empty();
}

FrontierCounters Frontier::Counters() const {
  FrontierCounters c;
  c.frontier_size = ready_.size() + robots_ready_.size() + waiting_count_;
  c.leased_urls = leased_count_;
  c.outstanding_schedules = leases_.size();
  c.urls_seen = seen_.size();
  c.hosts = origins_.size();
  c.robots_disallowed = robots_disallowed_;
  c.activity = activity_;
  return c;
}

}  // namespace crawl::queueserver
