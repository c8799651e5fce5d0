// The Frontier's robots.txt state per origin (queueserver/frontier/frontier.h),
// after RFC 9309: the first fetch that gates an origin's pages, and the
// expiry and re-fetch of known rules (section 2.4).
//
// Expiry: rules are due again min(fetched + robots_max_age_ms (24 h), the
// answer's own cache lifetime), never sooner than robots_min_age_ms. A due
// origin is re-fetched when one of its pages comes up for leasing or a new
// URL of it arrives (no scan over all origins); its robots.txt is leased
// before its pages, which meanwhile keep the old rules (2.4 allows the
// cached copy). A re-fetch answered 2xx or 4xx replaces the rules as a first
// fetch would; 5xx or a network error is retried as a first fetch is, and
// then the old rules stay (2.3.1.4 lets a crawler keep its cached copy while
// the file is unreachable) and are tried again after robots_unreachable_ms.
// Deviation: RFC 9309 says nothing about URLs refused under old rules; we
// keep a bounded number of them per origin in memory and let those the new
// rules allow enter (docs/ARCHITECTURE.md, frontier section).
#include <algorithm>

#include "queueserver/frontier/frontier.h"

namespace crawl::queueserver {

int64_t Frontier::RobotsExpiryMs(int64_t now_ms, int64_t expires_unix_s) const {
  int64_t at = now_ms + options_.robots_max_age_ms;
  if (expires_unix_s > 0 && expires_unix_s < at / 1000) at = std::min(at, expires_unix_s * 1000);
  return std::max(at, now_ms + options_.robots_min_age_ms);
}

bool Frontier::RobotsDue(const OriginState& state, int64_t now_ms) {
  const OriginRecord& r = state.record;
  return r.robots == RobotsState::kKnown && !r.robots_refreshing && r.robots_expires_ms <= now_ms;
}

void Frontier::QueueRobotsFetch(const std::string& origin, int64_t /*now_ms*/) {
  OriginState& state = OriginFor(origin);
  // A re-fetch leaves known rules in force until it answers.
  if (state.record.robots == RobotsState::kKnown) {
    state.refresh_queued = true;
  } else {
    state.record.robots = RobotsState::kFetching;
  }
  state.record.retry_pending = false;
  NoteOrigin(origin, state);
  FrontierEntry robots_entry;
  robots_entry.url = origin + "/robots.txt";
  robots_entry.kind = UrlKind::kRobots;
  Queue(QueueKind::kRobots, std::move(robots_entry), /*front=*/false);
}

void Frontier::StartRobotsRefresh(const std::string& origin, OriginState& state, int64_t now_ms) {
  state.record.robots_refreshing = true;
  state.record.robots_failures = 0;
  ++activity_;
  QueueRobotsFetch(origin, now_ms);
}

Frontier::RobotsGate Frontier::GateForRobots(const std::string& origin, OriginState& state,
                                             const FrontierEntry& e, uint64_t draft_id, int64_t now_ms) {
  if (RobotsDue(state, now_ms)) StartRobotsRefresh(origin, state, now_ms);
  // Its robots.txt goes first, and alone.
  if (state.refresh_queued || state.refresh_in == draft_id) return RobotsGate::kSkip;
  // Pages queued before the rules last changed may be disallowed now.
  if (state.record.robots_changes > 0 && !robots::IsAllowedUrl(state.record.rules, e.url))
    return RobotsGate::kDrop;
  return RobotsGate::kTake;
}

void Frontier::RefuseDisallowed(const std::string& origin, OriginState& state, FrontierEntry entry) {
  ++robots_disallowed_;
  ++activity_;
  order_->Dropped(entry);
  if (state.disallowed.size() < options_.robots_recheck_per_origin &&
      recheck_count_ < options_.robots_recheck_total) {
    if (state.disallowed.empty()) recheck_origins_.push_back(origin);
    entry.cash = 0;  // opic: its cash was given back by Dropped
    entry.retries = 0;
    state.disallowed.push_back(std::move(entry));
    ++recheck_count_;
  }
}

void Frontier::RecheckDueRobots(int64_t now_ms) {
  // An origin whose every page the rules refused has nothing left to come
  // up for leasing: without this its robots.txt would never be asked again
  // and the refused URLs never released.
  std::vector<std::string> still;
  for (std::string& origin : recheck_origins_) {
    OriginState& state = OriginFor(origin);
    if (state.disallowed.empty()) continue;
    if (RobotsDue(state, now_ms)) StartRobotsRefresh(origin, state, now_ms);
    still.push_back(std::move(origin));
  }
  recheck_origins_.swap(still);
}

void Frontier::ReleaseNewlyAllowed(OriginState& state) {
  std::vector<FrontierEntry> still;
  for (FrontierEntry& e : state.disallowed) {
    if (robots::IsAllowedUrl(state.record.rules, e.url)) {
      Queue(QueueKind::kPages, std::move(e), /*front=*/false);
    } else {
      still.push_back(std::move(e));
    }
  }
  recheck_count_ -= state.disallowed.size() - still.size();
  state.disallowed = std::move(still);
}

bool Frontier::RobotsFailed(const std::string& origin, OriginState& state, int64_t now_ms) {
  // 5xx or unreachable: retried options_.robots_attempts times in all
  // (RFC 9309 2.3.1.4); meanwhile a first fetch's pages wait and a
  // re-fetch's origin keeps its old rules.
  OriginRecord& r = state.record;
  ++r.robots_failures;
  if (r.robots_failures < options_.robots_attempts) {
    if (!r.retry_pending) robots_retry_.push_back(origin);
    r.robots_retry_at_ms = now_ms + options_.robots_retry_ms;
    r.retry_pending = true;
    NoteOrigin(origin, state);
    return true;
  }
  if (!r.robots_refreshing) return false;  // a first fetch: disallow all
  r.robots_refreshing = false;
  r.robots_expires_ms = now_ms + std::max(options_.robots_min_age_ms, options_.robots_unreachable_ms);
  if (r.retry_pending) {
    r.retry_pending = false;
    robots_retry_.erase(std::remove(robots_retry_.begin(), robots_retry_.end(), origin), robots_retry_.end());
  }
  NoteOrigin(origin, state);
  return true;
}

void Frontier::ApplyRobots(const std::string& origin, const FetchOutcome& outcome, int64_t now_ms) {
  OriginState& state = OriginFor(origin);
  OriginRecord& r = state.record;
  if (r.robots == RobotsState::kKnown && !r.robots_refreshing) return;  // a late duplicate
  const bool refresh = r.robots == RobotsState::kKnown;
  const std::string old_rules = refresh ? r.rules.Serialize() : std::string();
  const int s = outcome.status;
  if (s >= 200 && s < 300) {
    r.rules = robots::Parse(outcome.robots_body, options_.user_agent);
  } else if (s >= 300 && s < 500) {
    // RFC 9309 2.3.1.3: 4xx means no restrictions. The fetcher follows
    // redirects itself; one it could not follow is treated as unavailable
    // in the 4xx sense (RFC 9309 2.3.1.2 allows either reading).
    r.rules = robots::RobotsRules::AllowAll();
  } else {
    if (RobotsFailed(origin, state, now_ms)) return;
    r.rules = robots::RobotsRules::DisallowAll();
  }
  r.robots = RobotsState::kKnown;
  r.robots_refreshing = false;
  r.robots_failures = 0;
  r.robots_fetched_ms = now_ms;
  r.robots_expires_ms = RobotsExpiryMs(now_ms, outcome.expires_unix_s);
  state.refresh_queued = false;
  state.refresh_in = 0;
  if (r.retry_pending) {
    r.retry_pending = false;
    robots_retry_.erase(std::remove(robots_retry_.begin(), robots_retry_.end(), origin), robots_retry_.end());
  }
  const bool changed = refresh && r.rules.Serialize() != old_rules;
  if (changed) ++r.robots_changes;
  NoteOrigin(origin, state);
  if (changed) ReleaseNewlyAllowed(state);
  ReleaseWaiting(origin, state);
}

void Frontier::ReleaseWaiting(const std::string& origin, OriginState& state) {
  waiting_count_ -= state.waiting.size();
  for (auto& e : state.waiting) {
    if (journal_) journal_->WaitRemoved(origin, e.seq);
    if (robots::IsAllowedUrl(state.record.rules, e.entry.url)) {
      Queue(QueueKind::kPages, std::move(e.entry), /*front=*/false);
    } else {
      RefuseDisallowed(origin, state, std::move(e.entry));
    }
  }
  state.waiting.clear();
  state.waiting.shrink_to_fit();
}

}  // namespace crawl::queueserver
