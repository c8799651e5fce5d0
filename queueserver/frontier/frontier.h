// The queue server's frontier for one crawl: URL-seen set, robots gating per
// origin, the URLs ready to fetch, and leased schedules.
//
// The order of the ready pages is a FrontierOrder (queueserver/frontier/
// frontier_order.h: bfs, host_budget, opic, structure); this class is the
// machinery every order shares. The orders keep their queues where they
// say (bfs and host_budget in tiers on disk with a window in memory,
// queueserver/frontier/tier_store.h; opic on disk past a memory budget;
// structure in memory); every change is also reported to an optional FrontierJournal
// so a store can persist it (queueserver/store/queue_store.h), and Restore()
// rebuilds the frontier from what the store kept. Its promises:
//   - a URL enters at most once (8-byte URL hash; see UrlSeen below);
//   - a host's URLs wait until its robots.txt has been fetched, and URLs that
//     robots.txt disallows never enter the queue (docs/DESIGN.md §5.1);
//   - robots.txt expires (RFC 9309 2.4, at most 24 h): an expired one is
//     fetched again before the origin's next pages, which keep the old rules
//     meanwhile; pages the new rules disallow are dropped when they come up,
//     and recently refused URLs the new rules allow enter (frontier_robots.cc);
//   - robots.txt URLs are scheduled before any page;
//   - a URL handed out is leased: reported back, or put back in the queue
//     when its schedule ends without it or its lease expires;
//   - at most one schedule at a time holds URLs of a given origin, so the
//     cluster opens at most one connection per host;
//   - a host answering 429/503 or unreachable is backed off, and parked when
//     it keeps failing (queueserver/frontier/host_backoff.h); its URLs stay queued;
//   - a host with more than host_error_threshold HTTP errors in one schedule
//     becomes crawl-delayed (docs/DESIGN.md §5.1).
//
// Pure logic: no I/O, no clock (times are passed in). Not thread-safe: the
// owner serialises calls.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/url/robots.h"
#include "common/url/url.h"
#include "queueserver/frontier/frontier_order.h"
#include "queueserver/frontier/frontier_types.h"
#include "queueserver/frontier/host_backoff.h"
#include "queueserver/frontier/origin_pace.h"
#include "queueserver/frontier/trap_rules.h"
#include "queueserver/frontier/url_seen.h"

