#include "queueserver/frontier/opic_order.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "common/url/cld.h"
#include "common/url/url.h"
#include "queueserver/frontier/url_seen.h"

namespace crawl::queueserver {

// ---- MemoryOpicStore

void MemoryOpicStore::OpicPut(const OpicKey& key, uint64_t url_hash, const FrontierEntry& e) {
  by_key_[key] = e;
  by_hash_[url_hash] = key;
}
void MemoryOpicStore::OpicErase(const OpicKey& key, uint64_t url_hash) {
  by_key_.erase(key);
  by_hash_.erase(url_hash);
}
std::optional<OpicKey> MemoryOpicStore::OpicFind(uint64_t url_hash) {
  auto it = by_hash_.find(url_hash);
  if (it == by_hash_.end()) return std::nullopt;
  return it->second;
}
std::optional<FrontierEntry> MemoryOpicStore::OpicGet(const OpicKey& key) {
  auto it = by_key_.find(key);
  if (it == by_key_.end()) return std::nullopt;
  return it->second;
}
std::vector<std::pair<OpicKey, FrontierEntry>> MemoryOpicStore::OpicTop(size_t n) {
  std::vector<std::pair<OpicKey, FrontierEntry>> out;
  for (auto it = by_key_.begin(); it != by_key_.end() && out.size() < n; ++it)
    out.emplace_back(it->first, it->second);
  return out;
}

std::optional<OpicVisits> MemoryOpicStore::OpicVisitsGet(uint64_t url_hash) {
  auto it = visits_.find(url_hash);
  if (it == visits_.end()) return std::nullopt;
  return it->second;
}
void MemoryOpicStore::OpicVisitsPut(uint64_t url_hash, const OpicVisits& v) { visits_[url_hash] = v; }
Status MemoryOpicStore::OpicScan(const ScanVisitor& visit) const {
  for (const auto& [key, entry] : by_key_)
    if (!visit(entry)) break;
  return Status::Ok();
}

// ---- OpicOrder

Status OpicOrder::VisitQueued(const QueuedVisitor& visit) const {
  // Every queued URL is filed in the store (memory holds a copy of the best).
  return store_->OpicScan([&visit](const FrontierEntry& e) { return visit(0, e); });
}

OpicOrder::OpicOrder(const OrderOptions& options, ScoringChain chain, OpicStore* store)
    : options_(options), store_(store ? store : &own_store_) {
  SetChain(std::move(chain));
  options_.ram_budget_urls = std::max<size_t>(1, options_.ram_budget_urls);
}

std::string OpicOrder::CldOf(const std::string& u) const {
  const std::string host = url::HostOf(u);
  if (host.empty()) return host;
  auto cld = CompanyLevelDomain(host, options_.cld_rule);
  return cld.ok() ? *cld : host;
}

void OpicOrder::NoteState() {
  if (!journal_) return;
  std::string blob;
  for (double d : {bonus_, reserve_, total_history_, injected_total_}) {
    const uint64_t bits = std::bit_cast<uint64_t>(d);
    blob.append(reinterpret_cast<const char*>(&bits), 8);
  }
  for (uint64_t v : {count_, next_seq_}) blob.append(reinterpret_cast<const char*>(&v), 8);
  journal_->OrderStateChanged(blob);
}

void OpicOrder::Restore(std::vector<SeqEntry> /*ready*/,
                        std::vector<std::pair<std::string, CldStats>> /*clds*/, const std::string& state) {
  if (state.size() != 48) return;  // a new crawl: nothing stored yet
  double d[4];
  uint64_t v[2];
  for (int i = 0; i < 4; ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, state.data() + 8 * i, 8);
    d[i] = std::bit_cast<double>(bits);
  }
  std::memcpy(&v[0], state.data() + 32, 8);
  std::memcpy(&v[1], state.data() + 40, 8);
  bonus_ = d[0];
  reserve_ = d[1];
  total_history_ = d[2];
  injected_total_ = d[3];
  count_ = v[0];
  next_seq_ = v[1];
  spilled_ = count_;  // memory fills on the first Pop
}

