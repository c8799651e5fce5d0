// Crawl orders (docs/DESIGN.md §5): the part of the frontier that decides
// which ready URL a schedule takes next. The Frontier (queueserver/frontier/frontier.h)
// keeps the machinery every order shares: the URL-seen set, robots gating,
// robots.txt first, leases, one schedule per origin, crawl-delay slots and
// host back-off. An order sees a URL once it is new (to give it a tier or
// cash), once robots allow it (Push), while a schedule is filled (Pop /
// Unpop / Taken) and when its page was fetched (OnFetched).
//
// Orders:
//   bfs          one FIFO (docs/DESIGN.md §5.3);
//   host_budget  tiers from per-CLD SEEN/WSEEN/WIN (docs/DESIGN.md §5.1), one
//                tier per schedule round-robin, FIFO inside a tier; per-CLD
//                budgets from WIN (host_budget.h CldBudget);
//   opic         cash priority queue (docs/DESIGN.md §5.2, queueserver/frontier/opic_order.h);
//   structure    host_budget across hosts, imbWEM's site frontier inside one
//                (docs/DESIGN.md §5.4, queueserver/frontier/structure_order.h).
// Every change is reported to the FrontierJournal so the store persists it in
// the request's batch. Pure logic; not thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/base/clock.h"
#include "common/base/status.h"
#include "common/url/cld.h"
#include "common/url/url.h"
#include "queueserver/frontier/frontier_types.h"
#include "queueserver/frontier/host_budget.h"
#include "queueserver/frontier/scoring_filter.h"
#include "queueserver/frontier/scoring_filters.h"
#include "queueserver/frontier/site_control.h"
#include "queueserver/frontier/tier_store.h"