namespace crawl::queueserver {

// A leased schedule as handed to a fetcher.
struct Schedule {
  uint64_t id = 0;  // 0: nothing to fetch right now
  int64_t lease_deadline_ms = 0;
  std::vector<FrontierEntry> entries;
  // Origins with a robots.txt Crawl-delay: the spacing (ms) the fetcher
  // keeps between request starts on that origin.
  std::map<std::string, int64_t> crawl_delay_ms;
  // Origins whose fetches reported a pace: the last one (ms), for the
  // fetcher to start from (ScheduledUrl.start_pace_ms; origin_pace.h).
  std::map<std::string, uint32_t> start_pace_ms;
};

// What a fetch of a leased URL came to, as far as the frontier cares.
struct FetchOutcome {
  std::string url;
  UrlKind kind = UrlKind::kPage;
  int status = 0;                    // HTTP status or negative network error
  std::string robots_body;           // robots.txt body when kind == kRobots
  uint32_t retry_after_seconds = 0;  // Retry-After of a 429/503 answer
  // What the fetch record carried back of the lease's scoring datum
  // (FetchRecord.scoring_datum); none from a fetcher that does not echo it.
  std::optional<double> scoring_datum;
  // robots.txt: the answer's own cache lifetime (FetchRecord.expires_unix_s: max-age or
  // Expires, absolute unix seconds); 0 when it gave none.
  int64_t expires_unix_s = 0;
  // Politeness as the fetcher saw it (FetchRecord remote_ip, pace_ms,
  // fetch_ms): kept in RAM per origin (origin_pace.h), not journaled.
  std::string remote_ip;
  uint32_t pace_ms = 0;
  uint32_t fetch_ms = 0;
};

// What Report did with an outcome.
struct ReportResult {
  bool requeued = false;  // a 429/503 page went back to the queue
  FetchedScore score;     // the order's view of the fetched page
};

// Per-crawl caps on the new URLs one origin may add to the frontier
// (CrawlParams.max_urls_per_host and neighbours): past them a URL is
// counted (OriginRecord.over_cap, FrontierCounters.over_host_cap), kept
// seen and never queued, so one host cannot fill a queue server's memory
// and disk whatever it links or lists in sitemaps (host_caps.cc).
struct HostCaps {
  uint64_t max_urls = 100'000;          // an origin without a seed
  uint64_t max_urls_seed = 1'000'000;   // an origin with a seed
  uint64_t max_sitemap_urls = 100'000;  // of them, from sitemaps
};
// Each origin's counts are saved with its record every this many URLs
// (and at the cap): a restart may let an origin add this many again.
inline constexpr uint64_t kHostCapSaveEvery = 1024;

struct FrontierOptions {
  // Product token matched against robots.txt user-agent lines.
  std::string user_agent = "crawlbot";
  // How long a schedule may stay out before its URLs are re-queued.
  int64_t lease_ms = 300'000;
  // robots.txt fetches that fail with 5xx or a network error are retried
  // this many times, `robots_retry_ms` apart; after that the origin counts
  // as fully disallowed (RFC 9309 section 2.3.1.4).
  int robots_attempts = 3;
  int64_t robots_retry_ms = 10'000;
  // robots.txt expiry (RFC 9309 2.4): rules are fetched again after at most
  // `robots_max_age_ms`, or the answer's cache lifetime if shorter but not
  // under `robots_min_age_ms` (a max-age=0 server is not asked every
  // schedule). A re-fetch that stays unreachable keeps the old rules and is
  // tried again after `robots_unreachable_ms`.
  int64_t robots_max_age_ms = 86'400'000;
  int64_t robots_min_age_ms = 60'000;
  int64_t robots_unreachable_ms = 3'600'000;
  // URLs refused as robots-disallowed kept (in memory) to re-check when the
  // origin's rules change: at most this many per origin and in all.
  size_t robots_recheck_per_origin = 16;
  size_t robots_recheck_total = 100'000;
  // Most queue entries one Lease call looks at past busy origins, which
  // bounds its cost when the queue head is one busy host.
  size_t lease_scan_limit = 50'000;
  // Crawl-delay (robots.txt) is honoured up to this much; a larger value is
  // read as this one, so a hostile Crawl-delay cannot stall a host forever.
  int64_t max_crawl_delay_ms = 60'000;
  // Schedule slots (docs/DESIGN.md §5.1): a crawl-delayed origin gets at most one
  // URL per slot of this many URLs of the schedule's size.
  size_t slot_size = 100;
  // The crawl order and its options.
  OrderOptions order;
  BackoffOptions backoff;
  // docs/DESIGN.md §5.1: a host with more than this many HTTP errors in one
  // schedule becomes crawl-delayed, its URLs this far apart.
  uint32_t host_error_threshold = 50;
  int64_t error_crawl_delay_ms = 1'000;
  // Politeness floor (CrawlParams.min_host_delay_ms): every origin is
  // crawl-delayed by at least this much (0: only robots and errors delay).
  int64_t min_host_delay_ms = 0;
  // Heritrix-style trap rules every discovered link must pass (seeds are
  // exempt): queueserver/frontier/trap_rules.h.
  TrapRules trap_rules;
  HostCaps host_caps;
};

struct FrontierCounters {
  uint64_t frontier_size = 0;  // ready + robots-ready + waiting for robots
  uint64_t leased_urls = 0;
  uint64_t outstanding_schedules = 0;
  uint64_t urls_seen = 0;
  uint64_t hosts = 0;
  uint64_t robots_disallowed = 0;
  uint64_t activity = 0;        // grows on every state change
  uint64_t leases_expired = 0;  // schedules whose lease ran out (since start)
  uint64_t trap_refused = 0;    // links the trap rules refused (in memory)
  uint64_t over_budget = 0;     // new URLs over their CLD's budget (in memory)
  uint64_t over_host_cap = 0;   // new URLs over their origin's HostCaps (since start)
};

// Scalars of the frontier that are not implied by its collections.
struct FrontierScalars {
  uint64_t next_schedule_id = 1;
  uint64_t robots_disallowed = 0;
  uint64_t activity = 0;
};

// Everything needed to rebuild a Frontier (what a store loads).
struct FrontierImage {
  std::vector<uint64_t> seen;
  // The URL-seen set built directly by a store (UrlSeenSet::RestoreFromScan,
  // bounded memory); when set, `seen` is empty.
  std::unique_ptr<UrlSeenSet> seen_set;
  std::vector<std::pair<std::string, OriginRecord>> origins;
  // Per origin, in wait order (ascending seq).
  std::vector<std::pair<std::string, std::vector<SeqEntry>>> waiting;
  std::vector<SeqEntry> robots_ready;  // ascending seq
  // Pages for the order's Restore to file: the structure order's page queue
  // (ascending seq). bfs/host_budget keep their queue in the TierStore and
  // read it lazily; for them a store leaves this empty.
  std::vector<SeqEntry> ready;
  std::vector<std::pair<std::string, CldStats>> clds;  // host_budget statistics
  std::string order_state;                             // the order's scalars (OrderStateChanged)
  std::vector<StructureNodeRecord> structure;          // structure order: GC and GB nodes
  struct Lease {
    uint64_t id = 0;
    LeaseRecord record;
    std::vector<FrontierEntry> entries;  // outstanding URLs
  };
  std::vector<Lease> leases;
  FrontierScalars scalars;
};

// What the frontier holds of one host (the console's host page; proto
// HostQueueResponse): every origin of it (scheme, port).
struct HostQueueCounts {
  std::map<int32_t, uint64_t> tiers;  // queued pages per tier (counted ones)
  uint64_t waiting_for_robots = 0;    // pages waiting for robots.txt
  uint64_t leased = 0;                // leased, not yet reported (robots.txt too)
  uint64_t scanned = 0;               // queued entries read (of every host)
  bool truncated = false;             // the read stopped at max_scan: counts are lower bounds
  std::vector<std::string> sample;    // lowest tier first, hand-out order in a tier
  uint64_t urls_added = 0;            // new URLs counted against the caps (HostCaps)
  uint64_t over_host_cap = 0;         // new URLs refused over a cap
};

// A host's politeness (the console's host page; proto HostQueueResponse
// 11-17), over every origin of it: pace, address and response times of
// the origin reported last; the back-off of the origin backed off longest.
struct HostPoliteness {
  uint32_t pace_ms = 0;
  std::string address;
  std::vector<uint32_t> recent_fetch_ms;  // oldest first
  uint32_t consecutive_failures = 0;
  int64_t backoff_until_ms = 0;  // 0: not backed off now
  bool parked = false;           // the back-off in force is a parking
  bool leased_now = false;       // a schedule holds an origin of the host
};

// Hosts backed off now (parked ones among them) and parked now.
struct BackoffCounts {
  uint64_t backing_off = 0;
  uint64_t parked = 0;
};

class Frontier {
 public:
  // REQUIRES: options.order is valid (MakeOrder succeeds; an invalid one is
  // replaced by bfs). `opic_store` and `tier_store` (null: RAM) hold the
  // opic and the tiered orders' queues and must outlive the frontier.
  explicit Frontier(FrontierOptions options, OpicStore* opic_store = nullptr,
                    TierStore* tier_store = nullptr);

