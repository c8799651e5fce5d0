#include "queueserver/frontier/frontier.h"

#include <algorithm>

#include "common/url/url.h"
#include "queueserver/frontier/url_seen.h"

namespace crawl::queueserver {

const SeqEntry& Frontier::SeqQueue::PushBack(FrontierEntry e) {
  q_.push_back(SeqEntry{back_++, std::move(e)});
  return q_.back();
}

const SeqEntry& Frontier::SeqQueue::PushFront(FrontierEntry e) {
  q_.push_front(SeqEntry{front_--, std::move(e)});
  return q_.front();
}

SeqEntry Frontier::SeqQueue::PopFront() {
  SeqEntry e = std::move(q_.front());
  q_.pop_front();
  return e;
}

void Frontier::SeqQueue::Restore(std::vector<SeqEntry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const SeqEntry& a, const SeqEntry& b) { return a.seq < b.seq; });
  q_.assign(std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()));
  if (!q_.empty()) {
    front_ = q_.front().seq - 1;
    back_ = q_.back().seq + 1;
  }
}

Frontier::Frontier(FrontierOptions options, OpicStore* opic_store, TierStore* tier_store)
    : options_(std::move(options)) {
  auto order = MakeOrder(options_.order, opic_store, tier_store);
  if (order.ok()) {
    order_ = std::move(*order);
  } else {
    options_.order = OrderOptions{};
    order_ = std::make_unique<TieredOrder>(options_.order, tier_store);
  }
}

Frontier::OriginState& Frontier::OriginFor(const std::string& origin) { return origins_[origin]; }

Frontier::OriginEntry* Frontier::OriginOfUrl(const std::string& url) {
  // Most URLs are canonical with a plain host, and runs of them share one
  // origin: no parse, and one map lookup per run.
  std::string_view origin = origin_memo_.Origin(url);
  std::string parsed;
  if (origin.empty()) {
    auto o = url::OriginOf(url);
    if (!o.ok()) return nullptr;
    parsed = std::move(*o);
    origin = parsed;
  }
  if (last_origin_ && last_origin_->first == origin) return last_origin_;
  // Nodes of an unordered_map stay put when it grows; origins are never erased.
  auto it = origins_.find(origin);
  if (it == origins_.end()) it = origins_.try_emplace(std::string(origin)).first;
  last_origin_ = &*it;
  return last_origin_;
}

void Frontier::Queue(QueueKind kind, FrontierEntry e, bool front) {
  if (kind == QueueKind::kPages) {
    order_->Push(std::move(e), front);
    return;
  }
  const SeqEntry& added =
      front ? robots_ready_.PushFront(std::move(e)) : robots_ready_.PushBack(std::move(e));
  if (journal_) journal_->Queued(kind, added);
}

void Frontier::Restore(FrontierImage image, std::optional<int64_t> now_ms) {
  if (image.seen_set) {
    seen_ = std::move(*image.seen_set);
  } else {
    seen_.Restore(std::move(image.seen));
  }
  for (auto& [origin, record] : image.origins) {
    OriginState& st = OriginFor(origin);
    st.record = std::move(record);
    if (st.record.retry_pending) robots_retry_.push_back(origin);
    if (st.record.backoff_until_ms > 0) backed_off_.insert(origin);
  }
  for (auto& [origin, entries] : image.waiting) {
    OriginState& st = OriginFor(origin);
    for (auto& e : entries) {
      next_wait_seq_ = std::max(next_wait_seq_, e.seq + 1);
      st.waiting.push_back(std::move(e));
      ++waiting_count_;
    }
  }
  // A queued re-fetch still goes before its origin's pages.
  for (const SeqEntry& e : image.robots_ready) {
    OriginEntry* o = OriginOfUrl(e.entry.url);
    if (o && o->second.record.robots == RobotsState::kKnown && o->second.record.robots_refreshing)
      o->second.refresh_queued = true;
  }
  robots_ready_.Restore(std::move(image.robots_ready));
  order_->Restore(std::move(image.ready), std::move(image.clds), image.order_state);
  order_->RestoreStructure(image.structure);
  for (auto& l : image.leases) {
    OpenLease lease;
    lease.fetcher_id = std::move(l.record.fetcher_id);
    lease.deadline_ms = l.record.deadline_ms;
    if (now_ms) lease.deadline_ms = std::max(lease.deadline_ms, *now_ms + options_.lease_ms);
    lease.origins = std::move(l.record.origins);
    for (const std::string& origin : lease.origins) OriginFor(origin).leased_by = l.id;
    for (auto& e : l.entries) {
      const uint64_t h = UrlKey(e.url);
      lease.outstanding.emplace(h, std::move(e));
    }
    leased_count_ += lease.outstanding.size();
    leases_[l.id] = std::move(lease);
  }
  next_schedule_id_ = std::max<uint64_t>(image.scalars.next_schedule_id, 1);
  if (!leases_.empty()) next_schedule_id_ = std::max(next_schedule_id_, leases_.rbegin()->first + 1);
  robots_disallowed_ = image.scalars.robots_disallowed;
  activity_ = image.scalars.activity;
}

