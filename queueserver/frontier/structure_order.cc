#include "queueserver/frontier/structure_order.h"

#include <algorithm>
#include <cmath>

#include "common/url/url.h"
#include "queueserver/frontier/host_budget.h"

namespace crawl::queueserver {
namespace {

// Why a session ended, as persisted ('S' record "ended"): 0 while it runs.
constexpr const char* kEndReasons[] = {"", "objective.pages", "objective.time", "control"};

double EndCode(const SiteContext& ctx) {
  if (!ctx.objective_ended()) return 0;
  for (size_t i = 1; i < std::size(kEndReasons); ++i) {
    if (ctx.end_reason() == kEndReasons[i]) return static_cast<double>(i);
  }
  return 3;
}

std::string OriginKey(const std::string& u) {
  auto origin = url::OriginOf(u);
  return origin.ok() ? *origin : std::string();
}

// The crawl's ScoringFilter chain as an active ranking rule of a site's
// frontier: a target's score gains the chain's sort value of a URL scored
// 0 (depth: -weight per level; link-kind: sort_bias * log2 of its weight).
class ChainRankRule final : public Rule {
 public:
  ChainRankRule(const ScoringChain* chain, const std::unordered_map<std::string, SeqEntry>* entries)
      : chain_(chain), entries_(entries) {}
  [[nodiscard]] std::string signature() const override { return "scoring.chain"; }
  [[nodiscard]] Kind kind() const override { return Kind::kActive; }
  [[nodiscard]] RuleResult Evaluate(const Target& t, const SiteContext& /*ctx*/) override {
    RuleResult r;
    auto it = entries_->find(t.url());
    if (it == entries_->end()) return r;
    const FrontierEntry& e = it->second.entry;
    ScoreDatum d{e.url, e.depth, e.link_kind, 0.0};
    d.score = chain_->InitialScore(d);
    r.score = chain_->GeneratorSortValue(d);
    if (!std::isfinite(r.score)) r.score = 0;
    return r;
  }