namespace crawl::queueserver {

class OpicStore;

// What the frontier knows about the page a group of links was found on.
struct PageContext {
  std::string url;  // the referrer ("" for seeds)
  // This queue server leased the page and saw its fetch in this request: the
  // fields below are known.
  bool fetched_here = false;
  // Links from AddUrls, found on a page another queue server scheduled: the
  // fetcher echoed that server's order data for the page (DiscoveredLink
  // 20-23), so tier, weight and cash are known too; without it (an older
  // fetcher) they are the defaults.
  bool scheduled_elsewhere = false;
  int32_t tier = 0;     // tier the page was scheduled from
  uint32_t weight = 0;  // the page's own weight w (its link rank)
  double cash = 0;      // opic: cash it gave up when fetched
  // opic, scheduled_elsewhere: s of the whole page (links within its CLD).
  uint32_t same_cld_links = 0;
};

// One discovered link.
struct LinkInput {
  FrontierEntry entry;         // url, referrer, depth
  uint32_t link_rank = 0;      // i (docs/DESIGN.md §5.1)
  uint32_t links_on_page = 0;  // n (docs/DESIGN.md §5.2); 0: unknown
  bool from_sitemap = false;
  bool likely_non_html = false;
  std::string anchor_text;  // structure: the target's link vector
  // A copy of a link the fetcher sent to the queue server that owns it: the
  // orders only book what it took from the page (opic's cash share); the
  // frontier neither queues it nor counts it as seen.
  bool sent_elsewhere = false;
  // The referrer's order data when another queue server scheduled it
  // (PageContext::scheduled_elsewhere); the same on every link of a page.
  bool referrer_known = false;
  int32_t referrer_tier = 0;
  uint32_t referrer_weight = 0;
  double referrer_cash = 0;
  uint32_t same_cld_links_on_page = 0;
  // Set by host_budget's OnLinks: a new URL past its CLD's budget
  // (host_budget.h CldBudget); the frontier keeps it seen but never queues it.
  bool over_budget = false;
};

// What an order reports about a fetched page, for the crawl log.
struct FetchedScore {
  int32_t tier = -1;      // host_budget tier (-1: other orders)
  double cash = 0;        // opic: cash moved to history
  double importance = 0;  // opic: indexer score (history / total)
};

// host_budget's bookkeeping of one link (docs/DESIGN.md §5.1), shared by the
// orders that tier by CLD (host_budget, structure): a new URL counts in its
// CLD's SEEN and WSEEN and gets its weight and tier; a new URL found on a
// page of another CLD (`cross`) also adds to WIN. Returns false when
// nothing changed (an old URL: Yioop adjusts WIN "as urls are added").
bool CountCldLink(CldStats& st, LinkInput& l, bool is_new, bool cross, const PageContext& page,
                  WseenIncrement wseen);

enum class OrderKind { kBfs, kHostBudget, kOpic, kStructure };
[[nodiscard]] Result<OrderKind> ParseOrder(std::string_view name);  // "" is host_budget

struct OrderOptions {
  OrderKind kind = OrderKind::kBfs;
  WseenIncrement wseen = WseenIncrement::kLog;
  CashSplit split = CashSplit::kCldAware;
  // The ScoringFilter chain ("" : the order's default: "opic" for the opic
  // order, none else) and its "filter.key=value" settings (scoring_filter.h).
  std::string scoring_filters;
  std::vector<std::string> scoring_params;
  size_t ram_budget_urls = 1'000'000;
  // opic in a recrawl: pages keep their cash and history across visits
  // (opic_order.h "Across visits").
  bool opic_revisits = false;
  // bfs and host_budget: URLs of each tier's head held in RAM (the rest stay
  // in the TierStore).
  size_t tier_window_urls = 4096;
  CldRule cld_rule = CldRule::kPublicSuffixList;
  size_t structure_load_take = 10;        // structure: targets per site iteration
  CldBudget budget;                       // host_budget: per-CLD URL budgets
  TierRule tier_rule = TierRule::kYioop;  // host_budget: how tiers are filed and served
  double beast_unit = 10;                 // TierRule::kBeast: B = unit x (1 + D)
  // structure: imbWEM's Objectives, control and passive rules
  // (site_control.h), and the clock its time criterion and reports read
  // (null: no time per site, reports without times). Must outlive the order.
  SiteControlOptions site_control;
  const Clock* clock = nullptr;
};

class FrontierOrder {
 public:
  virtual ~FrontierOrder() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Changes are reported to `journal` from now on (null: none).
  void SetJournal(FrontierJournal* journal) { journal_ = journal; }

