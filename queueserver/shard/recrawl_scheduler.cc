#include "queueserver/shard/recrawl_scheduler.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <unordered_set>

#include "common/base/hash.h"

namespace crawl::queueserver {

Result<std::optional<RevisitPolicy>> RecrawlScheduler::PolicyFor(const v1::CrawlParams& p) {
  auto kind = ParseRevisitKind(p.revisit_policy());
  if (!kind.ok()) return kind.status();
  RevisitPolicy policy;
  policy.kind = *kind;
  if (p.revisit_interval_s() > 0) policy.interval_s = p.revisit_interval_s();
  if (Status s = ParseRevisitBounds(p.revisit_bounds(), &policy); !s.ok()) return s;
  if (p.recrawl_share_percent() > 100) return Status::InvalidArgument("recrawl_share_percent above 100");
  if (!p.recrawl()) return std::optional<RevisitPolicy>();
  return std::optional<RevisitPolicy>(policy);
}

RecrawlScheduler::RecrawlScheduler(const Clock* clock, ShardWriter* writer, Frontier& frontier,
                                   uint64_t crawl_id, const v1::CrawlParams& params)
    : clock_(clock), writer_(writer), frontier_(frontier), crawl_id_(crawl_id) {
  // Without a store the due window is the only copy: never drop from it.
  if (!writer_) due_.set_capacity(SIZE_MAX);
  ApplyParams(params);
}

void RecrawlScheduler::ApplyParams(const v1::CrawlParams& p) {
  auto policy = PolicyFor(p);
  if (!policy.ok()) {
    // Checked at the crawl's start and by the name server; keep what was.
    spdlog::warn("crawl {}: {}", crawl_id_, policy.status().message());
    return;
  }
  // optimal: the multiplier outlives a parameter change (solved again).
  const double mu = policy_ ? policy_->optimal_mu : 0;
  policy_ = *policy;
  if (policy_) {
    policy_->optimal_mu = mu;
    if (policy_->kind == RevisitKind::kOptimal) SolveOptimalMu();
  }
  share_percent_ = p.recrawl_share_percent() > 0 ? p.recrawl_share_percent() : 50;
}

Result<std::optional<FetchState>> RecrawlScheduler::FetchStateOf(const std::string& url) {
  const uint64_t h = hash::RecurringHash8(url);
  if (writer_) return writer_->GetFetchState(h, url);
  auto it = memory_fetch_states_.find(h);
  if (it == memory_fetch_states_.end() || it->second.url != url) return std::optional<FetchState>();
  return std::optional<FetchState>(it->second);
}

void RecrawlScheduler::PutFetchState(const std::string& url, FetchState state) {
  const uint64_t h = hash::RecurringHash8(url);
  if (writer_) {
    writer_->PutFetchState(h, state);
  } else {
    memory_fetch_states_[h] = std::move(state);
  }
}

Result<FetchNoted> RecrawlScheduler::NoteFetch(const v1::FetchRecord& r, v1::FetchRecord* logged,
                                               bool requeued) {
  auto previous = FetchStateOf(r.url());
  if (!previous.ok()) {
    // A damaged record is replaced by what this fetch says; a store that
    // cannot be read fails the request (nothing of it is written).
    if (previous.status().code() != StatusCode::kInternal) return previous.status();
    spdlog::warn("crawl {}: {}: {}; starting its fetch history again", crawl_id_, r.url(),
                 previous.status().message());
    previous = std::optional<FetchState>();
  }
  FetchNoted noted;
  noted.refers_to_unix_us = *previous ? (*previous)->content_since_unix_us : 0;
  noted.leaves_search = LeavesSearch(*previous ? (*previous)->last_status : 0, r.status());
  FetchUpdate update = ApplyFetch(*previous, r);
  noted.revisit = update.revisit;
  logged->set_revisit(update.revisit);
  if (update.revisit != v1::REVISIT_NONE) {
    // A 304 confirms the content seen before: the log shows its digest.
    if (!update.state.digest.empty()) logged->set_content_digest(update.state.digest);
    ++revisits_unchanged_;
  }
  if (*previous && update.state.times_changed > (*previous)->times_changed) ++revisits_changed_;
  // The time this revisit covered (the optimal policy's estimate).
  if (*previous && update.state.times_changed + update.state.times_unchanged >
                       (*previous)->times_changed + (*previous)->times_unchanged)
    update.state.observed_us += std::max<int64_t>(0, r.timestamp_unix_us() - (*previous)->last_fetch_unix_us);
  // A page put back after 429/503 is queued already: it gets its next
  // visit when it is fetched.
  if (!requeued) ScheduleNextVisit(&update.state, update.revisit, *previous ? &**previous : nullptr);
  PutFetchState(r.url(), std::move(update.state));
  return noted;
}

void RecrawlScheduler::AttachRevisit(v1::ScheduledUrl* u) {
  auto state = FetchStateOf(u->url());
  if (!state.ok()) {
    // No validators: the page is fetched whole, as a first visit.
    spdlog::warn("crawl {}: {}: {}", crawl_id_, u->url(), state.status().message());
    return;
  }
  if (*state) AttachValidators(**state, u);
}

void RecrawlScheduler::ScheduleNextVisit(FetchState* state, v1::RevisitKind revisit,
                                         const FetchState* previous) {
  if (!policy_) return;
  const int64_t now_us = clock_->NowUnixMs() * 1000;
  if (policy_->kind == RevisitKind::kOptimal) {
    // A page counts once: its former rate leaves when it is scheduled again.
    if (previous && previous->revisit_interval_s > 0)
      change_rates_.Remove(AssumedChangeRate(*policy_, *previous));
    change_rates_.Add(AssumedChangeRate(*policy_, *state));
    if (++rates_since_solve_ >= 64 || policy_->optimal_mu <= 0) SolveOptimalMu();
  }
  const NextVisit next = ComputeNextVisit(*policy_, *state, revisit, now_us);
  state->revisit_interval_s = next.interval_s;
  state->next_visit_unix_us = next.next_visit_unix_us;
  due_.Push(next.next_visit_unix_us, state->url);
}

void RecrawlScheduler::ReenterDue(size_t max_urls) {
  if (!policy_) return;
  const int64_t now_ms = clock_->NowUnixMs();
  // The window ran low and pages due now may be only in the store.
  if (writer_ && due_.NeedsRefill(now_ms * 1000)) {
    ++due_refills_;
    if (Status s = RebuildDueQueue(); !s.ok())
      spdlog::warn("crawl {}: refilling the due pages: {}", crawl_id_, s.message());
  }
  if (due_.empty()) return;
  const size_t share = std::max<size_t>(1, max_urls * share_percent_ / 100);
  std::unordered_set<std::string> taken;
  for (auto& [due_us, url] : due_.PopDue(now_ms * 1000, share)) {
    if (!taken.insert(url).second) continue;
    auto state = FetchStateOf(url);
    // The store's next visit is the truth: a heap entry of an older
    // schedule, or of a fetch whose request did not commit, is dropped.
    if (!state.ok() || !*state || (*state)->next_visit_unix_us != due_us) continue;
    FetchState s = std::move(**state);
    s.next_visit_unix_us = 0;  // now in the frontier's (durable) queue
    PutFetchState(url, std::move(s));
    FrontierEntry e;
    e.url = url;
    frontier_.Revisit(std::move(e), now_ms);
    ++revisits_entered_;
  }
}

void RecrawlScheduler::SolveOptimalMu() {
  rates_since_solve_ = 0;
  if (!policy_ || change_rates_.pages() == 0) return;
  RevisitPolicy& p = *policy_;
  // The budget: every scheduled page once per interval_s on average.
  const double budget = static_cast<double>(change_rates_.pages()) / static_cast<double>(p.interval_s);
  p.optimal_mu = change_rates_.SolveMu(budget, static_cast<double>(p.min_interval_s),
                                       static_cast<double>(p.max_interval_s));
}

Status RecrawlScheduler::RebuildDueQueue() {
  due_.clear();
  change_rates_.Clear();
  if (!writer_ || !policy_) return Status::Ok();
  uint64_t damaged = 0;
  const bool optimal = policy_->kind == RevisitKind::kOptimal;
  Status s = writer_->ScanFetchStates(
      [&](uint64_t, const FetchState& st) {
        if (st.next_visit_unix_us > 0) due_.Push(st.next_visit_unix_us, st.url);
        if (optimal && st.revisit_interval_s > 0) change_rates_.Add(AssumedChangeRate(*policy_, st));
        return true;
      },
      &damaged);
  if (optimal) SolveOptimalMu();
  if (damaged > 0) spdlog::warn("crawl {}: {} damaged fetch states not rescheduled", crawl_id_, damaged);
  return s;
}

void RecrawlScheduler::FillStats(v1::QueueServerStats* stats) const {
  stats->set_due_pages(due_.size());
  stats->set_revisits_entered(revisits_entered_);
  stats->set_revisits_unchanged(revisits_unchanged_);
  stats->set_revisits_changed(revisits_changed_);
  stats->set_due_refills(due_refills_);
}

}  // namespace crawl::queueserver