  // Changes are reported to `journal` from now on (null: none). The journal
  // must outlive the frontier or be reset first.
  void SetJournal(FrontierJournal* journal) {
    journal_ = journal;
    order_->SetJournal(journal);
  }

  // Rebuilds the state a journal recorded. REQUIRES: a new Frontier.
  // With `now_ms`, every open lease runs at least a full lease period from
  // it: the clock that granted them (this process before a restart, its
  // machine's clock stepped since) need not agree with today's, and a
  // lease expired by a clock step would be leased again while its fetcher
  // still works on it. A lease whose fetcher is gone comes back a period
  // later.
  void Restore(FrontierImage image, std::optional<int64_t> now_ms = std::nullopt);

  // Offers a seed URL (canonical), one of `seed_count` seeds of the crawl.
  // Returns true when it was new to the URL-seen set. A URL of an origin
  // whose robots.txt is unknown waits for it; a disallowed URL is counted
  // and dropped.
  bool Add(const FrontierEntry& entry, int64_t now_ms, uint64_t seed_count = 1);

  // Offers discovered links (canonical URLs), in page order. Links whose
  // referrer was fetched in this request (Report) get its tier, weight and
  // cash (host_budget WIN, opic split). Returns how many were new and
  // queued (host_budget: not past their CLD budget).
  size_t AddLinks(std::vector<LinkInput> links, int64_t now_ms);

