#include "queueserver/frontier_order.h"

#include <algorithm>

#include "common/url.h"
#include "queueserver/opic_order.h"
#include "queueserver/structure_order.h"

namespace crawl::queueserver {

Result<OrderKind> ParseOrder(std::string_view name) {
  if (name.empty() || name == "host_budget") return OrderKind::kHostBudget;
  if (name == "bfs") return OrderKind::kBfs;
  if (name == "opic") return OrderKind::kOpic;
  if (name == "structure") return OrderKind::kStructure;
  return Status::InvalidArgument("unknown crawl order '" + std::string(name) +
                                 "' (bfs, host_budget, opic or structure)");
}

Result<std::unique_ptr<FrontierOrder>> MakeOrder(const OrderOptions& options, OpicStore* opic_store) {
  if (options.kind == OrderKind::kOpic) {
    // The opic order runs the OPIC filter unless the crawl names a chain.
    auto chain = ScoringChain::Parse(options.scoring_filters.empty() ? "opic" : options.scoring_filters,
                                     options.split);
    if (!chain.ok()) return chain.status();
    return std::unique_ptr<FrontierOrder>(new OpicOrder(options, std::move(*chain), opic_store));
  }
  if (!options.scoring_filters.empty()) {
    // Only opic sorts by score; a chain elsewhere would be silently unused.
    return Status::InvalidArgument("scoring_filters apply to the opic order only");
  }
  if (options.kind == OrderKind::kStructure) return std::unique_ptr<FrontierOrder>(new StructureOrder(options));
  return std::unique_ptr<FrontierOrder>(new TieredOrder(options));
}

// ---------------------------------------------------------------------------

TieredOrder::TieredOrder(const OrderOptions& options) : options_(options) {}

std::string_view TieredOrder::name() const { return budget() ? "host_budget" : "bfs"; }

std::string TieredOrder::CldOf(const std::string& u) const {
  const std::string host = url::HostOf(u);
  if (host.empty()) return host;
  auto cld = CompanyLevelDomain(host, options_.cld_rule);
  return cld.ok() ? *cld : host;
}

int32_t TieredOrder::FileNew(const std::string& cld, uint32_t i, bool sitemap, bool non_html) {
  CldStats& st = clds_[cld];
  st.seen += 1;                              // DESIGN.md 5.1: SEEN += 1
  st.wseen += WseenStep(options_.wseen, i);  //                WSEEN += 1 + log5(1 + i)
  return TierFor(st, sitemap, non_html);
}

void TieredOrder::OnSeed(FrontierEntry& e, uint64_t /*seed_count*/) {
  if (!budget()) return;
  const std::string cld = CldOf(e.url);
  e.weight = 0;
  e.tier = FileNew(cld, 0, false, false);
  if (journal_) journal_->CldChanged(cld, clds_[cld]);
}

void TieredOrder::OnLinks(const PageContext& page, std::vector<LinkInput>& links,
                          const std::vector<bool>& is_new) {
  if (!budget()) return;
  const std::string from_cld = page.url.empty() ? std::string() : CldOf(page.url);
  for (size_t k = 0; k < links.size(); ++k) {
    LinkInput& l = links[k];
    const std::string cld = CldOf(l.entry.url);
    const bool cross = !page.url.empty() && cld != from_cld;
    if (!is_new[k] && !cross) continue;
    CldStats& st = clds_[cld];
    if (is_new[k]) {
      st.seen += 1;
      st.wseen += WseenStep(options_.wseen, l.link_rank);
    }
    // DESIGN.md 5.1: a link from another CLD, on a page of weight w scheduled
    // in tier t, adds 1 / (1.1 + t + log5(1 + w)) to WIN. Every such link
    // counts, to a new URL or not: WIN measures the CLD's incoming links.
    // A page another queue server scheduled counts as t = 0, w = 0.
    if (cross) st.win += WinStep(page.tier, page.weight);
    if (is_new[k]) {
      l.entry.weight = l.link_rank;
      l.entry.tier = TierFor(st, l.from_sitemap, l.likely_non_html);
    }
    if (journal_) journal_->CldChanged(cld, st);
  }
}

void TieredOrder::Push(FrontierEntry e, bool front) {
  const int32_t tier = budget() ? e.tier : 0;
  std::deque<SeqEntry>& q = tiers_[tier];
  if (front) {
    q.push_front(SeqEntry{front_seq_--, std::move(e)});
  } else {
    q.push_back(SeqEntry{back_seq_++, std::move(e)});
  }
  ++size_;
  if (journal_) journal_->Queued(QueueKind::kPages, front ? q.front() : q.back());
}

std::optional<SeqEntry> TieredOrder::Pop() {
  if (size_ == 0) return std::nullopt;
  // Round-robin over the non-empty tiers (DESIGN.md 5.1): the first one at or
  // after the cursor, wrapping around.
  auto it = tiers_.lower_bound(cursor_);
  while (it != tiers_.end() && it->second.empty()) ++it;
  if (it == tiers_.end()) {
    it = tiers_.begin();
    while (it->second.empty()) ++it;  // size_ > 0: one is not empty
  }
  SeqEntry e = std::move(it->second.front());
  it->second.pop_front();
  --size_;
  cursor_ = it->first + 1;
  return e;
}

void TieredOrder::Unpop(SeqEntry e) {
  const int32_t tier = budget() ? e.entry.tier : 0;
  tiers_[tier].push_front(std::move(e));
  ++size_;
}

void TieredOrder::Taken(const SeqEntry& e) {
  if (journal_) journal_->Dequeued(QueueKind::kPages, e.seq);
}

FetchedScore TieredOrder::OnFetched(const FrontierEntry& e) {
  FetchedScore s;
  if (budget()) s.tier = e.tier;
  return s;
}

void TieredOrder::Restore(std::vector<SeqEntry> ready, std::vector<std::pair<std::string, CldStats>> clds,
                          const std::string& /*state*/) {
  std::sort(ready.begin(), ready.end(), [](const SeqEntry& a, const SeqEntry& b) { return a.seq < b.seq; });
  if (!ready.empty()) {
    front_seq_ = std::min(front_seq_, ready.front().seq - 1);
    back_seq_ = std::max(back_seq_, ready.back().seq + 1);
  }
  for (SeqEntry& e : ready) {
    const int32_t tier = budget() ? e.entry.tier : 0;
    tiers_[tier].push_back(std::move(e));
    ++size_;
  }
  for (auto& [cld, st] : clds) clds_[cld] = st;
}

CldStats TieredOrder::Stats(const std::string& cld) const {
  auto it = clds_.find(cld);
  return it == clds_.end() ? CldStats{} : it->second;
}

std::map<int32_t, size_t> TieredOrder::QueuedByTier() const {
  std::map<int32_t, size_t> out;
  for (const auto& [tier, queue] : tiers_)
    if (!queue.empty()) out[tier] = queue.size();
  return out;
}

size_t TieredOrder::TierSize(int32_t tier) const {
  auto it = tiers_.find(tier);
  return it == tiers_.end() ? 0 : it->second.size();
}

}  // namespace crawl::queueserver
