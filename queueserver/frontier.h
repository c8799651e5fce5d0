// The queue server's frontier for one crawl: URL-seen set, robots gating per
// origin, a FIFO of URLs ready to fetch, and leased schedules.
//
// This is the foundation's `bfs` order (DESIGN.md section 5.3), held in
// memory; every change is also reported to an optional FrontierJournal so a
// store can persist it (queueserver/queue_store.h), and Restore() rebuilds
// the frontier from what the store kept. Its promises:
//   - a URL enters at most once (8-byte URL hash; see UrlSeen below);
//   - a host's URLs wait until its robots.txt has been fetched, and URLs that
//     robots.txt disallows never enter the queue (DESIGN.md section 5.1);
//   - robots.txt URLs are scheduled before any page;
//   - a URL handed out is leased: reported back, or put back in the queue
//     when its schedule ends without it or its lease expires;
//   - at most one schedule at a time holds URLs of a given origin, so the
//     cluster opens at most one connection per host.
//
// Pure logic: no I/O, no clock (times are passed in). Not thread-safe: the
// owner serialises calls.
#pragma once

#include <cstdint>
#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/robots.h"

namespace crawl::queueserver {

enum class UrlKind { kPage, kRobots };
enum class RobotsState { kUnknown, kFetching, kKnown };
// The two FIFO queues: robots.txt URLs (leased first) and pages.
enum class QueueKind { kRobots, kPages };

// A URL waiting in, or leased from, the frontier.
struct FrontierEntry {
  std::string url;       // canonical absolute URL
  std::string referrer;  // page it was first found on; "" for seeds
  uint32_t depth = 0;    // link distance from the seeds
  UrlKind kind = UrlKind::kPage;
};

// A leased schedule as handed to a fetcher.
struct Schedule {
  uint64_t id = 0;  // 0: nothing to fetch right now
  int64_t lease_deadline_ms = 0;
  std::vector<FrontierEntry> entries;
  // Origins with a robots.txt Crawl-delay: the spacing (ms) the fetcher
  // keeps between request starts on that origin.
  std::map<std::string, int64_t> crawl_delay_ms;
};

// What a fetch of a leased URL came to, as far as the frontier cares.
struct FetchOutcome {
  std::string url;
  UrlKind kind = UrlKind::kPage;
  int status = 0;              // HTTP status or negative network error
  std::string robots_body;     // robots.txt body when kind == kRobots
};

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
  // Most queue entries one Lease call looks at past busy origins, which
  // bounds its cost when the queue head is one busy host.
  size_t lease_scan_limit = 50'000;
  // Crawl-delay (robots.txt) is honoured up to this much; a larger value is
  // read as this one, so a hostile Crawl-delay cannot stall a host forever.
  int64_t max_crawl_delay_ms = 60'000;
  // Schedule slots (DESIGN.md 5.1): a crawl-delayed origin gets at most one
  // URL per slot of this many URLs of the schedule's size.
  size_t slot_size = 100;
};

struct FrontierCounters {
  uint64_t frontier_size = 0;    // ready + robots-ready + waiting for robots
  uint64_t leased_urls = 0;
  uint64_t outstanding_schedules = 0;
  uint64_t urls_seen = 0;
  uint64_t hosts = 0;
  uint64_t robots_disallowed = 0;
  uint64_t activity = 0;         // grows on every state change
};

// Robots state of one origin as persisted (which schedule holds the origin
// is not part of it: that follows from the open leases).
struct OriginRecord {
  RobotsState robots = RobotsState::kUnknown;
  robots::RobotsRules rules;
  int robots_failures = 0;
  int64_t robots_retry_at_ms = 0;  // when a failed robots.txt is due again
  bool retry_pending = false;      // a robots.txt retry waits for robots_retry_at_ms
};

// An open lease without its URLs.
struct LeaseRecord {
  std::string fetcher_id;
  int64_t deadline_ms = 0;
  std::vector<std::string> origins;  // origins the schedule holds
};

// A queue or wait-list entry with its position. Sequence numbers order the
// FIFOs: appended entries get increasing numbers, entries put back at the
// front decreasing ones.
struct SeqEntry {
  uint64_t seq = 0;
  FrontierEntry entry;
};

// Scalars of the frontier that are not implied by its collections.
struct FrontierScalars {
  uint64_t next_schedule_id = 1;
  uint64_t robots_disallowed = 0;
  uint64_t activity = 0;
};

// Every change a Frontier makes, in order, for a store to persist. Calls
// arrive while the Frontier method runs; the owner commits them together.
class FrontierJournal {
 public:
  virtual ~FrontierJournal() = default;
  virtual void Seen(uint64_t url_hash) = 0;
  virtual void Queued(QueueKind queue, const SeqEntry& e) = 0;
  virtual void Dequeued(QueueKind queue, uint64_t seq) = 0;
  virtual void WaitAdded(const std::string& origin, const SeqEntry& e) = 0;
  virtual void WaitRemoved(const std::string& origin, uint64_t seq) = 0;
  virtual void OriginChanged(const std::string& origin, const OriginRecord& record) = 0;
  virtual void LeaseOpened(uint64_t schedule_id, const LeaseRecord& lease,
                           const std::vector<FrontierEntry>& entries) = 0;
  virtual void LeaseUrlDone(uint64_t schedule_id, const std::string& url) = 0;
  // The lease ended; `urls` are the ones still outstanding.
  virtual void LeaseClosed(uint64_t schedule_id, const std::vector<std::string>& urls) = 0;
};