void OpicOrder::OnSeed(FrontierEntry& e, uint64_t seed_count) {
  // docs/DESIGN.md §5.2: seeds share 1.0 (over every queue server of the crawl).
  e.cash = chain_.InjectedScore(
      ScoreDatum{e.url, e.depth, e.link_kind, 1.0 / static_cast<double>(std::max<uint64_t>(1, seed_count))});
  injected_total_ += e.cash;
  NoteState();
}

void OpicOrder::OnLinks(const PageContext& page, std::vector<LinkInput>& links,
                        const std::vector<bool>& is_new) {
  auto pending = page.fetched_here ? pending_.find(page.url) : pending_.end();
  if (pending == pending_.end() && !page.scheduled_elsewhere) {
    // The page's cash is unknown here (another queue server scheduled it and
    // the fetcher did not echo it): new URLs start with nothing.
    for (size_t k = 0; k < links.size(); ++k) {
      const FrontierEntry& e = links[k].entry;
      if (is_new[k]) links[k].entry.cash = chain_.InitialScore(ScoreDatum{e.url, e.depth, e.link_kind, 0.0});
    }
    return;
  }
  const std::string from_cld = CldOf(page.url);
  // Here: C waits in pending_, every link of the page is in `links` (those
  // routed to another queue server as sent_elsewhere copies), so s is
  // counted. Elsewhere: C and s come with the links, which are this queue
  // server's share of the page; its own queue server booked these shares as
  // given.
  ScoredPage scored_page{page.url, page.cash, 0, pending != pending_.end() ? 0 : page.same_cld_links};
  std::vector<ScoredLink> scored(links.size());
  for (size_t k = 0; k < links.size(); ++k) {
    scored[k].url = links[k].entry.url;
    scored[k].same_cld = CldOf(links[k].entry.url) == from_cld;
    scored[k].from_sitemap = links[k].from_sitemap;
    scored[k].rank = links[k].link_rank;
    scored[k].kind = links[k].entry.link_kind;
    scored_page.links_on_page = std::max(scored_page.links_on_page, links[k].links_on_page);
  }
  const double adjust = chain_.DistributeScoreToOutlinks(scored_page, scored);
  // Nutch's adjust datum: the source page's own score gains it, here its
  // history (its cash is spent); only where the page was fetched.
  if (pending != pending_.end()) total_history_ += adjust;
  for (size_t k = 0; k < links.size(); ++k) {
    const double share = scored[k].share;
    if (links[k].sent_elsewhere) {
      // Given to the link's owner, which credits it there.
      if (pending != pending_.end()) pending->second -= share;
      continue;
    }
    bool taken = false;
    FrontierEntry& e = links[k].entry;
    if (is_new[k]) {
      e.cash = chain_.InitialScore(ScoreDatum{e.url, e.depth, e.link_kind, share});
      if (!std::isfinite(e.cash) || e.cash < 0) e.cash = 0;
      lost_ += share - e.cash;  // what a filter took (or added) is booked
      taken = true;
    } else if (const uint64_t h = share > 0 ? UrlKey(e.url) : 0; share > 0 && Queued(h)) {
      inlinks_[h].push_back(ScoreInlink{page.url, e.link_kind, share});  // UpdateDbScore at EndRequest
      taken = true;
    } else if (share > 0 && options_.opic_revisits && (credits_.count(h) > 0 || store_->OpicVisitsGet(h))) {
      credits_[h] += share;  // kept for its next visit (ApplyCredits at EndRequest)
      taken = true;
    }
    if (pending != pending_.end()) {
      // Otherwise the share stays pending and is lost at EndRequest.
      if (taken) pending->second -= share;
    } else if (!taken) {
      lost_ += share;  // the page's queue server gave it away: lost here
    }
  }
}

bool OpicOrder::Queued(uint64_t url_hash) {
  return mem_hash_.count(url_hash) > 0 || store_->OpicFind(url_hash).has_value();
}

