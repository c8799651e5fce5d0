// Value types shared by the frontier (queueserver/frontier/frontier.h), the crawl
// orders behind it (queueserver/frontier/frontier_order.h) and the store that
// persists both (queueserver/store/queue_store.h), with the journal interface
// through which every change reaches the store.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/string_hash.h"
#include "common/url/robots.h"

namespace crawl::queueserver {

enum class UrlKind { kPage, kRobots };
enum class RobotsState { kUnknown, kFetching, kKnown };
// The two FIFO queues of the frontier: robots.txt URLs (leased first,
// shared by every order) and pages. The bfs and host_budget orders file
// their pages in a TierStore (queueserver/frontier/tier_store.h), not through the
// journal; kPages entries are what older stores kept.
enum class QueueKind { kRobots, kPages };

// A URL waiting in, or leased from, the frontier, with the data the crawl
// orders attach to it (docs/DESIGN.md §5).
// Where the link a URL was found by sits (DiscoveredLink.source and
// in_nav), for the scoring filters (queueserver/frontier/scoring_filter.h).
enum class LinkKind : uint8_t {
  kBody,      // <a>/<area> in the page's content (and seeds)
  kNav,       // <a>/<area> inside <nav>
  kSitemap,   // a sitemap <loc> or a robots.txt Sitemap line
  kRedirect,  // a redirect's target
  kEmbed,     // img, frame, iframe
};

struct FrontierEntry {
  std::string url;       // canonical absolute URL
  std::string referrer;  // page it was first found on; "" for seeds
  uint32_t depth = 0;    // link distance from the seeds
  UrlKind kind = UrlKind::kPage;
  // host_budget: the weight i of the link it was found by (its w once it is
  // fetched, docs/DESIGN.md §5.1) and the tier it was filed in.
  uint32_t weight = 0;
  int32_t tier = 0;
  // opic: the cash it carries while waiting for robots.txt or leased; while
  // queued in the opic order, its cash relative to the order's lost-cash
  // bonus (queueserver/frontier/opic_order.h).
  double cash = 0;
  // Times the URL was answered 429/503 and put back (back-off).
  uint32_t retries = 0;
  LinkKind link_kind = LinkKind::kBody;  // how it was first found
};

// A queue or wait-list entry with its position. Sequence numbers order the
// FIFOs: appended entries get increasing numbers, entries put back at the
// front decreasing ones.
struct SeqEntry {
  uint64_t seq = 0;
  FrontierEntry entry;
};

// Robots and back-off state of one origin as persisted (which schedule holds
// the origin is not part of it: that follows from the open leases).
struct OriginRecord {
  RobotsState robots = RobotsState::kUnknown;
  robots::RobotsRules rules;
  int robots_failures = 0;
  int64_t robots_retry_at_ms = 0;  // when a failed robots.txt is due again
  bool retry_pending = false;      // a robots.txt retry waits for robots_retry_at_ms
  // Back-off (429/503 and failures, queueserver/frontier/host_backoff.h): failed
  // attempts in a row, and no schedule gets the origin before backoff_until_ms.
  uint32_t failures = 0;
  int64_t backoff_until_ms = 0;
  bool parked = false;  // the current back-off is a parking
  // More than the error threshold of HTTP errors in one schedule made the
  // origin crawl-delayed (docs/DESIGN.md §5.1).
  bool error_delayed = false;
  // robots.txt expiry (RFC 9309 2.4; queueserver/frontier/frontier_robots.cc):
  // when the rules in force were fetched and when they are due again
  // (0: unknown, e.g. a record of an older store: due).
  int64_t robots_fetched_ms = 0;
  int64_t robots_expires_ms = 0;
  // A re-fetch of a known robots.txt is queued or in flight; the old rules
  // stay in force until it answers.
  bool robots_refreshing = false;
  // Re-fetches that changed the rules: while 0, queued pages were all
  // checked against the rules in force and are not checked again.
  uint32_t robots_changes = 0;
  // Per-crawl URL caps (frontier.h HostCaps; host_caps.cc): new URLs the
  // origin added, those from sitemaps, those refused over a cap, and
  // whether a seed is on it. Saved every kHostCapSaveEvery URLs.
  uint64_t urls_added = 0;
  uint64_t sitemap_urls = 0;
  uint64_t over_cap = 0;
  bool seeded = false;
  bool operator==(const OriginRecord& o) const {
    return robots == o.robots && rules.Serialize() == o.rules.Serialize() &&
           robots_failures == o.robots_failures && robots_retry_at_ms == o.robots_retry_at_ms &&
           retry_pending == o.retry_pending && failures == o.failures &&
           backoff_until_ms == o.backoff_until_ms && parked == o.parked && error_delayed == o.error_delayed &&
           robots_fetched_ms == o.robots_fetched_ms && robots_expires_ms == o.robots_expires_ms &&
           robots_refreshing == o.robots_refreshing && robots_changes == o.robots_changes &&
           urls_added == o.urls_added && sitemap_urls == o.sitemap_urls && over_cap == o.over_cap &&
           seeded == o.seeded;
  }
};

// An open lease without its URLs.
struct LeaseRecord {
  std::string fetcher_id;
  int64_t deadline_ms = 0;
  std::vector<std::string> origins;  // origins the schedule holds
};

// host_budget statistics of one company level domain (docs/DESIGN.md §5.1).
struct CldStats {
  uint64_t seen = 0;    // SEEN: URLs of the CLD
  double wseen = 0;     // WSEEN: weighted seen
  double win = 0;       // WIN: weighted incoming links from other CLDs
  bool seeded = false;  // a seed is on this CLD: no per-CLD budget (host_budget.h)
  // IRLbot's PLD in-degree: the distinct other CLDs that linked here, as
  // sorted 32-bit hashes of their names, at most kMaxInClds of them (the
  // budget stops growing there; host_budget.h CldBudget).
  std::vector<uint32_t> in_clds;
  static constexpr size_t kMaxInClds = 256;
  bool operator==(const CldStats&) const = default;
};

// structure order: one node of a host's persisted link-path graph (GC or GB,
// queueserver/frontier/structure_module.h).
struct StructureNodeRecord {
  std::string origin;
  char graph = 'C';  // 'C': GC, 'B': GB
  std::string node;
  double value = 0;
  bool operator==(const StructureNodeRecord&) const = default;
};

// Every change a Frontier and its order make, in order, for a store to
// persist. Calls arrive while the Frontier method runs; the owner commits
// them together.
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
  // host_budget: the statistics of `cld` changed.
  virtual void CldChanged(const std::string& cld, const CldStats& stats) = 0;
  // The order's scalars (an opaque blob the order itself reads back).
  virtual void OrderStateChanged(const std::string& blob) = 0;
  // structure: a GC or GB node of a host changed (journals that do not
  // persist the structure order ignore it).
  virtual void StructureNodeChanged(const StructureNodeRecord& /*node*/) {}
};

}  // namespace crawl::queueserver
