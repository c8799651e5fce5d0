// One crawl's revisits on one queue server: what the shard remembers of each
// fetched page (queueserver/fetch_state.h), when each page is due again
// under the crawl's revisit policy (queueserver/revisit_policy.h), and the
// due pages (queueserver/due_queue.h) put back into the frontier ahead of a
// lease, at most recrawl_share_percent of it. A crawl without recrawl keeps
// the fetch states and schedules nothing.
//
// The fetch states are in the store, written into the shard's request
// batch (in memory for a shard without a store); the due queue is a window
// of them, rebuilt from the store on load and when it runs low.
//
// Owned by CrawlShard and, like it, not thread-safe: called under the
// service's lock (queueserver/service.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "common/base/clock.h"
#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/change_rate.h"
#include "queueserver/due_queue.h"
#include "queueserver/fetch_state.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/revisit_policy.h"
#include "queueserver/store/queue_store.h"

namespace crawl::queueserver {

// What a page's fetch was, next to the fetch before it.
struct FetchNoted {
  // A revisit of unchanged content (the WARC revisit profile), and the
  // fetch time of the content it confirms (0: unknown).
  v1::RevisitKind revisit = v1::REVISIT_NONE;
  int64_t refers_to_unix_us = 0;
  // The page leaves search (gone or moved; fetch_state.h LeavesSearch).
  bool leaves_search = false;
};

class RecrawlScheduler {
 public:
  // CrawlParams 120-124 (recrawl) as a revisit policy; none when recrawl is
  // off; InvalidArgument for a bad policy name or bounds.
  [[nodiscard]] static Result<std::optional<RevisitPolicy>> PolicyFor(const v1::CrawlParams& params);

  // `clock`, `writer` (null: fetch states in memory) and `frontier` are the
  // shard's and outlive the scheduler; `crawl_id` names the crawl in the
  // server's log.
  RecrawlScheduler(const Clock* clock, ShardWriter* writer, Frontier& frontier, uint64_t crawl_id,
                   const v1::CrawlParams& params);

  // Takes up the crawl's (new) recrawl parameters; a bad policy is logged
  // and the current one kept.
  void ApplyParams(const v1::CrawlParams& params);
  // The due queue (and the optimal policy's change rates) from the stored
  // fetch states: on load, and when the window runs low.
  [[nodiscard]] Status RebuildDueQueue();

  // What the shard remembers about the fetches of page `url`, nullopt if it
  // was never fetched. Errors when the store cannot be read or holds a
  // damaged record.
  [[nodiscard]] Result<std::optional<FetchState>> FetchStateOf(const std::string& url);
  // Updates the fetch state of page record `r` and, unless the page was put
  // back in its queue (`requeued`: 429/503), schedules its next visit. Marks
  // `logged` (its crawl log entry) not-modified / unchanged. Fails only when
  // the store cannot be read (a damaged record starts the page's history
  // again).
  [[nodiscard]] Result<FetchNoted> NoteFetch(const v1::FetchRecord& r, v1::FetchRecord* logged,
                                             bool requeued);
  // Attaches the remembered validators and digest to a page leased again.
  void AttachRevisit(v1::ScheduledUrl* u);
  // Before a lease of up to `max_urls`: files up to recrawl_share x
  // max_urls due pages into the frontier (Frontier::Revisit) and clears
  // their stored next visit.
  void ReenterDue(size_t max_urls);

  [[nodiscard]] size_t due_pages() const { return due_.size(); }
  // The most due pages kept in memory (due_queue.h), and how often the
  // window was refilled from the store.
  void set_due_window(size_t pages) { due_.set_capacity(pages); }
  [[nodiscard]] uint64_t due_refills() const { return due_refills_; }
  // QueueServerStats' recrawl fields.
  void FillStats(v1::QueueServerStats* stats) const;

 private:
  // Sets the state's interval and next visit from the policy and queues the
  // page; `previous` is the state before the fetch (optimal: its change
  // rate leaves change_rates_).
  void ScheduleNextVisit(FetchState* state, v1::RevisitKind revisit, const FetchState* previous);
  // optimal: re-solves the multiplier from change_rates_ (every 64 pages
  // scheduled, and after a rebuild).
  void SolveOptimalMu();
  void PutFetchState(const std::string& url, FetchState state);

  const Clock* const clock_;
  ShardWriter* const writer_;
  Frontier& frontier_;
  const uint64_t crawl_id_;
  std::unordered_map<uint64_t, FetchState> memory_fetch_states_;  // without a writer
  // The policy (none: a crawl that ends with its frontier), the share of a
  // schedule due pages may take (percent), and the due pages.
  std::optional<RevisitPolicy> policy_;
  uint32_t share_percent_ = 50;
  DueQueue due_;
  // optimal (change_rate.h): the change rates of the scheduled pages, and
  // pages scheduled since the multiplier was last solved.
  ChangeRates change_rates_;
  uint64_t rates_since_solve_ = 0;
  // QueueServerStats 325-329: due pages re-entered, revisits unchanged /
  // changed, window refills.
  uint64_t revisits_entered_ = 0;
  uint64_t revisits_unchanged_ = 0;
  uint64_t revisits_changed_ = 0;
  uint64_t due_refills_ = 0;
};

}  // namespace crawl::queueserver
