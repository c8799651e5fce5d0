// CrawlShard's recrawl (issue 21): a fetched page's next visit from the
// crawl's revisit policy (queueserver/revisit_policy.h), the due pages
// (queueserver/due_queue.h) re-entered into the frontier ahead of a lease,
// at most recrawl_share of it, and the due queue rebuilt on load.
#include <spdlog/spdlog.h>

#include <unordered_set>

#include "common/hash.h"
#include "queueserver/crawl_shard.h"

namespace crawl::queueserver {

void CrawlShard::ApplyRecrawlParams(const v1::CrawlParams& p) {
  auto policy = RevisitPolicyFor(p);
  if (!policy.ok()) {
    // Checked at the crawl's start and by the name server; keep what was.
    spdlog::warn("crawl {}: {}", crawl_.crawl_id(), policy.status().message());
    return;
  }
  revisit_policy_ = *policy;
  recrawl_share_percent_ = p.recrawl_share_percent() > 0 ? p.recrawl_share_percent() : 50;
}

void CrawlShard::ScheduleNextVisit(FetchState* state, v1::RevisitKind revisit) {
  if (!revisit_policy_) return;
  const int64_t now_us = clock_->NowUnixMs() * 1000;
  const NextVisit next = ComputeNextVisit(*revisit_policy_, *state, revisit, now_us);
  state->revisit_interval_s = next.interval_s;
  state->next_visit_unix_us = next.next_visit_unix_us;
  due_.Push(next.next_visit_unix_us, state->url);
}

void CrawlShard::ReenterDue(size_t max_urls) {
  if (!revisit_policy_ || due_.empty()) return;
  const int64_t now_ms = clock_->NowUnixMs();
  const size_t share = std::max<size_t>(1, max_urls * recrawl_share_percent_ / 100);
  std::unordered_set<std::string> taken;
  for (auto& [due_us, url] : due_.PopDue(now_ms * 1000, share)) {
    if (!taken.insert(url).second) continue;
    auto state = FetchStateOf(url);
    // The store's next visit is the truth: a heap entry of an older
    // schedule, or of a fetch whose request did not commit, is dropped.
    if (!state.ok() || !*state || (*state)->next_visit_unix_us != due_us) continue;
    FetchState s = std::move(**state);
    s.next_visit_unix_us = 0;  // now in the frontier's (durable) queue
    const uint64_t h = hash::Hash8(url);
    if (writer_) {
      writer_->PutFetchState(h, s);
    } else {
      memory_fetch_state_[h] = s;
    }
    FrontierEntry e;
    e.url = url;
    frontier_.Revisit(std::move(e), now_ms);
  }
}

Status CrawlShard::RebuildDueQueue() {
  due_.clear();
  if (!writer_ || !revisit_policy_) return Status::Ok();
  uint64_t damaged = 0;
  Status s = writer_->ScanFetchStates(
      [&](uint64_t, const FetchState& st) {
        if (st.next_visit_unix_us > 0) due_.Push(st.next_visit_unix_us, st.url);
        return true;
      },
      &damaged);
  if (damaged > 0)
    spdlog::warn("crawl {}: {} damaged fetch states not rescheduled", crawl_.crawl_id(), damaged);
  return s;
}

}  // namespace crawl::queueserver