void OpicOrder::ApplyInlinks() {
  for (auto& entry : inlinks_) {
    // Named, not a structured binding: the lambda below captures it, which
    // clang (the sanitizer builds) refuses for bindings before C++20's fix.
    const uint64_t h = entry.first;
    const auto& in = entry.second;
    double brought = 0;
    for (const ScoreInlink& l : in) brought += l.share;
    double taken = 0;
    const bool queued = SetCash(h, [&](const FrontierEntry& e, double raw) {
      // The chain sees the true cash (raw + bonus). When it only adds the
      // inlinks (opic), they are added to the raw cash one by one, as they
      // always were, so nothing is lost to rounding.
      double expected = raw + bonus_, added = raw;
      for (const ScoreInlink& l : in) {
        expected += l.share;
        added += l.share;
      }
      double now = chain_.UpdateDbScore(ScoreDatum{e.url, e.depth, e.link_kind, raw + bonus_}, in);
      if (!std::isfinite(now) || now < 0) now = raw + bonus_;
      if (now == expected) {
        taken = brought;
        return added;
      }
      taken = now - (raw + bonus_);
      return now - bonus_;
    });
    if (!queued) taken = 0;
    if (taken != brought) lost_ += brought - taken;
  }
  inlinks_.clear();
}

bool OpicOrder::SetCash(uint64_t url_hash,
                        const std::function<double(const FrontierEntry&, double)>& update) {
  auto rekey = [&](FrontierEntry& e, uint64_t seq) {
    e.cash = update(e, e.cash);
    return OpicKey{chain_.GeneratorSortValue(ScoreDatum{e.url, e.depth, e.link_kind, e.cash}), seq};
  };
  if (auto m = mem_hash_.find(url_hash); m != mem_hash_.end()) {
    auto node = mem_.extract(m->second);
    Held held = std::move(node.mapped());
    store_->OpicErase(node.key(), url_hash);
    const OpicKey key = rekey(held.entry, node.key().seq);
    store_->OpicPut(key, url_hash, held.entry);
    mem_hash_[url_hash] = key;
    mem_.emplace(key, std::move(held));
    return true;
  }
  auto old_key = store_->OpicFind(url_hash);
  if (!old_key) return false;
  auto entry = store_->OpicGet(*old_key);
  if (!entry) return false;
  store_->OpicErase(*old_key, url_hash);
  const OpicKey key = rekey(*entry, old_key->seq);
  store_->OpicPut(key, url_hash, *entry);
  // It was spilled; it joins memory if it now sorts before memory's worst.
  if (!mem_.empty() && OpicKeyBefore()(key, mem_.rbegin()->first)) {
    --spilled_;
    mem_hash_[url_hash] = key;
    mem_.emplace(key, Held{url_hash, std::move(*entry)});
    TrimMemory();
  }
  return true;
}

void OpicOrder::Admit(const OpicKey& key, Held held) {
  const bool fits = spilled_ == 0 && mem_.size() < options_.ram_budget_urls;
  const bool better = !mem_.empty() && OpicKeyBefore()(key, mem_.rbegin()->first);
  if (!fits && !better) {
    ++spilled_;
    return;
  }
  mem_hash_[held.hash] = key;
  mem_.emplace(key, std::move(held));
  TrimMemory();
}

void OpicOrder::TrimMemory() {
  while (mem_.size() > options_.ram_budget_urls) {
    auto worst = std::prev(mem_.end());
    mem_hash_.erase(worst->second.hash);
    mem_.erase(worst);
    ++spilled_;  // still in the store
  }
}

void OpicOrder::Push(FrontierEntry e, bool /*front*/) {
  // The cash it carries becomes raw cash relative to the current bonus.
  e.cash -= bonus_;
  const OpicKey key{chain_.GeneratorSortValue(ScoreDatum{e.url, e.depth, e.link_kind, e.cash}), next_seq_++};
  const uint64_t h = UrlKey(e.url);
  store_->OpicPut(key, h, e);
  ++count_;
  Admit(key, Held{h, std::move(e)});
  NoteState();
}