// Everything needed to rebuild a Frontier (what a store loads).
struct FrontierImage {
  std::vector<uint64_t> seen;
  std::vector<std::pair<std::string, OriginRecord>> origins;
  // Per origin, in wait order (ascending seq).
  std::vector<std::pair<std::string, std::vector<SeqEntry>>> waiting;
  std::vector<SeqEntry> robots_ready;  // ascending seq
  std::vector<SeqEntry> ready;         // ascending seq
  struct Lease {
    uint64_t id = 0;
    LeaseRecord record;
    std::vector<FrontierEntry> entries;  // outstanding URLs
  };
  std::vector<Lease> leases;
  FrontierScalars scalars;
};

class Frontier {
 public:
  explicit Frontier(FrontierOptions options);

  // Changes are reported to `journal` from now on (null: none). The journal
  // must outlive the frontier or be reset first.
  void SetJournal(FrontierJournal* journal) { journal_ = journal; }

  // Rebuilds the state a journal recorded. REQUIRES: a new Frontier.
  void Restore(FrontierImage image);

  // Offers a discovered or seed URL (canonical). Returns true when it was new
  // to the URL-seen set. A URL of an origin whose robots.txt is unknown waits
  // for it; a disallowed URL is counted and dropped.
  bool Add(const FrontierEntry& entry, int64_t now_ms);

  // Leases up to `max_urls` URLs: due robots.txt fetches first, then pages in
  // FIFO order, skipping origins another open schedule holds; at most
  // `max_pages` of them are pages. Returns a schedule with id 0 when nothing
  // can be handed out now.
  // A crawl-delayed origin gets at most one URL per slot (max_urls /
  // slot_size) and no more than fit half the lease at its delay, and is not
  // leased again until its delay has passed since its last schedule ended.
  Schedule Lease(const std::string& fetcher_id, size_t max_urls, int64_t now_ms,
                 size_t max_pages = SIZE_MAX);

  // Applies the outcome of one fetch of schedule `schedule_id`. Outcomes of a
  // schedule that is no longer open (expired) still update robots rules.
  void Report(uint64_t schedule_id, const FetchOutcome& outcome, int64_t now_ms);

  // The schedule is over: URLs it did not report go back to the queue front.
  void Complete(uint64_t schedule_id, int64_t now_ms);

  // Re-queues the URLs of every schedule whose lease ended before now_ms, and
  // re-queues robots.txt retries that have come due.
  void Tick(int64_t now_ms);

  // True when nothing is queued, waiting or leased.
  [[nodiscard]] bool Idle() const;
  [[nodiscard]] FrontierCounters Counters() const;
  [[nodiscard]] FrontierScalars Scalars() const;

 private:
  struct OriginState {
    OriginRecord record;
    std::deque<SeqEntry> waiting;       // pages held until robots is known
    uint64_t leased_by = 0;             // schedule holding this origin, 0 if none
    // A crawl-delayed origin is not leased again before this time (the end
    // of its last schedule plus the delay). In memory only: after a restart
    // an origin may come one delay early, once.
    int64_t not_before_ms = 0;
  };
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
    std::string fetcher_id;
    int64_t deadline_ms = 0;
    std::unordered_map<std::string, FrontierEntry> outstanding;  // by URL
    std::vector<std::string> origins;
  };

  OriginState& OriginFor(const std::string& origin);
  void QueueRobotsFetch(const std::string& origin, int64_t now_ms);
  void ApplyRobots(const std::string& origin, const FetchOutcome& outcome, int64_t now_ms);
  void ReleaseWaiting(const std::string& origin, OriginState& state);
  void Queue(QueueKind kind, FrontierEntry e, bool front);
  void NoteOrigin(const std::string& origin, const OriginState& state) {
    if (journal_) journal_->OriginChanged(origin, state.record);
  }
  void EndLease(uint64_t schedule_id, bool put_back, int64_t now_ms);

  FrontierOptions options_;
  std::unordered_set<uint64_t> seen_;                 // 8-byte URL hashes
  std::unordered_map<std::string, OriginState> origins_;
  SeqQueue robots_ready_;                             // robots.txt URLs to lease first
  SeqQueue ready_;                                    // pages, FIFO
  std::vector<std::string> robots_retry_;             // origins with a robots retry pending
  std::map<uint64_t, OpenLease> leases_;
  uint64_t next_schedule_id_ = 1;
  uint64_t waiting_count_ = 0;
  uint64_t leased_count_ = 0;
  uint64_t robots_disallowed_ = 0;
  uint64_t activity_ = 0;
  uint64_t next_wait_seq_ = 1;
  FrontierJournal* journal_ = nullptr;
};

}  // namespace crawl::queueserver