bool Frontier::Add(const FrontierEntry& entry, int64_t now_ms, uint64_t seed_count) {
  // 8-byte URL hash: with n URLs the chance of any collision is about
  // n^2 / 2^65 (3e-8 at a million URLs), the price of a fixed-size key.
  const uint64_t h = UrlKey(entry.url);
  if (!seen_.Insert(h)) return false;
  if (journal_) journal_->Seen(h);
  ++activity_;
  if (!AdmitNew(entry.url, /*seed=*/true, /*from_sitemap=*/false)) return false;
  FrontierEntry e = entry;
  order_->OnSeed(e, seed_count);
  Route(std::move(e), now_ms);
  return true;
}

size_t Frontier::AddLinks(std::vector<LinkInput> links, int64_t now_ms) {
  // The orders see one page's links together (opic splits its cash over
  // them), pages and links in order of first appearance. Fetchers send each
  // page's links together: then the runs of one referrer are the groups.
  bool runs = true;
  {
    std::unordered_set<std::string_view> finished;
    for (size_t k = 1; k < links.size() && runs; ++k) {
      if (links[k].entry.referrer != links[k - 1].entry.referrer)
        runs = finished.insert(links[k - 1].entry.referrer).second;
    }
    if (runs && !links.empty() && finished.count(links.back().entry.referrer)) runs = false;
  }
  size_t added = 0;
  if (runs) {
    if (!links.empty() && links.front().entry.referrer == links.back().entry.referrer)
      return AddPageLinks(links, now_ms);  // one page: no copies
    std::vector<LinkInput> group;
    for (size_t b = 0; b < links.size();) {
      size_t e = b + 1;
      while (e < links.size() && links[e].entry.referrer == links[b].entry.referrer) ++e;
      group.assign(std::make_move_iterator(links.begin() + static_cast<std::ptrdiff_t>(b)),
                   std::make_move_iterator(links.begin() + static_cast<std::ptrdiff_t>(e)));
      added += AddPageLinks(group, now_ms);
      b = e;
    }
    return added;
  }
  std::vector<std::string> referrers;
  std::unordered_map<std::string, std::vector<LinkInput>> groups;
  for (LinkInput& l : links) {
    auto [it, inserted] = groups.try_emplace(l.entry.referrer);
    if (inserted) referrers.push_back(l.entry.referrer);
    it->second.push_back(std::move(l));
  }
  for (const std::string& referrer : referrers) added += AddPageLinks(groups[referrer], now_ms);
  return added;
}

