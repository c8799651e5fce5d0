// The structure crawl order (docs/DESIGN.md §5.4, after imbWEM): host_budget
// decides which host gets the next slot, imbWEM's site frontier
// (queueserver/frontier/site_frontier.h with the structure module of
// queueserver/frontier/structure_module.h) decides which pages of that host.
//
// Across hosts. Every host (origin) is one site with its SiteContext. The
// host_budget statistics (SEEN, WSEEN, WIN per CLD, docs/DESIGN.md §5.1) are kept
// as in host_budget, and a site's tier is its CLD's current tier
// floor(log10(max(1, WSEEN - WIN))). Pop takes tiers round-robin like
// host_budget and, inside a tier, the site served least recently.
//
// Inside a host. A site's known pages are its active targets. When a site
// with nothing in flight is picked and its batch is empty, one iteration of
// its site frontier runs and its load (at most load_take targets) becomes the
// batch that Pop hands out. The site runs no new iteration while pages of
// its batch are popped, leased or being fetched: like imbWEM's crawl loop,
// the next iteration sees the pages the last one loaded as crawled (GC) and
// the links found on them as targets. (The Frontier also holds an origin in
// one schedule at a time, so a host's pages of one iteration travel
// together.)
//
// Sessions and reports (imbWEM's Crawling Context and Reporting Engine). A
// site's session opens at its first iteration. It ends when the site is
// idle (nothing active, batched, popped or in flight; or only targets that
// control rules exclude) at the end of a request, or when an Objective or a
// control rule ended it and its last load is back. Its SiteReport
// (site_report.h) then waits for TakeReports. New targets re-open a site
// whose session ended idle (its context and graphs kept, the report written
// again); a site whose objective ended stays closed. EndSessions closes
// every open session (the crawl stopped or is done).
//
// Persistence. Targets are the journal's page queue (Queued/Dequeued, one
// sequence number each); GC and GB nodes are written through the journal's
// StructureNodeChanged (column family "structure"); host_budget statistics
// through CldChanged; the session's numbers (SiteMetrics counts, start
// time, whether and why it ended) as StructureNodeChanged records of graph
// 'S'. After a restart the per-iteration layer sizes, the batch, the in-flight set, passive
// results (evaluated again on demand: they depend on the target only) and
// the crawled-URL set of each context start empty; GC and GB come back.
// Pure logic; not thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "queueserver/frontier/frontier_order.h"
#include "queueserver/frontier/site_frontier.h"
#include "queueserver/frontier/site_report.h"
#include "queueserver/frontier/structure_module.h"

namespace crawl::queueserver {

class StructureOrder final : public FrontierOrder {
 public:
  explicit StructureOrder(const OrderOptions& options);
  [[nodiscard]] std::string_view name() const override { return "structure"; }
  void OnSeed(FrontierEntry& e, uint64_t seed_count) override;
  void OnLinks(const PageContext& page, std::vector<LinkInput>& links,
               const std::vector<bool>& is_new) override;
  void Push(FrontierEntry e, bool front) override;
  [[nodiscard]] std::optional<SeqEntry> Pop() override;
  void Unpop(SeqEntry e) override;
  void Taken(const SeqEntry& e) override;
  FetchedScore OnFetched(const FrontierEntry& e) override;
  void Dropped(const FrontierEntry& e) override;
  // Closes the sessions of the sites that went idle in this request.
  void EndRequest() override;
  [[nodiscard]] size_t size() const override { return size_; }
  void Restore(std::vector<SeqEntry> ready, std::vector<std::pair<std::string, CldStats>> clds,
               const std::string& state) override;
  void RestoreStructure(const std::vector<StructureNodeRecord>& nodes) override;
  // From memory, site by site (origin order) with the site's tier: its
  // batch in order, then its other targets by arrival (which of them the
  // next iteration loads is the site frontier's choice).
  [[nodiscard]] Status VisitQueued(const QueuedVisitor& visit) const override;

  // Closes every open session with `reason` ("crawl ended"), or its
  // Objective's when one ended it.
  void EndSessions(const std::string& reason);
  // The reports of the sessions closed since the last call, in order.
  std::vector<SiteReport> TakeReports() { return std::exchange(reports_, {}); }

  // Tests and stats.
  struct Totals {
    size_t sites = 0, gc_nodes = 0, gb_nodes = 0;
  };
  [[nodiscard]] Totals totals() const;
  [[nodiscard]] const StructureModule* ModuleOf(const std::string& origin) const;
  [[nodiscard]] const SiteContext* ContextOf(const std::string& origin) const;
  [[nodiscard]] CldStats Stats(const std::string& cld) const;

 private:
  struct Site {
    Site(const std::string& origin, const OrderOptions& options);
    SiteContext ctx;
    SiteFrontier frontier;
    StructureModule* structure = nullptr;  // owned by `frontier`
    std::string cld;
    std::unordered_map<std::string, SeqEntry> entries;  // active targets' frontier entries
    std::deque<SeqEntry> batch;                         // the last iteration's load, not yet popped
    size_t popped = 0;                                  // handed out by Pop, not yet Taken or Unpopped
    std::unordered_set<std::string> inflight;           // leased, not yet fetched or back
    bool stale = false;    // its last iteration loaded nothing; nothing changed since
    uint64_t served = 0;   // when Pop last picked it
    bool open = false;     // its session runs
    uint64_t reports = 0;  // reports written for it
  };
  Site& SiteFor(const std::string& url);
  Site* FindSite(const std::string& url);
  [[nodiscard]] bool Candidate(const Site& s) const;
  [[nodiscard]] int32_t TierOf(const Site& s) const;
  void Iterate(Site& s);
  void Journal(const std::string& origin, StructureModule& m);
  // Writes the session's numbers ('S' records).
  void JournalSession(const Site& s);
  void RestoreSession(Site& s, const std::string& name, double value);
  [[nodiscard]] bool Idle(const Site& s) const;
  void Finish(Site& s, const std::string& reason);
  [[nodiscard]] int64_t Now() const { return options_.clock ? options_.clock->NowUnixMs() : 0; }
  std::string CldOf(const std::string& url) const;

  OrderOptions options_;
  std::map<std::string, std::unique_ptr<Site>> sites_;
  std::unordered_map<std::string, CldStats> clds_;
  // Links to URLs not yet pushed (waiting for robots.txt): their link vector.
  std::unordered_map<std::string, std::vector<TargetLink>> pending_links_;
  std::set<std::string> touched_;  // origins of the sites changed in this request
  std::vector<SiteReport> reports_;
  size_t size_ = 0;
  int32_t cursor_ = 0;
  uint64_t serve_clock_ = 0;
  uint64_t front_seq_ = (uint64_t{1} << 62) - 1;
  uint64_t back_seq_ = uint64_t{1} << 62;
};

}  // namespace crawl::queueserver