void OpicOrder::Refill() {
  auto top = store_->OpicTop(options_.ram_budget_urls + popped_.size());
  for (auto& [key, entry] : top) {
    if (mem_.size() >= options_.ram_budget_urls) break;
    if (popped_.count(key.seq) || mem_.count(key)) continue;
    const uint64_t h = UrlKey(entry.url);
    mem_hash_[h] = key;
    mem_.emplace(key, Held{h, std::move(entry)});
    --spilled_;
  }
}

std::optional<SeqEntry> OpicOrder::Pop() {
  if (mem_.empty() && spilled_ > 0) Refill();
  if (mem_.empty()) return std::nullopt;
  auto node = mem_.extract(mem_.begin());
  mem_hash_.erase(node.mapped().hash);
  SeqEntry out{node.key().seq, node.mapped().entry};
  out.entry.cash += bonus_;  // the true cash travels with the lease
  popped_.emplace(node.key().seq, std::make_pair(node.key(), std::move(node.mapped())));
  return out;
}

void OpicOrder::Unpop(SeqEntry e) {
  auto it = popped_.find(e.seq);
  if (it == popped_.end()) return;
  auto [key, held] = std::move(it->second);
  popped_.erase(it);
  mem_hash_[held.hash] = key;
  mem_.emplace(key, std::move(held));
  TrimMemory();
}

void OpicOrder::Taken(const SeqEntry& e) {
  auto it = popped_.find(e.seq);
  if (it == popped_.end()) return;
  store_->OpicErase(it->second.first, it->second.second.hash);
  popped_.erase(it);
  --count_;
  NoteState();
}

FetchedScore OpicOrder::OnFetched(const FrontierEntry& e) {
  // docs/DESIGN.md §5.2: history += C; C goes to the links (OnLinks), the rest is
  // lost at EndRequest.
  double cash = e.cash, history = e.cash;
  if (options_.opic_revisits) {
    // Across visits: the cash received since the last one joins C.
    const uint64_t h = UrlKey(e.url);
    OpicVisits v = store_->OpicVisitsGet(h).value_or(OpicVisits{});
    if (auto c = credits_.find(h); c != credits_.end()) {
      v.credit += c->second;
      credits_.erase(c);
    }
    cash += v.credit;
    v.credit = 0;
    v.history += cash;
    history = v.history;
    store_->OpicVisitsPut(h, v);
  }
  total_history_ += cash;
  pending_[e.url] += cash;
  NoteState();
  FetchedScore s;
  s.cash = cash;
  s.importance = chain_.IndexerScore(ScoreDatum{e.url, e.depth, e.link_kind, cash}, history, total_history_);
  return s;
}

void OpicOrder::ApplyCredits() {
  for (const auto& [h, credit] : credits_) {
    OpicVisits v = store_->OpicVisitsGet(h).value_or(OpicVisits{});
    v.credit += credit;
    store_->OpicVisitsPut(h, v);
  }
  credits_.clear();
}

std::optional<OpicVisits> OpicOrder::VisitsOf(const std::string& url) {
  return store_->OpicVisitsGet(UrlKey(url));
}

void OpicOrder::Dropped(const FrontierEntry& e) { lost_ += e.cash; }

void OpicOrder::EndRequest() {
  ApplyInlinks();
  ApplyCredits();
  for (const auto& [u, c] : pending_) lost_ += c;
  pending_.clear();
  if (lost_ == 0 && (reserve_ == 0 || count_ == 0)) return;
  reserve_ += lost_;
  lost_ = 0;
  // Normalisation: the lost cash goes to every queued URL in equal parts.
  if (count_ > 0) {
    bonus_ += reserve_ / static_cast<double>(count_);
    reserve_ = 0;
  }
  NoteState();
}

std::optional<double> OpicOrder::CashOf(const std::string& u) {
  const uint64_t h = UrlKey(u);
  if (auto m = mem_hash_.find(h); m != mem_hash_.end()) return mem_.at(m->second).entry.cash + bonus_;
  auto key = store_->OpicFind(h);
  if (!key) return std::nullopt;
  auto e = store_->OpicGet(*key);
  if (!e) return std::nullopt;
  return e->cash + bonus_;
}

}  // namespace crawl::queueserver