size_t Frontier::AddPageLinks(std::vector<LinkInput>& group, int64_t now_ms) {
  // Trap rules first. A refused link is not marked seen: the same URL
  // found later fewer hops from the seeds still enters.
  trap_refused_ += std::erase_if(group, [&](const LinkInput& l) {
    return !l.sent_elsewhere &&
           CheckTrap(options_.trap_rules, l.entry.url, l.entry.depth) != TrapVerdict::kKeep;
  });
  if (group.empty()) return 0;
  is_new_.assign(group.size(), false);
  const LinkInput* echoed = nullptr;  // a link carrying the referrer's order data
  for (size_t k = 0; k < group.size(); ++k) {
    if (group[k].sent_elsewhere) continue;  // owned, queued and seen elsewhere
    if (group[k].referrer_known && !echoed) echoed = &group[k];
    const uint64_t h = UrlKey(group[k].entry.url);
    is_new_[k] = seen_.Insert(h);
    if (is_new_[k] && journal_) journal_->Seen(h);
    // Over its origin's cap: seen, so never offered again, and not queued.
    if (is_new_[k] && !AdmitNew(group[k].entry.url, false, group[k].from_sitemap)) is_new_[k] = false;
  }
  PageContext page;
  page.url = group.front().entry.referrer;
  if (auto f = fetched_.find(page.url); f != fetched_.end()) {
    page.fetched_here = true;
    page.tier = f->second.tier;
    page.weight = f->second.weight;
    page.cash = f->second.cash;
  } else if (echoed) {
    page.scheduled_elsewhere = true;
    page.tier = echoed->referrer_tier;
    page.weight = echoed->referrer_weight;
    page.cash = echoed->referrer_cash;
    page.same_cld_links = echoed->same_cld_links_on_page;
  }
  order_->OnLinks(page, group, is_new_);
  size_t added = 0;
  for (size_t k = 0; k < group.size(); ++k) {
    if (!is_new_[k]) continue;
    ++activity_;
    // Past its CLD's budget: seen, so it is never offered again, not queued.
    if (group[k].over_budget) continue;
    ++added;
    Route(std::move(group[k].entry), now_ms);
  }
  return added;
}

void Frontier::EndRequest() {
  order_->EndRequest();
  fetched_.clear();
}

void Frontier::NoteHostErrors(uint64_t schedule_id, const std::string& origin, uint32_t errors) {
  auto it = leases_.find(schedule_id);
  uint32_t total = errors;
  if (it != leases_.end()) total = it->second.errors[origin] += errors;
  if (total <= options_.host_error_threshold) return;
  OriginState& st = OriginFor(origin);
  if (st.record.error_delayed) return;
  st.record.error_delayed = true;
  ++activity_;
  NoteOrigin(origin, st);
}

void Frontier::Route(FrontierEntry entry, int64_t now_ms) {
  OriginEntry* found = OriginOfUrl(entry.url);
  if (!found) {  // cannot be fetched; seen so it is not offered again
    order_->Dropped(entry);
    return;
  }
  const std::string* origin = &found->first;
  OriginState& state = found->second;
  switch (state.record.robots) {
    case RobotsState::kKnown:
      // Judged by the rules in force; expired ones are fetched again.
      if (RobotsDue(state, now_ms)) StartRobotsRefresh(*origin, state, now_ms);
      if (robots::IsAllowedUrl(state.record.rules, entry.url)) {
        Queue(QueueKind::kPages, std::move(entry), /*front=*/false);
      } else {
        RefuseDisallowed(*origin, state, std::move(entry));
      }
      break;
    case RobotsState::kUnknown:
    case RobotsState::kFetching: {
      const bool unknown = state.record.robots == RobotsState::kUnknown;
      state.waiting.push_back(SeqEntry{next_wait_seq_++, std::move(entry)});
      if (journal_) journal_->WaitAdded(*origin, state.waiting.back());
      ++waiting_count_;
      if (unknown) QueueRobotsFetch(*origin, now_ms);
      break;
    }
  }
}

Schedule Frontier::Lease(const std::string& fetcher_id, size_t max_urls, int64_t now_ms, size_t max_pages) {
  Tick(now_ms);
  if (max_urls == 0 || (robots_ready_.empty() && order_->size() == 0)) return Schedule();

  LeaseDraft draft;
  draft.id = next_schedule_id_;
  draft.lease.fetcher_id = fetcher_id;
  draft.lease.deadline_ms = now_ms + options_.lease_ms;
  // Sized once: growing them entry by entry reallocated and rehashed a
  // schedule's worth of entries a dozen times.
  const size_t expect = std::min(max_urls, robots_ready_.size() + order_->size());
  draft.schedule.entries.reserve(expect);
  draft.lease.outstanding.reserve(expect);

  DraftRobots(draft, max_urls);
  DraftPages(draft, max_urls, max_pages, now_ms);
  // Origins DraftPages found with an expired robots.txt: its re-fetch now.
  if (!robots_ready_.empty()) DraftRobots(draft, max_urls);
  if (draft.schedule.entries.empty()) return std::move(draft.schedule);
  return OpenDraftedLease(std::move(draft));
}