  // Recrawl: files a page fetched before again, due for its next
  // visit, without the URL-seen check (it is already seen), through the
  // same robots and politeness path as a new URL: at the front of the
  // order's queue when its origin's rules are known and allow it, else as
  // Route files a new URL. frontier_revisit.cc.
  void Revisit(FrontierEntry entry, int64_t now_ms);

  // HTTP errors one schedule met on one origin (SubmitResults host_errors):
  // over the threshold, the origin becomes crawl-delayed.
  void NoteHostErrors(uint64_t schedule_id, const std::string& origin, uint32_t errors);

  // The end of one request: the order settles (opic restores lost cash) and
  // what Report remembered for AddLinks is forgotten.
  void EndRequest();

  // Leases up to `max_urls` URLs: due robots.txt fetches first, then pages in
  // FIFO order, skipping origins another open schedule holds; at most
  // `max_pages` of them are pages. Returns a schedule with id 0 when nothing
  // can be handed out now.
  // A crawl-delayed origin gets at most one URL per slot (max_urls /
  // slot_size) and no more than fit half the lease at its delay, and is not
  // leased again until its delay has passed since its last schedule ended.
  Schedule Lease(const std::string& fetcher_id, size_t max_urls, int64_t now_ms, size_t max_pages = SIZE_MAX);

  // Applies the outcome of one fetch of schedule `schedule_id`. Outcomes of a
  // schedule that is no longer open (expired) still update robots rules.
  // A 429/503 answer backs the host off and puts the URL back (up to
  // max_url_retries times); a network error backs the host off.
  ReportResult Report(uint64_t schedule_id, const FetchOutcome& outcome, int64_t now_ms);

  // The schedule is over: URLs it did not report go back to the queue front.
  void Complete(uint64_t schedule_id, int64_t now_ms);

  // Re-queues the URLs of every schedule whose lease ended before now_ms, and
  // re-queues robots.txt retries that have come due.
  void Tick(int64_t now_ms);

  // A fetcher lane started again: the schedules leased under its id belong
  // to a process that is gone, so they end now (their unreported URLs go back
  // to the queue front, as at expiry) instead of holding their hosts until
  // their leases run out. Returns the URLs put back. Lane ids are unique in
  // a cluster (fetcher/fetcher_flags.cc), so no live lane's schedule ends.
  size_t EndLeasesOf(const std::string& fetcher_id, int64_t now_ms);

