// The queue server's frontier for one crawl: URL-seen set, robots gating per
// origin, a FIFO of URLs ready to fetch, and leased schedules.
//
// This is the foundation's `bfs` order (DESIGN.md section 5.3) held in
// memory. Its promises, which the durable scheduler keeps too:
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
#include <vector>

#include "common/robots.h"

namespace crawl::queueserver {

enum class UrlKind { kPage, kRobots };

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

class Frontier {
 public:
  explicit Frontier(FrontierOptions options);

  // Offers a discovered or seed URL (canonical). Returns true when it was new
  // to the URL-seen set. A URL of an origin whose robots.txt is unknown waits
  // for it; a disallowed URL is counted and dropped.
  bool Add(const FrontierEntry& entry, int64_t now_ms);

  // Leases up to `max_urls` URLs: due robots.txt fetches first, then pages in
  // FIFO order, skipping origins another open schedule holds; at most
  // `max_pages` of them are pages. Returns a schedule with id 0 when nothing
  // can be handed out now.
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

 private:
  enum class RobotsState { kUnknown, kFetching, kKnown };
  struct OriginState {
    RobotsState robots = RobotsState::kUnknown;
    robots::RobotsRules rules;
    std::deque<FrontierEntry> waiting;  // pages held until robots is known
    int robots_failures = 0;
    int64_t robots_retry_at_ms = 0;     // when a failed robots.txt is due again
    uint64_t leased_by = 0;             // schedule holding this origin, 0 if none
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
  void ReleaseWaiting(OriginState& state);
  void EndLease(uint64_t schedule_id, bool put_back);

  FrontierOptions options_;
  std::unordered_set<uint64_t> seen_;                 // 8-byte URL hashes
  std::unordered_map<std::string, OriginState> origins_;
  std::deque<FrontierEntry> robots_ready_;            // robots.txt URLs to lease first
  std::deque<FrontierEntry> ready_;                   // pages, FIFO
  std::vector<std::string> robots_retry_;             // origins with a robots retry pending
  std::map<uint64_t, OpenLease> leases_;
  uint64_t next_schedule_id_ = 1;
  uint64_t waiting_count_ = 0;
  uint64_t leased_count_ = 0;
  uint64_t robots_disallowed_ = 0;
  uint64_t activity_ = 0;
};

}  // namespace crawl::queueserver