void Frontier::TakeIntoDraft(LeaseDraft& draft, QueueKind q, SeqEntry&& e, const std::string& origin,
                             OriginState& st) {
  if (q == QueueKind::kPages) {
    order_->Taken(e);
  } else if (journal_) {
    journal_->Dequeued(q, e.seq);
  }
  if (st.leased_by != draft.id) {
    st.leased_by = draft.id;
    draft.lease.origins.push_back(origin);
    if (st.pace.pace_ms() > 0) draft.schedule.start_pace_ms[origin] = st.pace.pace_ms();
  }
  draft.schedule.entries.push_back(e.entry);
  const uint64_t h = UrlKey(e.entry.url);
  draft.lease.outstanding.emplace(h, std::move(e.entry));
}

void Frontier::DraftRobots(LeaseDraft& draft, size_t max_urls) {
  // robots.txt first: each is its origin's only URL in flight. A re-fetch
  // whose origin another schedule holds waits for it (one schedule per host).
  std::vector<SeqEntry> busy;
  while (!robots_ready_.empty() && draft.schedule.entries.size() < max_urls) {
    SeqEntry e = robots_ready_.PopFront();
    auto origin = url::OriginOf(e.entry.url);
    const std::string key = origin.ok() ? *origin : std::string();
    OriginState& st = OriginFor(key);
    if (st.leased_by != 0 && st.leased_by != draft.id) {
      busy.push_back(std::move(e));
      continue;
    }
    if (st.refresh_queued) st.refresh_in = draft.id;
    st.refresh_queued = false;
    TakeIntoDraft(draft, QueueKind::kRobots, std::move(e), key, st);
  }
  while (!busy.empty()) {
    robots_ready_.Return(std::move(busy.back()));
    busy.pop_back();
  }
}

void Frontier::DraftPages(LeaseDraft& draft, size_t max_urls, size_t max_pages, int64_t now_ms) {
  // Pages in FIFO order; entries of origins held by another schedule, or
  // crawl-delayed origins that are not due or have their share of this
  // schedule, are set aside and go back to the front in their original order
  // and numbers.
  std::vector<SeqEntry> skipped;
  std::map<std::string, size_t> delayed_taken;
  order_->BeginSchedule();
  const size_t slots = std::max<size_t>(1, max_urls / std::max<size_t>(1, options_.slot_size));
  size_t scanned = 0;
  size_t pages = 0;
  while (draft.schedule.entries.size() < max_urls && pages < max_pages &&
         scanned < options_.lease_scan_limit) {
    std::optional<SeqEntry> next = order_->Pop();
    if (!next) break;
    SeqEntry e = std::move(*next);
    ++scanned;
    OriginEntry* found = OriginOfUrl(e.entry.url);
    if (!found) found = &*origins_.try_emplace(std::string()).first;
    const std::string& key = found->first;
    OriginState& st = found->second;  // TakeIntoDraft() below marks it leased
    if ((st.leased_by != 0 && st.leased_by != draft.id) || st.record.backoff_until_ms > now_ms) {
      skipped.push_back(std::move(e));
      continue;
    }
    if (const RobotsGate gate = GateForRobots(key, st, e.entry, draft.id, now_ms);
        gate != RobotsGate::kTake) {
      if (gate == RobotsGate::kSkip) {
        skipped.push_back(std::move(e));
      } else {
        order_->Taken(e);  // leaves the order for good
        RefuseDisallowed(key, st, std::move(e.entry));
      }
      continue;
    }
    if (const int64_t delay = CrawlDelayMs(st); delay > 0) {
      const size_t fit = static_cast<size_t>(std::max<int64_t>(1, options_.lease_ms / (2 * delay)));
      size_t& taken = delayed_taken[key];
      if (st.not_before_ms > now_ms || taken >= std::min(slots, fit)) {
        skipped.push_back(std::move(e));
        continue;
      }
      ++taken;
      draft.schedule.crawl_delay_ms[key] = delay;
    }
    TakeIntoDraft(draft, QueueKind::kPages, std::move(e), key, found->second);
    ++pages;
  }
  while (!skipped.empty()) {
    order_->Unpop(std::move(skipped.back()));
    skipped.pop_back();
  }
}