  // A seed new to the seen set: fill in its order data.
  virtual void OnSeed(FrontierEntry& e, uint64_t seed_count) = 0;
  // The links of one page (all with referrer page.url), in page order;
  // is_new[k] says whether links[k] was new to the seen set. Fills in the
  // order data of the new ones; old ones may update queued URLs (opic).
  virtual void OnLinks(const PageContext& page, std::vector<LinkInput>& links,
                       const std::vector<bool>& is_new) = 0;
  // A schedule is about to be filled by Pop calls (host_budget picks its
  // tier here).
  virtual void BeginSchedule() {}
  // A URL robots allow joins the order; `front`: it was leased and comes
  // back unfetched, ahead of the URLs that arrived after it.
  virtual void Push(FrontierEntry e, bool front) = 0;
  // The next candidate for a schedule, or nothing when empty.
  [[nodiscard]] virtual std::optional<SeqEntry> Pop() = 0;
  // Puts back a candidate that was not taken. REQUIRES: candidates come back
  // in the reverse order of their Pop, with no other change in between.
  virtual void Unpop(SeqEntry e) = 0;
  // The candidate was leased: it leaves the order for good.
  virtual void Taken(const SeqEntry& e) = 0;
  // A leased page was fetched (not put back).
  virtual FetchedScore OnFetched(const FrontierEntry& e) = 0;
  // A URL with order data left the crawl without a fetch (robots disallow).
  virtual void Dropped(const FrontierEntry& /*e*/) {}
  // The end of one request (opic: restores lost cash).
  virtual void EndRequest() {}
  // The crawl's ScoringFilter chain (set once, before any other call).
  void SetChain(ScoringChain chain) { chain_ = std::move(chain); }
  [[nodiscard]] const ScoringChain& chain() const { return chain_; }
  // A leased page was fetched: its score becomes the chain's
  // PassScoreAfterProcessing of what the fetch record carried back
  // (`passed`; none: what the lease carried), then OnFetched.
  FetchedScore Fetched(FrontierEntry& e, std::optional<double> passed);
  [[nodiscard]] virtual size_t size() const = 0;
  // URLs queued per tier (orders without tiers: all in tier 0).
  [[nodiscard]] virtual std::map<int32_t, size_t> QueuedByTier() const { return {{0, size()}}; }
  // New URLs refused because their CLD was over its budget (host_budget).
  [[nodiscard]] virtual uint64_t over_budget() const { return 0; }
  // Visits every queued URL with its tier (as QueuedByTier counts it), in
  // the order Pop hands them out within a tier, until `visit` returns false
  // (the console's host page: Frontier::QueueOfHost). Read-only: changes
  // nothing in memory or in the store; a durable store is read as committed
  // (REQUIRES: between requests, no Pop outstanding). Errors are the
  // store's read errors.
  using QueuedVisitor = std::function<bool(int32_t tier, const FrontierEntry& e)>;
  [[nodiscard]] virtual Status VisitQueued(const QueuedVisitor& visit) const = 0;
  // Rebuilds what the journal recorded. REQUIRES: a new order.
  virtual void Restore(std::vector<SeqEntry> ready, std::vector<std::pair<std::string, CldStats>> clds,
                       const std::string& state) = 0;
  // structure: the GC and GB nodes the journal recorded (after Restore).
  virtual void RestoreStructure(const std::vector<StructureNodeRecord>& /*nodes*/) {}

 protected:
  // The chain changed a fetched page's score by `delta` (opic: books it).
  virtual void Rebook(double /*delta*/) {}
  // Orders that keep no score (bfs, host_budget, structure): tiers a URL
  // moves back by the chain, floor(-sort value) of a URL scored 0, in
  // [0, kMaxChainPenalty] (docs/ARCHITECTURE.md "Frontier").
  static constexpr int32_t kMaxChainPenalty = 8;
  [[nodiscard]] int32_t ChainPenalty(const FrontierEntry& e, bool seed) const;

  FrontierJournal* journal_ = nullptr;
  ScoringChain chain_;
};

// The ScoringFilter chain `options` names, with its settings (InvalidArgument
// for an unknown filter, key or value; order_scoring.cc).
[[nodiscard]] Result<ScoringChain> MakeOrderChain(const OrderOptions& options);

// The order `options` names. `opic_store` and `tier_store` (may be null:
// RAM only) are where the opic order and the tiered orders keep their
// queues; they must outlive the order.
[[nodiscard]] Result<std::unique_ptr<FrontierOrder>> MakeOrder(const OrderOptions& options,
                                                               OpicStore* opic_store,
                                                               TierStore* tier_store = nullptr);

// bfs and host_budget: FIFO queues by tier (bfs has the one tier 0), in
// sequence-number order. Every queued URL is filed in the TierStore (in the
// request's batch); RAM holds at most tier_window_urls of each tier's head
// (its window) and the count of the rest. Invariant per tier: the window is
// the tier's first entries (after those handed out by Pop), and every entry
// not in it has a sequence number above `loaded_to`; a Pop on an empty
// window reads the next chunk. Restore reads only the per-tier counts and
// bounds; the round-robin cursor is the order's persisted state.
class TieredOrder final : public FrontierOrder {
 public:
  // `store` (null: a MemoryTierStore of its own) must outlive the order.
  explicit TieredOrder(const OrderOptions& options, TierStore* store = nullptr);
  [[nodiscard]] std::string_view name() const override;
  void OnSeed(FrontierEntry& e, uint64_t seed_count) override;
  void OnLinks(const PageContext& page, std::vector<LinkInput>& links,
               const std::vector<bool>& is_new) override;
  void BeginSchedule() override { schedule_begun_ = true; }
  void Push(FrontierEntry e, bool front) override;
  [[nodiscard]] std::optional<SeqEntry> Pop() override;
  void Unpop(SeqEntry e) override;
  void Taken(const SeqEntry& e) override;
  FetchedScore OnFetched(const FrontierEntry& e) override;
  [[nodiscard]] size_t size() const override { return size_; }
  [[nodiscard]] uint64_t over_budget() const override { return over_budget_; }
  void Restore(std::vector<SeqEntry> ready, std::vector<std::pair<std::string, CldStats>> clds,
               const std::string& state) override;