  // True when nothing is queued, waiting or leased.
  [[nodiscard]] bool Idle() const;
  [[nodiscard]] FrontierCounters Counters() const;
  [[nodiscard]] FrontierScalars Scalars() const;
  [[nodiscard]] const FrontierOrder& order() const { return *order_; }
  // Changes the politeness floor (a parameter change mid-crawl).
  void SetMinHostDelay(int64_t ms) { options_.min_host_delay_ms = std::clamp<int64_t>(ms, 0, 60'000); }
  // Changes the per-origin URL caps (a parameter change mid-crawl); URLs
  // refused before stay seen.
  void SetHostCaps(const HostCaps& caps) { options_.host_caps = caps; }
  [[nodiscard]] uint64_t over_host_cap() const { return over_host_cap_; }
  [[nodiscard]] FrontierOrder& order() { return *order_; }
  // The queued, waiting and leased URLs of `host` (as url::HostOf gives
  // it), and the first `sample` queued ones. Reads at most `max_scan` of the
  // order's queued entries (FrontierOrder::VisitQueued: the store for bfs,
  // host_budget and opic), and the wait lists and leases, which are in RAM,
  // in full. Changes nothing. REQUIRES: between requests (a durable store is
  // read as committed). Errors are the store's read errors.
  [[nodiscard]] Result<HostQueueCounts> QueueOfHost(std::string_view host, uint64_t max_scan,
                                                    size_t sample) const;
  // frontier_politeness.cc. Politeness of `host` (as QueueOfHost takes it)
  // at `now_ms`, from every origin of it (a scan of the origins, in RAM).
  // Pace, address and response times are memory only (origin_pace.h).
  [[nodiscard]] HostPoliteness PolitenessOfHost(std::string_view host, int64_t now_ms) const;
  // Origins backed off (and parked) at `now_ms`; forgets those whose
  // back-off is over. Costs the origins backed off since the last call.
  [[nodiscard]] BackoffCounts CountBackoffs(int64_t now_ms);
  // The `n` hosts with the largest recent pace (PaceBoard::Top).
  [[nodiscard]] std::vector<HostPace> TopPaces(size_t n, int64_t now_ms) {
    return pace_board_.Top(n, now_ms);
  }
  // The persisted state of an origin (tests).
  [[nodiscard]] std::optional<OriginRecord> Origin(const std::string& origin) const;

 private:
  struct OriginState {
    OriginRecord record;
    std::deque<SeqEntry> waiting;  // pages held until robots is known
    uint64_t leased_by = 0;        // schedule holding this origin, 0 if none
    // A crawl-delayed origin is not leased again before this time (the end
    // of its last schedule plus the delay). In memory only: after a restart
    // an origin may come one delay early, once.
    int64_t not_before_ms = 0;
    // A robots.txt re-fetch is queued and not yet leased: the origin's pages
    // wait so that it goes first (memory only).
    bool refresh_queued = false;
    // The draft or schedule that carries the re-fetch: none of the origin's
    // pages join it, so pages leased after its answer follow the new rules.
    uint64_t refresh_in = 0;
    // Recently refused as disallowed, re-checked when the rules change
    // (memory only, bounded by FrontierOptions.robots_recheck_*).
    std::vector<FrontierEntry> disallowed;
    // Pace, address and response times as fetchers report them (RAM only).
    OriginPace pace;
  };
  // Counts a URL new to the seen set against its origin's HostCaps (a seed
  // marks its origin seeded first). False: over a cap, not to be queued.
  // host_caps.cc.
  bool AdmitNew(const std::string& url, bool seed, bool from_sitemap);
  // The origin's Crawl-delay in ms, clamped; 0 when none.
  int64_t CrawlDelayMs(const OriginState& state) const;
  // A FIFO whose entries carry sequence numbers (see SeqEntry).
  class SeqQueue {
   public:
    static constexpr uint64_t kMiddle = uint64_t{1} << 62;
    const SeqEntry& PushBack(FrontierEntry e);
    const SeqEntry& PushFront(FrontierEntry e);
    // Puts back an entry just taken from the front, keeping its number.
    void Return(SeqEntry e) { q_.push_front(std::move(e)); }
    SeqEntry PopFront();
    void Restore(std::vector<SeqEntry> entries);
    [[nodiscard]] bool empty() const { return q_.empty(); }
    [[nodiscard]] size_t size() const { return q_.size(); }

   private:
    std::deque<SeqEntry> q_;
    uint64_t front_ = kMiddle - 1;  // number of the next PushFront
    uint64_t back_ = kMiddle;       // number of the next PushBack
  };
  struct OpenLease {
    std::map<std::string, uint32_t> errors;  // HTTP errors per origin (memory only)
    std::string fetcher_id;
    int64_t deadline_ms = 0;
    // By 8-byte URL hash (the seen set's key: two URLs of one lease share a
    // hash with odds under 2^-38 at 5,000 URLs); saves a URL copy per URL.
    std::unordered_map<uint64_t, FrontierEntry> outstanding;
    std::vector<std::string> origins;
  };

  OriginState& OriginFor(const std::string& origin);
  using OriginEntry = std::pair<const std::string, OriginState>;
  // The origin of a URL and its state (created if new); null when the URL
  // has no origin.
  OriginEntry* OriginOfUrl(const std::string& url);
  // The links of one page (one referrer); returns how many were new.
  size_t AddPageLinks(std::vector<LinkInput>& group, int64_t now_ms);
  void QueueRobotsFetch(const std::string& origin, int64_t now_ms);
  void ApplyRobots(const std::string& origin, const FetchOutcome& outcome, int64_t now_ms);
  void ReleaseWaiting(const std::string& origin, OriginState& state);
  // frontier_robots.cc: robots.txt expiry and re-fetch (RFC 9309 2.4).
  [[nodiscard]] int64_t RobotsExpiryMs(int64_t now_ms, int64_t expires_unix_s) const;
  // Known rules past their expiry, no re-fetch under way.
  [[nodiscard]] static bool RobotsDue(const OriginState& state, int64_t now_ms);
  void StartRobotsRefresh(const std::string& origin, OriginState& state, int64_t now_ms);
  // A failed robots.txt fetch; returns true when the origin keeps waiting
  // for a retry or keeps its old rules (nothing more to apply).
  bool RobotsFailed(const std::string& origin, OriginState& state, int64_t now_ms);
  // A URL the rules in force disallow: counted, kept for a re-check.
  void RefuseDisallowed(const std::string& origin, OriginState& state, FrontierEntry entry);
  // After a re-fetch changed the rules: kept refused URLs now allowed enter.
  void ReleaseNewlyAllowed(OriginState& state);
  // Tick: the robots.txt of origins in recheck_origins_ fetched again when due.
  void RecheckDueRobots(int64_t now_ms);
  enum class RobotsGate { kTake, kSkip, kDrop };
  // A page about to be leased: its origin's robots.txt is re-fetched first
  // when expired, and a page the new rules disallow is dropped.
  RobotsGate GateForRobots(const std::string& origin, OriginState& state, const FrontierEntry& e,
                           uint64_t draft_id, int64_t now_ms);
  void Queue(QueueKind kind, FrontierEntry e, bool front);
  // A new URL: robots gating, then the order (or the wait list).
  void Route(FrontierEntry entry, int64_t now_ms);
  void Backoff(const std::string& origin, OriginState& state, int status, uint32_t retry_after_s,
               int64_t now_ms);
  void NoteOrigin(const std::string& origin, const OriginState& state) {
    if (journal_) journal_->OriginChanged(origin, state.record);
  }
  void EndLease(uint64_t schedule_id, bool put_back, int64_t now_ms);
  // A fetch of `origin` reported: its OriginPace and the pace board.
  // frontier_politeness.cc.
  void NotePoliteness(const std::string& origin, OriginState& state, const FetchOutcome& outcome,
                      int64_t now_ms);

  // Lease's steps. A schedule being built and the lease that will hold it.
  struct LeaseDraft {
    uint64_t id = 0;  // the number it gets if it is not empty
    OpenLease lease;
    Schedule schedule;
  };
  // Moves one queue entry into the draft; its origin is held by the draft.
  void TakeIntoDraft(LeaseDraft& draft, QueueKind q, SeqEntry&& e, const std::string& origin,
                     OriginState& st);
  // Due robots.txt fetches, up to `max_urls` entries in all.
  void DraftRobots(LeaseDraft& draft, size_t max_urls);
  // Pages the order hands out whose origins are free, not backed off and, if
  // crawl-delayed, due and under their share; the rest go back unchanged.
  void DraftPages(LeaseDraft& draft, size_t max_urls, size_t max_pages, int64_t now_ms);
  // REQUIRES: the draft holds entries. Numbers it, journals it and keeps the
  // lease open; returns the schedule.
  Schedule OpenDraftedLease(LeaseDraft draft);

  FrontierOptions options_;
  uint64_t leases_expired_ = 0;  // in memory: a metric, not crawl state
  uint64_t trap_refused_ = 0;    // in memory, as leases_expired_
  uint64_t over_host_cap_ = 0;   // in memory; per origin in OriginRecord.over_cap
  UrlSeenSet seen_;              // 8-byte URL hashes, ~8 bytes of RAM each (url_seen.h)
  StringMap<OriginState> origins_;
  SeqQueue robots_ready_;                 // robots.txt URLs to lease first
  std::unique_ptr<FrontierOrder> order_;  // ready pages
  // Pages reported in the current request, for the links found on them.
  std::unordered_map<std::string, FrontierEntry> fetched_;
  std::vector<std::string> robots_retry_;  // origins with a robots retry pending
  std::map<uint64_t, OpenLease> leases_;
  uint64_t next_schedule_id_ = 1;
  uint64_t waiting_count_ = 0;
  uint64_t leased_count_ = 0;
  uint64_t robots_disallowed_ = 0;
  size_t recheck_count_ = 0;  // entries of all OriginState::disallowed
  // Origins holding refused URLs to recheck: their robots.txt is fetched
  // again when due even if no page of theirs comes up (Tick).
  std::vector<std::string> recheck_origins_;
  uint64_t activity_ = 0;
  uint64_t next_wait_seq_ = 1;
  std::vector<bool> is_new_;            // AddPageLinks' scratch
  OriginEntry* last_origin_ = nullptr;  // OriginOfUrl's last answer
  url::OriginMemo origin_memo_;         // OriginOfUrl's origin of a URL
  FrontierJournal* journal_ = nullptr;
  // Politeness (frontier_politeness.cc, RAM only): the hosts with the
  // largest pace, and the origins backed off since CountBackoffs last
  // looked (Backoff and Restore add them).
  PaceBoard pace_board_;
  std::unordered_set<std::string> backed_off_;
};

}  // namespace crawl::queueserver