Schedule Frontier::OpenDraftedLease(LeaseDraft draft) {
  ++next_schedule_id_;
  ++activity_;
  draft.schedule.id = draft.id;
  draft.schedule.lease_deadline_ms = draft.lease.deadline_ms;
  leased_count_ += draft.lease.outstanding.size();
  if (journal_) {
    LeaseRecord record{draft.lease.fetcher_id, draft.lease.deadline_ms, draft.lease.origins};
    journal_->LeaseOpened(draft.id, record, draft.schedule.entries);
  }
  leases_.emplace(draft.id, std::move(draft.lease));
  return std::move(draft.schedule);
}

ReportResult Frontier::Report(uint64_t schedule_id, const FetchOutcome& outcome, int64_t now_ms) {
  ++activity_;
  ReportResult result;
  std::optional<FrontierEntry> leased;
  auto it = leases_.find(schedule_id);
  if (it != leases_.end()) {
    auto entry = it->second.outstanding.find(UrlKey(outcome.url));
    if (entry != it->second.outstanding.end()) {
      leased = std::move(entry->second);
      it->second.outstanding.erase(entry);
      --leased_count_;
      if (journal_) journal_->LeaseUrlDone(schedule_id, outcome.url);
    }
  }
  auto origin = url::OriginOf(outcome.url);
  if (origin.ok()) NotePoliteness(*origin, OriginFor(*origin), outcome, now_ms);
  if (outcome.kind == UrlKind::kRobots) {
    if (origin.ok()) ApplyRobots(*origin, outcome, now_ms);
    return result;
  }
  if (origin.ok()) {
    OriginState& st = OriginFor(*origin);
    if (IsHostFailure(outcome.status)) {
      Backoff(*origin, st, outcome.status, outcome.retry_after_seconds, now_ms);
    } else if (st.record.failures > 0 || st.record.parked) {
      // An answer: the run of failures is over.
      st.record.failures = 0;
      st.record.parked = false;
      NoteOrigin(*origin, st);
    }
  }
  if (!leased) return result;  // a late or repeated report: its lease is gone
  if (IsBackoffStatus(outcome.status) && leased->retries < options_.backoff.max_url_retries) {
    // "Come back later": the URL goes back, ahead of newer ones, and waits
    // for the host's back-off.
    ++leased->retries;
    Queue(QueueKind::kPages, std::move(*leased), /*front=*/true);
    result.requeued = true;
    return result;
  }
  result.score = order_->Fetched(*leased, outcome.scoring_datum);  // the chain, then OnFetched
  fetched_[leased->url] = std::move(*leased);
  return result;
}

void Frontier::Backoff(const std::string& origin, OriginState& state, int status, uint32_t retry_after_s,
                       int64_t now_ms) {
  OriginRecord& r = state.record;
  // Answers of one schedule arrive together: failures while the host is
  // already backed off extend that back-off but count as one failure.
  if (r.backoff_until_ms <= now_ms) ++r.failures;
  const BackoffDecision d = NextBackoff(options_.backoff, std::max<uint32_t>(1, r.failures),
                                        IsBackoffStatus(status) ? retry_after_s : 0);
  r.backoff_until_ms = std::max(r.backoff_until_ms, now_ms + d.delay_ms);
  r.parked = d.park;
  backed_off_.insert(origin);
  ++activity_;
  NoteOrigin(origin, state);
}

std::optional<OriginRecord> Frontier::Origin(const std::string& origin) const {
  auto it = origins_.find(origin);
  if (it == origins_.end()) return std::nullopt;
  return it->second.record;
}

int64_t Frontier::CrawlDelayMs(const OriginState& state) const {
  // docs/DESIGN.md §5.1: crawl-delayed hosts are those with a robots.txt
  // Crawl-delay and those over the error threshold.
  const int64_t by_errors =
      std::max(options_.min_host_delay_ms, state.record.error_delayed ? options_.error_crawl_delay_ms : 0);
  if (state.record.robots != RobotsState::kKnown) return by_errors;
  const auto delay = state.record.rules.crawl_delay();
  if (!delay || *delay <= 0) return by_errors;
  return std::max(
      by_errors, std::min<int64_t>(options_.max_crawl_delay_ms, static_cast<int64_t>(*delay * 1000.0 + 0.5)));
}