 private:
  const ScoringChain* chain_;
  const std::unordered_map<std::string, SeqEntry>* entries_;
};

}  // namespace

StructureOrder::Site::Site(const std::string& origin, const OrderOptions& options)
    : ctx(origin), frontier(options.structure_load_take) {
  // docs/DESIGN.md §5.4: layer modules (the structure module), then ranking
  // modules (structure rank, then keyword relevance if the crawl has
  // keywords), then the control module and the Objectives the crawl asks
  // for (site_control.h).
  auto module = std::make_unique<StructureModule>();
  structure = module.get();
  frontier.AddLayerModule(std::move(module));
  auto rank = std::make_unique<RankingModule>("structure rank");
  rank->AddRule(std::make_unique<StructureRankRule>(structure));
  frontier.AddRankingModule(std::move(rank));
  AddSiteControl(options.site_control, frontier);
}

StructureOrder::StructureOrder(const OrderOptions& options) : options_(options) {}

std::string StructureOrder::CldOf(const std::string& u) const {
  const std::string host = url::HostOf(u);
  if (host.empty()) return host;
  auto cld = CompanyLevelDomain(host, options_.cld_rule);
  return cld.ok() ? *cld : host;
}

StructureOrder::Site& StructureOrder::SiteFor(const std::string& u) {
  const std::string origin = OriginKey(u);
  auto it = sites_.find(origin);
  if (it == sites_.end()) {
    it = sites_.emplace(origin, std::make_unique<Site>(origin, options_)).first;
    it->second->cld = CldOf(u);
    if (!chain_.empty()) {
      auto rank = std::make_unique<RankingModule>("scoring chain");
      rank->AddRule(std::make_unique<ChainRankRule>(&chain_, &it->second->entries));
      it->second->frontier.AddRankingModule(std::move(rank));
    }
  }
  return *it->second;
}

StructureOrder::Site* StructureOrder::FindSite(const std::string& u) {
  auto it = sites_.find(OriginKey(u));
  return it == sites_.end() ? nullptr : it->second.get();
}

// host_budget statistics, as TieredOrder keeps them (docs/DESIGN.md §5.1).
void StructureOrder::OnSeed(FrontierEntry& e, uint64_t /*seed_count*/) {
  const std::string cld = CldOf(e.url);
  CldStats& st = clds_[cld];
  st.seen += 1;
  st.wseen += WseenStep(options_.wseen, 0);
  e.weight = 0;
  e.tier = TierFor(st, false, false);
  if (journal_) journal_->CldChanged(cld, st);
}

void StructureOrder::OnLinks(const PageContext& page, std::vector<LinkInput>& links,
                             const std::vector<bool>& is_new) {
  const std::string from_cld = page.url.empty() ? std::string() : CldOf(page.url);
  for (size_t k = 0; k < links.size(); ++k) {
    LinkInput& l = links[k];
    if (l.sent_elsewhere) continue;  // its owner files it
    // The target's link vector: a link to an active target joins it; a link
    // to a new URL waits for the URL's Push.
    if (is_new[k]) {
      pending_links_[l.entry.url].push_back(TargetLink{page.url, l.anchor_text});
    } else if (Site* s = FindSite(l.entry.url)) {
      if (Target* t = s->ctx.Find(l.entry.url)) t->AddLink(page.url, l.anchor_text);
    }
    const std::string cld = CldOf(l.entry.url);
    const bool cross = !page.url.empty() && cld != from_cld;
    if (!is_new[k] && !cross) continue;
    CldStats& st = clds_[cld];
    (void)CountCldLink(st, l, is_new[k], cross, page, options_.wseen);
    if (journal_) journal_->CldChanged(cld, st);
  }
}

void StructureOrder::Push(FrontierEntry e, bool front) {
  Site& s = SiteFor(e.url);
  touched_.insert(s.ctx.host());
  if (s.inflight.erase(e.url) > 0) {
    ++s.ctx.metrics().returned;
    JournalSession(s);
  }
  auto pending = pending_links_.extract(e.url);
  // An ended site's crawl is over; a URL already queued is not queued twice.
  if (s.ctx.objective_ended() || s.entries.count(e.url) > 0) return;
  SeqEntry se{front ? front_seq_-- : back_seq_++, std::move(e)};
  Target& t = s.ctx.AddTarget(se.entry.url, se.seq);
  if (!pending.empty()) {
    for (TargetLink& l : pending.mapped()) t.AddLink(std::move(l.referrer), std::move(l.anchor_text));
  } else if (!se.entry.referrer.empty()) {
    t.AddLink(se.entry.referrer, "");
  }
  if (journal_) journal_->Queued(QueueKind::kPages, se);
  s.entries.emplace(se.entry.url, std::move(se));
  s.stale = false;
  ++size_;
}

bool StructureOrder::Candidate(const Site& s) const {
  if (!s.batch.empty()) return true;
  return s.popped == 0 && s.inflight.empty() && !s.stale && !s.ctx.objective_ended() &&
         s.ctx.active_size() > 0;
}

int32_t StructureOrder::TierOf(const Site& s) const {
  auto it = clds_.find(s.cld);
  return it == clds_.end() ? 0 : TierFor(it->second, false, false);
}

void StructureOrder::Journal(const std::string& origin, StructureModule& m) {
  std::vector<GraphChange> changes = m.TakeChanges();
  if (!journal_) return;
  for (GraphChange& c : changes)
    journal_->StructureNodeChanged(StructureNodeRecord{origin, c.graph, c.node, c.value});
}

void StructureOrder::Iterate(Site& s) {
  touched_.insert(s.ctx.host());
  s.ctx.set_now_ms(Now());
  if (!s.open && !s.ctx.objective_ended()) {
    // The session opens (or a site re-opened by new targets resumes it).
    s.open = true;
    if (s.ctx.started_ms() == 0) s.ctx.set_started_ms(s.ctx.now_ms());
  }
  IterationOutcome out = s.frontier.Iterate(s.ctx);
  for (Target& t : out.load) {
    auto it = s.entries.find(t.url());
    if (it == s.entries.end()) continue;
    s.batch.push_back(std::move(it->second));
    s.entries.erase(it);
  }
  for (Target& t : out.dismissed) {
    auto it = s.entries.find(t.url());
    if (it == s.entries.end()) continue;
    if (journal_) journal_->Dequeued(QueueKind::kPages, it->second.seq);
    s.entries.erase(it);
    --size_;
  }
  Journal(s.ctx.host(), *s.structure);
  JournalSession(s);
  // Nothing loaded and nothing dismissed: the same input would give the same
  // answer, so the site waits for a change. Targets dismissed (a whole first
  // layer, by control rules) change the input: the next iteration may load.
  if (out.load.empty() && out.dismissed.empty()) s.stale = true;
}

std::optional<SeqEntry> StructureOrder::Pop() {
  while (size_ > 0) {
    // host_budget across hosts: tiers round-robin from the cursor, and in the
    // tier the site served least recently. O(sites) per call.
    Site* best = nullptr;
    int32_t best_tier = 0;
    bool best_after = false;
    for (auto& [origin, site] : sites_) {
      if (!Candidate(*site)) continue;
      const int32_t tier = TierOf(*site);
      const bool after = tier >= cursor_;
      bool better = best == nullptr;
      if (!better) {
        if (after != best_after) {
          better = after;
        } else if (tier != best_tier) {
          better = tier < best_tier;
        } else {
          better = site->served < best->served;
        }
      }
      if (better) {
        best = site.get();
        best_tier = tier;
        best_after = after;
      }
    }
    if (best == nullptr) return std::nullopt;
    best->served = ++serve_clock_;
    if (best->batch.empty()) {
      Iterate(*best);
      if (best->batch.empty()) continue;  // stale now: not a candidate
    }
    cursor_ = best_tier + 1;
    SeqEntry e = std::move(best->batch.front());
    best->batch.pop_front();
    ++best->popped;
    --size_;
    return e;
  }
  return std::nullopt;
}

Status StructureOrder::VisitQueued(const QueuedVisitor& visit) const {
  std::vector<const SeqEntry*> targets;
  for (const auto& [origin, site] : sites_) {
    const int32_t tier = TierOf(*site);
    for (const SeqEntry& e : site->batch)
      if (!visit(tier, e.entry)) return Status::Ok();
    targets.clear();
    for (const auto& [url, e] : site->entries) targets.push_back(&e);
    std::sort(targets.begin(), targets.end(),
              [](const SeqEntry* a, const SeqEntry* b) { return a->seq < b->seq; });
    for (const SeqEntry* e : targets)
      if (!visit(tier, e->entry)) return Status::Ok();
  }
  return Status::Ok();
}

void StructureOrder::Unpop(SeqEntry e) {
  Site& s = SiteFor(e.entry.url);
  if (s.popped > 0) --s.popped;
  s.batch.push_front(std::move(e));
  ++size_;
}

void StructureOrder::Taken(const SeqEntry& e) {
  Site& s = SiteFor(e.entry.url);
  touched_.insert(s.ctx.host());
  if (s.popped > 0) --s.popped;
  s.inflight.insert(e.entry.url);
  if (journal_) journal_->Dequeued(QueueKind::kPages, e.seq);
}

FetchedScore StructureOrder::OnFetched(const FrontierEntry& e) {
  Site& s = SiteFor(e.url);
  touched_.insert(s.ctx.host());
  s.inflight.erase(e.url);
  s.frontier.OnCrawled(s.ctx, e.url);
  Journal(s.ctx.host(), *s.structure);
  JournalSession(s);
  s.stale = false;
  FetchedScore score;
  score.importance = chain_.IndexerScore(ScoreDatum{e.url, e.depth, e.link_kind, e.cash}, 0, 0);
  return score;
}

void StructureOrder::Dropped(const FrontierEntry& e) {
  pending_links_.erase(e.url);
  if (Site* s = FindSite(e.url)) {
    s->inflight.erase(e.url);
    touched_.insert(s->ctx.host());
  }
}

void StructureOrder::Restore(std::vector<SeqEntry> ready, std::vector<std::pair<std::string, CldStats>> clds,
                             const std::string& /*state*/) {
  std::sort(ready.begin(), ready.end(), [](const SeqEntry& a, const SeqEntry& b) { return a.seq < b.seq; });
  if (!ready.empty()) {
    front_seq_ = std::min(front_seq_, ready.front().seq - 1);
    back_seq_ = std::max(back_seq_, ready.back().seq + 1);
  }
  for (auto& [cld, st] : clds) clds_[cld] = st;
  for (SeqEntry& e : ready) {
    Site& s = SiteFor(e.entry.url);
    if (s.entries.count(e.entry.url) > 0) continue;
    Target& t = s.ctx.AddTarget(e.entry.url, e.seq);
    if (!e.entry.referrer.empty()) t.AddLink(e.entry.referrer, "");
    std::string u = e.entry.url;
    s.entries.emplace(std::move(u), std::move(e));
    ++size_;
  }
}

void StructureOrder::RestoreStructure(const std::vector<StructureNodeRecord>& nodes) {
  for (const StructureNodeRecord& n : nodes) {
    auto it = sites_.find(n.origin);
    if (it == sites_.end()) {
      // A host whose targets are all fetched still keeps its graphs.
      it = sites_.emplace(n.origin, std::make_unique<Site>(n.origin, options_)).first;
      it->second->cld = CldOf(n.origin + "/");
    }
    if (n.graph == 'S') {
      RestoreSession(*it->second, n.node, n.value);
    } else {
      it->second->structure->RestoreNode(n.graph, n.node, n.value);
    }
  }
  // A site still open may have nothing left to do: its last targets were
  // fetched by a schedule the stop cut short, or re-queued with it and
  // done elsewhere. Nothing would touch it again, so it would never end
  // nor get its report: the end of the next request looks at each.
  for (const auto& [origin, site] : sites_) {
    if (site->open) touched_.insert(origin);
  }
}

void StructureOrder::JournalSession(const Site& s) {
  if (!journal_) return;
  const SiteMetrics& m = s.ctx.metrics();
  const std::pair<const char*, double> values[] = {
      {"open", s.open ? 1.0 : 0.0},
      {"ended", EndCode(s.ctx)},
      {"started_ms", static_cast<double>(s.ctx.started_ms())},
      {"reports", static_cast<double>(s.reports)},
      {"iterations", static_cast<double>(m.iterations)},
      {"loaded", static_cast<double>(m.loaded)},
      {"returned", static_cast<double>(m.returned)},
      {"crawled", static_cast<double>(m.crawled)},
      {"excluded", static_cast<double>(m.excluded)},
      {"dismissed", static_cast<double>(m.dismissed)},
      {"targets", static_cast<double>(m.targets)},
  };
  for (const auto& [name, value] : values)
    journal_->StructureNodeChanged(StructureNodeRecord{s.ctx.host(), 'S', name, value});
}

void StructureOrder::RestoreSession(Site& s, const std::string& name, double value) {
  if (!(value >= 0) || value > 9e15) return;  // not a value this order wrote
  const auto n = static_cast<uint64_t>(value);
  SiteMetrics& m = s.ctx.metrics();
  if (name == "open") {
    s.open = n != 0;
  } else if (name == "ended") {
    if (n > 0) s.ctx.EndObjective(kEndReasons[std::min<size_t>(n, std::size(kEndReasons) - 1)]);
  } else if (name == "started_ms") {
    s.ctx.set_started_ms(static_cast<int64_t>(n));
  } else if (name == "reports") {
    s.reports = n;
  } else if (name == "iterations") {
    m.iterations = n;
  } else if (name == "loaded") {
    m.loaded = n;
  } else if (name == "returned") {
    m.returned = n;
  } else if (name == "crawled") {
    m.crawled = n;
  } else if (name == "excluded") {
    m.excluded = n;
  } else if (name == "dismissed") {
    m.dismissed = n;
  } else if (name == "targets") {
    m.targets = n;
  }
}

bool StructureOrder::Idle(const Site& s) const {
  if (!s.batch.empty() || s.popped > 0 || !s.inflight.empty()) return false;
  return s.ctx.active_size() == 0 || s.stale || s.ctx.objective_ended();
}

void StructureOrder::Finish(Site& s, const std::string& reason) {
  s.open = false;
  ++s.reports;
  const int64_t now = Now();
  const std::string why = s.ctx.objective_ended() ? s.ctx.end_reason() : reason;
  reports_.push_back(MakeSiteReport(s.ctx, s.structure->layer_names(), why, now, s.reports));
  JournalSession(s);
}

void StructureOrder::EndRequest() {
  for (const std::string& origin : touched_) {
    auto it = sites_.find(origin);
    if (it != sites_.end() && it->second->open && Idle(*it->second)) Finish(*it->second, "exhausted");
  }
  touched_.clear();
}

void StructureOrder::EndSessions(const std::string& reason) {
  touched_.clear();
  for (auto& [origin, site] : sites_) {
    if (site->open) Finish(*site, reason);
  }
}

const StructureModule* StructureOrder::ModuleOf(const std::string& origin) const {
  auto it = sites_.find(origin);
  return it == sites_.end() ? nullptr : it->second->structure;
}

const SiteContext* StructureOrder::ContextOf(const std::string& origin) const {
  auto it = sites_.find(origin);
  return it == sites_.end() ? nullptr : &it->second->ctx;
}

StructureOrder::Totals StructureOrder::totals() const {
  Totals t;
  t.sites = sites_.size();
  for (const auto& [origin, site] : sites_) {
    t.gc_nodes += site->structure->gc().size();
    t.gb_nodes += site->structure->gb().size();
  }
  return t;
}

CldStats StructureOrder::Stats(const std::string& cld) const {
  auto it = clds_.find(cld);
  return it == clds_.end() ? CldStats{} : it->second;
}

}  // namespace crawl::queueserver