  // host_budget statistics of a CLD (zeros when unknown); for tests and stats.
  [[nodiscard]] CldStats Stats(const std::string& cld) const;
  // URLs queued in `tier`.
  [[nodiscard]] size_t TierSize(int32_t tier) const;
  [[nodiscard]] std::map<int32_t, size_t> QueuedByTier() const override;
  // From the TierStore, where every queued URL is filed: tier by tier,
  // lowest first, in sequence order (the window is the tier's head).
  [[nodiscard]] Status VisitQueued(const QueuedVisitor& visit) const override;
  // URLs held in RAM over all tier windows (tests, stats).
  [[nodiscard]] size_t in_memory() const;

 private:
  [[nodiscard]] bool budget() const { return options_.kind == OrderKind::kHostBudget; }
  using CldEntry = std::pair<const std::string, CldStats>;
  // The CLD of a URL's host ("" when it has none) and its statistics.
  CldEntry& CldOf(const std::string& url);
  // Counts a new URL of a CLD found as link i and returns its tier.
  int32_t FileNew(CldStats& st, uint32_t i, bool sitemap, bool non_html);

  struct Tier {
    std::deque<SeqEntry> window;  // the head, ascending seq
    uint64_t spilled = 0;         // entries in the store only
    uint64_t loaded_to = 0;       // entries above this seq are not in the window
    [[nodiscard]] size_t size() const { return window.size() + spilled; }
  };
  int32_t TierOf(const FrontierEntry& e) const { return budget() || !chain_.empty() ? e.tier : 0; }
  // Drops the window's tail past the budget (it stays in the store).
  void Trim(Tier& t);
  void Refill(int32_t tier, Tier& t);
  void NoteState();
  // The first non-empty tier at or after `from`, wrapping around.
  // REQUIRES: size_ > 0.
  std::map<int32_t, Tier>::iterator NonEmptyFrom(int32_t from);
  SeqEntry PopFrom(Tier& t);  // the window's front, marked popped

  OrderOptions options_;
  MemoryTierStore own_store_;
  TierStore* store_;
  std::map<int32_t, Tier> tiers_;
  // Candidates handed out by Pop and not yet Taken or Unpopped.
  std::unordered_set<uint64_t> popped_;
  std::unordered_map<std::string, CldStats> clds_;
  // CLD of recently seen hosts (CldOf), cleared when it reaches its size.
  static constexpr size_t kHostCacheSize = 1 << 16;
  StringMap<CldEntry*> host_cld_;
  url::OriginMemo origin_memo_;  // CldOf's host of a URL
  std::string last_host_;
  CldEntry* last_cld_ = nullptr;
  size_t size_ = 0;
  int32_t cursor_ = 0;          // round-robin: the next schedule starts at this tier
  int32_t current_ = 0;         // the tier the current schedule is made from
  bool schedule_begun_ = true;  // the next Pop picks the schedule's tier
  uint64_t over_budget_ = 0;
  uint64_t front_seq_ = (uint64_t{1} << 62) - 1;
  uint64_t back_seq_ = uint64_t{1} << 62;
};

}  // namespace crawl::queueserver
