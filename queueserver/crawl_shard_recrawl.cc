// CrawlShard's recrawl: a fetched page's next visit from the
// crawl's revisit policy (queueserver/revisit_policy.h), the due pages
// (queueserver/due_queue.h) re-entered into the frontier ahead of a lease,
// at most recrawl_share of it, and the due queue rebuilt on load.
#include <spdlog/spdlog.h>

#include <unordered_set>

#include "common/base/hash.h"
#include "queueserver/crawl_shard.h"

namespace crawl::queueserver {

void CrawlShard::ApplyRecrawlParams(const v1::CrawlParams& p) {
  auto policy = RevisitPolicyFor(p);
  if (!policy.ok()) {
    // Checked at the crawl's start and by the name server; keep what was.
    spdlog::warn("crawl {}: {}", crawl_.crawl_id(), policy.status().message());
    return;
  }
  // optimal: the multiplier outlives a parameter change (solved again).
  const double mu = revisit_policy_ ? revisit_policy_->optimal_mu : 0;
  revisit_policy_ = *policy;
  if (revisit_policy_) {
    revisit_policy_->optimal_mu = mu;
    if (revisit_policy_->kind == RevisitKind::kOptimal) SolveOptimalMu();
  }
  recrawl_share_percent_ = p.recrawl_share_percent() > 0 ? p.recrawl_share_percent() : 50;
}

void CrawlShard::ScheduleNextVisit(FetchState* state, v1::RevisitKind revisit, const FetchState* previous) {
  if (!revisit_policy_) return;
  const int64_t now_us = clock_->NowUnixMs() * 1000;
  if (revisit_policy_->kind == RevisitKind::kOptimal) {
    // A page counts once: its former rate leaves when it is scheduled again.
    if (previous && previous->revisit_interval_s > 0)
      change_rates_.Remove(AssumedChangeRate(*revisit_policy_, *previous));
    change_rates_.Add(AssumedChangeRate(*revisit_policy_, *state));
    if (++rates_since_solve_ >= 64 || revisit_policy_->optimal_mu <= 0) SolveOptimalMu();
  }
  const NextVisit next = ComputeNextVisit(*revisit_policy_, *state, revisit, now_us);
  state->revisit_interval_s = next.interval_s;
  state->next_visit_unix_us = next.next_visit_unix_us;
  due_.Push(next.next_visit_unix_us, state->url);
}

void CrawlShard::ReenterDue(size_t max_urls) {
  if (!revisit_policy_) return;
  const int64_t now_ms = clock_->NowUnixMs();
  // The window ran low and pages due now may be only in the store.
  if (writer_ && due_.NeedsRefill(now_ms * 1000)) {
    ++due_refills_;
    if (Status s = RebuildDueQueue(); !s.ok())
      spdlog::warn("crawl {}: refilling the due pages: {}", crawl_.crawl_id(), s.message());
  }
  if (due_.empty()) return;
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
    const uint64_t h = hash::RecurringHash8(url);
    if (writer_) {
      writer_->PutFetchState(h, s);
    } else {
      memory_fetch_state_[h] = s;
    }
    FrontierEntry e;
    e.url = url;
    frontier_.Revisit(std::move(e), now_ms);
    ++revisits_entered_;
  }
}

void CrawlShard::SolveOptimalMu() {
  rates_since_solve_ = 0;
  if (!revisit_policy_ || change_rates_.pages() == 0) return;
  RevisitPolicy& p = *revisit_policy_;
  // The budget: every scheduled page once per interval_s on average.
  const double budget = static_cast<double>(change_rates_.pages()) / static_cast<double>(p.interval_s);
  p.optimal_mu = change_rates_.SolveMu(budget, static_cast<double>(p.min_interval_s),
                                       static_cast<double>(p.max_interval_s));
}

Status CrawlShard::RebuildDueQueue() {
  due_.clear();
  change_rates_.Clear();
  if (!writer_ || !revisit_policy_) return Status::Ok();
  uint64_t damaged = 0;
  const bool optimal = revisit_policy_->kind == RevisitKind::kOptimal;
  Status s = writer_->ScanFetchStates(
      [&](uint64_t, const FetchState& st) {
        if (st.next_visit_unix_us > 0) due_.Push(st.next_visit_unix_us, st.url);
        if (optimal && st.revisit_interval_s > 0) change_rates_.Add(AssumedChangeRate(*revisit_policy_, st));
        return true;
      },
      &damaged);
  if (optimal) SolveOptimalMu();
  if (damaged > 0)
    spdlog::warn("crawl {}: {} damaged fetch states not rescheduled", crawl_.crawl_id(), damaged);
  return s;
}

}  // namespace crawl::queueserver
