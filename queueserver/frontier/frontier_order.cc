#include "queueserver/frontier/frontier_order.h"

#include <algorithm>

#include "common/url/url.h"
#include "queueserver/frontier/opic_order.h"
#include "queueserver/frontier/structure_order.h"

namespace crawl::queueserver {

Result<OrderKind> ParseOrder(std::string_view name) {
  if (name.empty() || name == "host_budget") return OrderKind::kHostBudget;
  if (name == "bfs") return OrderKind::kBfs;
  if (name == "opic") return OrderKind::kOpic;
  if (name == "structure") return OrderKind::kStructure;
  return Status::InvalidArgument("unknown crawl order '" + std::string(name) +
                                 "' (bfs, host_budget, opic or structure)");
}

bool CountCldLink(CldStats& st, LinkInput& l, bool is_new, bool cross, const PageContext& page,
                  WseenIncrement wseen) {
  // Yioop 9 ties every statistic to a URL being added to the queue: a link
  // to a URL already seen changes nothing (docs/ARCHITECTURE.md, frontier).
  if (!is_new) return false;
  st.seen += 1;
  st.wseen += WseenStep(wseen, l.link_rank);
  // docs/DESIGN.md §5.1: a new URL found on a page of another CLD, of weight w
  // and scheduled in tier t, adds 1 / (1.1 + t + log5(1 + w)) to WIN. A
  // page another queue server scheduled comes with its t and w, echoed by
  // the fetcher (t = 0, w = 0 from a fetcher that does not echo them).
  if (cross) st.win += WinStep(page.tier, page.weight);
  l.entry.weight = l.link_rank;
  l.entry.tier = TierFor(st, IsSitemapUrl(l.entry.url, l.entry.referrer, l.from_sitemap), l.likely_non_html);
  return true;
}

Result<std::unique_ptr<FrontierOrder>> MakeOrder(const OrderOptions& options, OpicStore* opic_store,
                                                 TierStore* tier_store) {
  auto chain = MakeOrderChain(options);  // every order runs one (order_scoring.cc)
  if (!chain.ok()) return chain.status();
  std::unique_ptr<FrontierOrder> order;
  if (options.kind == OrderKind::kOpic) {
    order.reset(new OpicOrder(options, std::move(*chain), opic_store));
  } else {
    order.reset(options.kind == OrderKind::kStructure
                    ? static_cast<FrontierOrder*>(new StructureOrder(options))
                    : new TieredOrder(options, tier_store));
    order->SetChain(std::move(*chain));
  }
  return order;
}

// ---------------------------------------------------------------------------

TieredOrder::TieredOrder(const OrderOptions& options, TierStore* store)
    : options_(options), store_(store ? store : &own_store_) {
  options_.tier_window_urls = std::max<size_t>(1, options_.tier_window_urls);
}

std::string_view TieredOrder::name() const { return budget() ? "host_budget" : "bfs"; }

TieredOrder::CldEntry& TieredOrder::CldOf(const std::string& u) {
  // The host without a parse when the URL is plain and canonical.
  std::string_view host = origin_memo_.Host(u);
  std::string parsed;
  if (host.empty()) {
    parsed = url::HostOf(u);
    host = parsed;
  }
  if (last_cld_ && host == last_host_) return *last_cld_;
  auto cached = host_cld_.find(host);
  if (cached == host_cld_.end()) {
    std::string cld;
    if (!host.empty()) {
      auto c = CompanyLevelDomain(std::string(host), options_.cld_rule);
      cld = c.ok() ? *c : std::string(host);
    }
    if (host_cld_.size() >= kHostCacheSize) host_cld_.clear();  // bounded: start over
    // Nodes of an unordered_map stay put when it grows; CLDs are never erased.
    cached = host_cld_.emplace(std::string(host), &*clds_.try_emplace(std::move(cld)).first).first;
  }
  last_host_.assign(host);
  last_cld_ = cached->second;
  return *last_cld_;
}

int32_t TieredOrder::FileNew(CldStats& st, uint32_t i, bool sitemap, bool non_html) {
  st.seen += 1;                              // docs/DESIGN.md §5.1: SEEN += 1
  st.wseen += WseenStep(options_.wseen, i);  //                WSEEN += 1 + log5(1 + i)
  if (options_.tier_rule == TierRule::kBeast)
    return BeastTier(st, options_.beast_unit) + TierPenalty(sitemap, non_html);
  return TierFor(st, sitemap, non_html);
}

void TieredOrder::OnSeed(FrontierEntry& e, uint64_t /*seed_count*/) {
  e.tier = ChainPenalty(e, /*seed=*/true);  // bfs: the chain's class; host_budget: added tiers
  if (!budget()) return;
  CldEntry& cld = CldOf(e.url);
  e.weight = 0;
  cld.second.seeded = true;
  e.tier += FileNew(cld.second, 0, false, false);
  if (journal_) journal_->CldChanged(cld.first, cld.second);
}

void TieredOrder::OnLinks(const PageContext& page, std::vector<LinkInput>& links,
                          const std::vector<bool>& is_new) {
  if (!budget()) {
    for (size_t k = 0; k < links.size(); ++k)
      if (is_new[k]) links[k].entry.tier = ChainPenalty(links[k].entry, false);
    return;
  }
  const CldEntry* from_cld = page.url.empty() ? nullptr : &CldOf(page.url);
  const uint32_t from_hash = from_cld ? CldNameHash(from_cld->first) : 0;
  for (size_t k = 0; k < links.size(); ++k) {
    LinkInput& l = links[k];
    if (l.sent_elsewhere) continue;  // its owner counts it
    CldEntry& cld = CldOf(l.entry.url);
    const bool cross = from_cld && &cld != from_cld;
    const bool counted = CountCldLink(cld.second, l, is_new[k], cross, page, options_.wseen);
    // IRLbot's in-degree counts every link from another CLD, new URL or not.
    const bool linked = cross && AddInCld(cld.second, from_hash);
    if (counted && options_.tier_rule == TierRule::kBeast) {
      const bool sitemap = IsSitemapUrl(l.entry.url, l.entry.referrer, l.from_sitemap);
      l.entry.tier = BeastTier(cld.second, options_.beast_unit) + TierPenalty(sitemap, l.likely_non_html);
    }
    if (is_new[k]) l.entry.tier += ChainPenalty(l.entry, false);
    if (!counted && !linked) continue;
    if (journal_) journal_->CldChanged(cld.first, cld.second);
    if (counted && OverBudget(cld.second, options_.budget)) {
      l.over_budget = true;
      ++over_budget_;
    }
  }
}

void TieredOrder::NoteState() {
  if (!journal_) return;
  // The round-robin cursor (the queues themselves are in the store).
  const auto c = static_cast<uint32_t>(cursor_);
  std::string blob("T1");
  for (int i = 0; i < 4; ++i) blob.push_back(static_cast<char>((c >> (8 * i)) & 0xff));
  journal_->OrderStateChanged(blob);
}

void TieredOrder::Trim(Tier& t) {
  while (t.window.size() > options_.tier_window_urls) {
    t.window.pop_back();
    ++t.spilled;
    t.loaded_to = t.window.back().seq;  // the budget is at least 1
  }
}

void TieredOrder::Refill(int32_t tier, Tier& t) {
  while (t.window.empty() && t.spilled > 0) {
    std::vector<SeqEntry> chunk = store_->TierRead(tier, t.loaded_to, options_.tier_window_urls);
    // The count says more are there; a store that has fewer lost them (a
    // durable store reports its read error at the next commit).
    if (chunk.empty()) {
      size_ -= t.spilled;
      t.spilled = 0;
      return;
    }
    t.loaded_to = chunk.back().seq;
    for (SeqEntry& e : chunk) {
      // Candidates handed out by Pop and not yet Taken are still filed.
      if (popped_.count(e.seq) || t.spilled == 0) continue;
      --t.spilled;
      t.window.push_back(std::move(e));
    }
  }
}

void TieredOrder::Push(FrontierEntry e, bool front) {
  const int32_t tier = TierOf(e);
  Tier& t = tiers_[tier];
  SeqEntry se{front ? front_seq_-- : back_seq_++, std::move(e)};
  store_->TierPut(tier, se);
  ++size_;
  if (front) {
    // Ahead of everything in the tier: it joins the window's head.
    t.window.push_front(std::move(se));
    Trim(t);
  } else if (t.spilled == 0 && t.window.size() < options_.tier_window_urls) {
    t.loaded_to = se.seq;
    t.window.push_back(std::move(se));
  } else {
    ++t.spilled;  // behind entries already in the store only
  }
}

std::map<int32_t, TieredOrder::Tier>::iterator TieredOrder::NonEmptyFrom(int32_t from) {
  auto it = tiers_.lower_bound(from);
  while (it != tiers_.end() && it->second.size() == 0) ++it;
  if (it == tiers_.end()) {
    it = tiers_.begin();
    while (it->second.size() == 0) ++it;  // size_ > 0: one is not empty
  }
  return it;
}

std::optional<SeqEntry> TieredOrder::Pop() {
  while (size_ > 0) {
    if (!budget()) {
      // bfs: the chain's penalty classes, lowest first (one FIFO with no chain).
      auto it = NonEmptyFrom(0);
      current_ = it->first;
      Tier& t = it->second;
      if (t.window.empty()) Refill(it->first, t);
      if (t.window.empty()) continue;  // the store had lost them: try again
      return PopFrom(t);
    }
    // Yioop 9: "When the scheduler produces a schedule for a fetcher, it
    // chooses a tier to make the schedule from in a round robin fashion."
    // The schedule's first Pop picks the tier at or after the cursor; the
    // rest of the schedule comes from it, and only when it runs dry from
    // the next non-empty tiers (a fetcher never gets a short schedule while
    // URLs wait).
    // BEAST instead reads queue j for one schedule in 2^(j+1), counting
    // schedules in the cursor (host_budget.h TierRule).
    const bool beast = options_.tier_rule == TierRule::kBeast;
    if (beast && schedule_begun_) cursor_ = static_cast<int32_t>(static_cast<uint32_t>(cursor_) + 1);
    auto it = NonEmptyFrom(!schedule_begun_ ? current_
                           : beast          ? BeastTierForSchedule(static_cast<uint32_t>(cursor_))
                                            : cursor_);
    if (schedule_begun_) {
      schedule_begun_ = false;
      if (!beast) cursor_ = it->first + 1;
      NoteState();
    }
    current_ = it->first;
    Tier& t = it->second;
    if (t.window.empty()) Refill(it->first, t);
    if (t.window.empty()) continue;  // the store had lost them: try again
    return PopFrom(t);
  }
  return std::nullopt;
}

SeqEntry TieredOrder::PopFrom(Tier& t) {
  SeqEntry e = std::move(t.window.front());
  t.window.pop_front();
  popped_.insert(e.seq);
  --size_;
  return e;
}

void TieredOrder::Unpop(SeqEntry e) {
  Tier& t = tiers_[TierOf(e.entry)];
  popped_.erase(e.seq);
  t.window.push_front(std::move(e));
  ++size_;
  Trim(t);
}

void TieredOrder::Taken(const SeqEntry& e) {
  popped_.erase(e.seq);
  store_->TierErase(TierOf(e.entry), e.seq);
}

FetchedScore TieredOrder::OnFetched(const FrontierEntry& e) {
  FetchedScore s;
  if (budget()) s.tier = e.tier;
  s.importance = chain_.IndexerScore(ScoreDatum{e.url, e.depth, e.link_kind, e.cash}, 0, 0);
  return s;
}

void TieredOrder::Restore(std::vector<SeqEntry> ready, std::vector<std::pair<std::string, CldStats>> clds,
                          const std::string& state) {
  // Entries handed in (a store that kept them elsewhere) are filed first.
  for (SeqEntry& e : ready) store_->TierPut(TierOf(e.entry), e);
  for (const auto& [tier, info] : store_->TierSummary()) {
    if (info.count == 0) continue;
    Tier& t = tiers_[tier];
    t.spilled = info.count;  // windows fill on the first Pop
    t.loaded_to = 0;
    size_ += info.count;
    front_seq_ = std::min(front_seq_, info.first_seq - 1);
    back_seq_ = std::max(back_seq_, info.last_seq + 1);
  }
  if (state.size() == 6 && state.compare(0, 2, "T1") == 0) {
    uint32_t c = 0;
    for (int i = 0; i < 4; ++i) c |= uint32_t{static_cast<uint8_t>(state[2 + i])} << (8 * i);
    cursor_ = static_cast<int32_t>(c);
  }
  for (auto& [cld, st] : clds) clds_[cld] = st;
}

CldStats TieredOrder::Stats(const std::string& cld) const {
  auto it = clds_.find(cld);
  return it == clds_.end() ? CldStats{} : it->second;
}

std::map<int32_t, size_t> TieredOrder::QueuedByTier() const {
  std::map<int32_t, size_t> out;
  for (const auto& [tier, t] : tiers_)
    if (t.size() > 0) out[tier] = t.size();
  return out;
}

Status TieredOrder::VisitQueued(const QueuedVisitor& visit) const {
  return store_->TierScan([&visit](int32_t tier, const SeqEntry& e) { return visit(tier, e.entry); });
}

size_t TieredOrder::TierSize(int32_t tier) const {
  auto it = tiers_.find(tier);
  return it == tiers_.end() ? 0 : it->second.size();
}

size_t TieredOrder::in_memory() const {
  size_t n = 0;
  for (const auto& [tier, t] : tiers_) n += t.window.size();
  return n;
}

}  // namespace crawl::queueserver