void Frontier::Complete(uint64_t schedule_id, int64_t now_ms) {
  EndLease(schedule_id, /*put_back=*/true, now_ms);
  Tick(now_ms);
}

void Frontier::EndLease(uint64_t schedule_id, bool put_back, int64_t now_ms) {
  auto it = leases_.find(schedule_id);
  if (it == leases_.end()) return;
  ++activity_;
  OpenLease& lease = it->second;
  for (const std::string& origin : lease.origins) {
    OriginState& st = OriginFor(origin);
    if (st.leased_by == schedule_id) st.leased_by = 0;
    // The schedule's last request started before now: one delay from now
    // keeps the next schedule's first request far enough from it.
    if (const int64_t delay = CrawlDelayMs(st); delay > 0) st.not_before_ms = now_ms + delay;
  }
  leased_count_ -= lease.outstanding.size();
  std::vector<FrontierEntry> back;
  for (auto& [u, e] : lease.outstanding) back.push_back(std::move(e));
  if (journal_) {
    std::vector<std::string> urls;
    for (const auto& e : back) urls.push_back(e.url);
    journal_->LeaseClosed(schedule_id, urls);
  }
  if (put_back) {
    // Unreported URLs go back to the front, robots.txt to its own queue.
    std::sort(back.begin(), back.end(),
              [](const FrontierEntry& a, const FrontierEntry& b) { return a.url > b.url; });
    for (auto& e : back) {
      const QueueKind q = e.kind == UrlKind::kRobots ? QueueKind::kRobots : QueueKind::kPages;
      Queue(q, std::move(e), /*front=*/true);
    }
  }
  leases_.erase(it);
}

size_t Frontier::EndLeasesOf(const std::string& fetcher_id, int64_t now_ms) {
  std::vector<uint64_t> ended;
  size_t urls = 0;
  for (const auto& [id, lease] : leases_) {
    if (lease.fetcher_id != fetcher_id) continue;
    ended.push_back(id);
    urls += lease.outstanding.size();
  }
  for (uint64_t id : ended) EndLease(id, /*put_back=*/true, now_ms);
  leases_expired_ += ended.size();
  return urls;
}

void Frontier::Tick(int64_t now_ms) {
  std::vector<uint64_t> expired;
  for (const auto& [id, lease] : leases_) {
    if (lease.deadline_ms <= now_ms) expired.push_back(id);
  }
  for (uint64_t id : expired) EndLease(id, /*put_back=*/true, now_ms);
  leases_expired_ += expired.size();

  if (!robots_retry_.empty()) {
    std::vector<std::string> still_waiting;
    for (const std::string& origin : robots_retry_) {
      OriginState& st = OriginFor(origin);
      if (st.record.robots_retry_at_ms <= now_ms) {
        QueueRobotsFetch(origin, now_ms);
        ++activity_;
      } else {
        still_waiting.push_back(origin);
      }
    }
    robots_retry_.swap(still_waiting);
  }
  RecheckDueRobots(now_ms);
}

bool Frontier::Idle() const {
  return order_->size() == 0 && robots_ready_.empty() && waiting_count_ == 0 && leases_.empty();
}

FrontierCounters Frontier::Counters() const {
  FrontierCounters c;
  c.frontier_size = order_->size() + robots_ready_.size() + waiting_count_;
  c.leased_urls = leased_count_;
  c.outstanding_schedules = leases_.size();
  c.urls_seen = seen_.size();
  c.leases_expired = leases_expired_;
  c.trap_refused = trap_refused_;
  c.over_budget = order_->over_budget();
  c.over_host_cap = over_host_cap_;
  c.hosts = origins_.size();
  c.robots_disallowed = robots_disallowed_;
  c.activity = activity_;
  return c;
}

FrontierScalars Frontier::Scalars() const {
  return FrontierScalars{next_schedule_id_, robots_disallowed_, activity_};
}

}  // namespace crawl::queueserver
