// The monitor of the active crawl (crawl_monitor.h).
#include "nameserver/crawl_monitor.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "nameserver/nameserver_metrics.h"

namespace crawl::nameserver {

std::map<std::string, uint64_t> SharePageBudget(const v1::CrawlInfo& crawl,
                                                const std::map<std::string, v1::QueueServerStats>& last) {
  std::map<std::string, uint64_t> caps;
  const uint64_t budget = crawl.params().max_pages();
  if (budget == 0) return caps;
  uint64_t committed = 0;
  for (const auto& [id, st] : last) committed += st.pages_fetched() + st.leased_urls();
  const uint64_t left = budget > committed ? budget - committed : 0;
  const uint64_t n = static_cast<uint64_t>(crawl.queue_servers_size());
  for (const auto& qs : crawl.queue_servers()) {
    auto it = last.find(qs.id());
    const uint64_t mine = it == last.end() ? 0 : it->second.pages_fetched() + it->second.leased_urls();
    caps[qs.id()] = mine + (left + n - 1) / n;
  }
  return caps;
}

CrawlMonitor::CrawlMonitor(std::chrono::milliseconds poll_interval, std::chrono::milliseconds member_timeout,
                           const Clock* clock, CrawlRegistry* registry, const QueueServerFleet* fleet,
                           const FetcherTracker* fetchers)
    : poll_interval_(poll_interval),
      member_timeout_(member_timeout),
      clock_(clock),
      registry_(registry),
      fleet_(fleet),
      fetchers_(fetchers) {}

CrawlMonitor::~CrawlMonitor() { Stop(); }

void CrawlMonitor::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void CrawlMonitor::Stop() {
  {
    MutexLock lock(thread_mu_);
    stop_ = true;
  }
  thread_cv_.NotifyAll();
  if (thread_.joinable()) thread_.join();
}

void CrawlMonitor::Watch(uint64_t crawl_id, uint64_t max_pages, bool continuous) {
  MutexLock lock(mu_);
  detector_ = std::make_unique<CompletionDetector>(max_pages, continuous);
  detector_crawl_ = crawl_id;
}

void CrawlMonitor::Loop() {
  for (;;) {
    PollActiveCrawl();
    UpdateGauges();
    // Pending deletes (crawlctl delete, rolled-back starts): a few seconds
    // apart, so a queue server refusing them does not slow the polls.
    if (const int64_t now = clock_->NowUnixMs(); now - last_delete_retry_ms_ >= kDeleteRetryMs) {
      last_delete_retry_ms_ = now;
      RetryPendingDeletes();
    }
    const std::chrono::milliseconds wait = NextRoundIn();
    MutexLock lock(thread_mu_);
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (!stop_ && !poll_soon_ && thread_cv_.WaitUntil(thread_mu_, deadline)) {
    }
    if (stop_) return;
    poll_soon_ = false;
  }
}

void CrawlMonitor::PollSoon() {
  {
    MutexLock lock(thread_mu_);
    poll_soon_ = true;
  }
  thread_cv_.NotifyAll();
}

std::chrono::milliseconds CrawlMonitor::NextRoundIn() const {
  // Only for the crawl still running: one stopped between the two rounds
  // must not keep the loop spinning.
  const std::optional<v1::CrawlInfo> active = registry_->Active();
  if (!active) return poll_interval_;
  MutexLock lock(mu_);
  if (detector_ && detector_crawl_ == active->crawl_id() && detector_->AwaitingConfirmation())
    return std::min(poll_interval_, kConfirmDelay);
  return poll_interval_;
}

void CrawlMonitor::RetryPendingDeletes() {
  for (const v1::CrawlInfo& pending : registry_->PendingDeletesToLive())
    registry_->DeleteDone(pending.crawl_id(), fleet_->Delete(pending));
}

void CrawlMonitor::PollActiveCrawl() {
  const std::optional<v1::CrawlInfo> crawl = registry_->Active();
  if (!crawl) return;
  const uint64_t id = crawl->crawl_id();
  const std::map<std::string, uint64_t> caps = SharePageBudget(*crawl, registry_->StatsOf(id));
  bool complete = true;
  std::vector<v1::QueueServerStats> round =
      fleet_->PollStats(*crawl, &complete, caps.empty() ? nullptr : &caps);
  // The crawl may have ended while the round was out: its numbers then stay.
  if (!registry_->PutStats(id, round, /*only_while_active=*/true)) return;
  RecordSample(id, registry_->StatsOf(id));
  const std::string reason = Judge(id, round, complete);
  if (!reason.empty()) EndCrawl(id, v1::CRAWL_STATE_DONE, reason);
}

std::string CrawlMonitor::Judge(uint64_t crawl_id, const std::vector<v1::QueueServerStats>& round,
                                bool complete) {
  MutexLock lock(mu_);
  if (!detector_ || detector_crawl_ != crawl_id) return "";
  if (complete) return detector_->OnRound(round);
  detector_->OnIncompleteRound();
  return "";
}

void CrawlMonitor::EndCrawl(uint64_t id, v1::CrawlState state, const std::string& reason) {
  const std::optional<std::vector<v1::QueueServerInfo>> servers = registry_->End(id, state, reason);
  if (!servers) return;
  spdlog::info("crawl {} ended: {}", id, reason);
  fleet_->End(id, state, *servers);
  // Final numbers: no schedule is handed out any more, so these stay exact
  // (results of schedules still in flight may add a few pages).
  v1::CrawlInfo ended;
  ended.set_crawl_id(id);
  for (const auto& qs : *servers) *ended.add_queue_servers() = qs;
  bool complete = true;
  (void)registry_->PutStats(id, fleet_->PollStats(ended, &complete), /*only_while_active=*/false);
  // The final numbers end the chart, which the crawl's page keeps.
  const std::optional<v1::CrawlInfo> info = registry_->Find(id);
  RecordSample(id, registry_->StatsOf(id), /*final=*/true, info ? info->started_unix_ms() : 0);
  registry_->Settled(id);  // wakes `crawlctl wait`'s long poll (CrawlStatusRequest.wait_ms)
}

std::vector<ProgressSample> CrawlMonitor::History(uint64_t* crawl_id) const {
  MutexLock lock(mu_);
  *crawl_id = history_crawl_;
  const auto it = histories_.find(history_crawl_);
  if (it == histories_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

std::vector<ProgressSample> CrawlMonitor::HistoryOf(uint64_t crawl_id) const {
  MutexLock lock(mu_);
  const auto it = histories_.find(crawl_id);
  if (it == histories_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

void CrawlMonitor::RecordSample(uint64_t crawl_id, const std::map<std::string, v1::QueueServerStats>& stats,
                                bool final, int64_t started_ms) {
  constexpr int64_t kSampleMs = 2000;
  constexpr size_t kMaxSamples = 1800;  // one hour at one sample per 2 s
  const int64_t now = clock_->NowUnixMs();
  MutexLock lock(mu_);
  history_crawl_ = crawl_id;
  (void)histories_[crawl_id];
  while (histories_.size() > kHistoriesKept) {  // the oldest other crawl goes
    auto oldest = histories_.begin();
    if (oldest->first == crawl_id) ++oldest;
    histories_.erase(oldest);
  }
  std::deque<ProgressSample>& history = histories_[crawl_id];
  if (final && history.empty() && started_ms > 0 && started_ms < now) {
    ProgressSample start;
    start.unix_ms = started_ms;
    history.push_back(start);
  }
  if (!final && !history.empty() && now - history.back().unix_ms < kSampleMs) return;
  if (final && !history.empty() && history.back().unix_ms == now) history.pop_back();  // replaced
  ProgressSample sample;
  sample.unix_ms = now;
  for (const auto& [id, st] : stats) {
    sample.pages += st.pages_fetched();
    sample.bytes += st.bytes_fetched();
    sample.frontier += st.frontier_size();
    sample.errors += st.fetch_errors();
    sample.urls_seen += st.urls_seen();
  }
  history.push_back(sample);
  if (history.size() > kMaxSamples) history.pop_front();
}

void CrawlMonitor::UpdateGauges() {
  double pages = 0, frontier = 0;
  if (const uint64_t active = registry_->ActiveId(); active != 0) {
    for (const auto& [id, st] : registry_->StatsOf(active)) {
      pages += static_cast<double>(st.pages_fetched());
      frontier += static_cast<double>(st.frontier_size());
    }
  }
  NameServerMetrics& m = Metrics();
  m.queue_servers_up.Set(static_cast<double>(registry_->LiveMembers()));
  m.fetchers_up.Set(static_cast<double>(fetchers_->LiveCount(member_timeout_)));
  m.crawl_pages_fetched.Set(pages);
  m.crawl_frontier_urls.Set(frontier);
}

}  // namespace crawl::nameserver
