// One queue server's share of one crawl: the frontier of the hosts it owns,
// its crawl log, counters, and the record of applied batches that makes
// retried SubmitResults/AddUrls calls apply once (DESIGN.md section 3 step 6).
//
// With a ShardWriter (queueserver/store/queue_store.h) every request's changes are
// committed in one atomic batch before the request is answered; a shard whose
// commit failed is stale (its memory is ahead of the store) and must be
// replaced by one loaded from the store (`Load`). Without a writer the shard
// lives in memory only.
//
// Takes and fills wire messages so the gRPC service stays a thin adapter;
// holds no sockets and reads time from an injected clock. Not thread-safe:
// the service serialises calls.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <deque>
#include <functional>
#include <vector>

#include "common/base/clock.h"
#include "common/base/status.h"
#include "common/url/url.h"
#include "proto/crawl.pb.h"
#include "queueserver/applied_batches.h"
#include "queueserver/change_rate.h"
#include "queueserver/due_queue.h"
#include "queueserver/fetch_state.h"
#include "queueserver/revisit_policy.h"
#include "queueserver/frontier/crawl_scope.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/store/queue_store.h"
#include "queueserver/index/search_index.h"
#include "queueserver/link_wire.h"
#include "queueserver/site_report_log.h"

namespace crawl::queueserver {

// Limits on one request, so an oversized or hostile request is refused whole
// (never half applied).
inline constexpr int kMaxRecordsPerRequest = 20'000;
inline constexpr int kMaxLinksPerRequest = 1'000'000;
inline constexpr int kMaxSeedsPerRequest = 1'000'000;
inline constexpr size_t kMaxIdBytes = 256;  // fetcher ids and batch ids

// The host of a HostQueue request (QueueServer.HostQueue) as url::HostOf
// gives it for the queued URLs (lower case, IDN as punycode, IPv6 without
// brackets); kInvalidArgument when `host` is empty or not a bare host name
// (a scheme, port, path or userinfo, characters no host has).
[[nodiscard]] Result<std::string> HostOfRequest(std::string_view host);

// HostQueue bounds: queued entries read when the request names none, the
// most a request may ask to read, and the most sample URLs returned.
inline constexpr uint64_t kDefaultHostQueueScan = 1'000'000;
inline constexpr uint64_t kMaxHostQueueScan = 2'000'000;  // about a second of the shard's lock
inline constexpr uint32_t kMaxHostQueueSample = 100;

class StructureOrder;

// The crawl's per-origin URL caps (CrawlParams fields 96-98; 0: default).
[[nodiscard]] HostCaps HostCapsOf(const v1::CrawlParams& params);
// Adds to crawl_queueserver_over_host_cap_urls_total.
void CountOverHostCap(uint64_t n);

class CrawlShard {
 public:
  // A new shard for `crawl`. `clock` must outlive the shard; `writer` (may be
  // null: in memory only) is owned. Call Create() to persist it.
  CrawlShard(const v1::CrawlInfo& crawl, const Clock* clock, std::unique_ptr<ShardWriter> writer);

  // The shard of `crawl_id` as `store` holds it. `store` and `clock` must
  // outlive the shard.
  [[nodiscard]] static Result<std::unique_ptr<CrawlShard>> Load(QueueStore* store, uint64_t crawl_id,
                                                               const Clock* clock);

  // The frontier options a crawl's parameters ask for; InvalidArgument for
  // an unknown order, increment, split or scoring filter, or bad bounds.
  [[nodiscard]] static Result<FrontierOptions> FrontierOptionsFor(const v1::CrawlParams& params);
  // CrawlParams 120-124 (recrawl) as a revisit policy; none when recrawl is
  // off; InvalidArgument for a bad policy name or bounds.
  [[nodiscard]] static Result<std::optional<RevisitPolicy>> RevisitPolicyFor(const v1::CrawlParams& params);
  // Pages waiting for their next visit (recrawl; tests and stats).
  [[nodiscard]] size_t due_pages() const { return due_.size(); }
  // The most due pages kept in memory (due_queue.h; default 131,072 per
  // shard), and how often the window was refilled from the store.
  void set_due_window(size_t pages) { due_.set_capacity(pages); }
  [[nodiscard]] uint64_t due_refills() const { return due_refills_; }
  // The frontier (tests).
  [[nodiscard]] const Frontier& frontier() const { return frontier_; }
  [[nodiscard]] Frontier& frontier() { return frontier_; }

  [[nodiscard]] uint64_t crawl_id() const { return crawl_.crawl_id(); }
  [[nodiscard]] const v1::CrawlInfo& crawl() const { return crawl_; }
  [[nodiscard]] FrontierCounters frontier_counters() const { return frontier_.Counters(); }
  [[nodiscard]] bool durable() const { return writer_ != nullptr; }
  [[nodiscard]] bool ended() const { return counters_.ended; }

  // Every mutating call returns the outcome of its commit; on error the
  // shard is stale (see above) and nothing of the call reached the store.
  [[nodiscard]] Status Create();
  [[nodiscard]] Status InjectSeeds(const v1::InjectSeedsRequest& req, v1::InjectSeedsResponse* resp);
  [[nodiscard]] Status GetSchedule(const v1::GetScheduleRequest& req, v1::GetScheduleResponse* resp);
  // Ends the lease of a schedule its fetcher never received (the caller gave
  // up while it was leased): its URLs go back to the front of their queues
  // now, not when the lease runs out. Unknown ids change nothing.
  [[nodiscard]] Status ReturnSchedule(uint64_t schedule_id);
  [[nodiscard]] Status SubmitResults(const v1::SubmitResultsRequest& req, v1::SubmitResultsResponse* resp);
  [[nodiscard]] Status AddUrls(const v1::AddUrlsRequest& req, v1::AddUrlsResponse* resp);
  // Marks the crawl ended: no more schedules are handed out.
  [[nodiscard]] Status End(v1::CrawlState state);
  // Takes up a newer version of the crawl (params_version greater than the
  // one held): new parameters, and a RUNNING state re-opens an ended shard
  // (crawlctl resume). Older or equal versions change nothing.
  [[nodiscard]] Status Update(const v1::CrawlInfo& crawl);
  // Re-queues expired leases and due robots.txt retries.
  [[nodiscard]] Status Tick();
  void FillStats(v1::QueueServerStats* stats) const;
  // Nothing queued, waiting or leased: the name server's completion
  // detector's idle (nameserver/completion.h).
  [[nodiscard]] bool Idle() const {
    const FrontierCounters c = frontier_.Counters();
    return c.frontier_size == 0 && c.leased_urls == 0 && c.outstanding_schedules == 0;
  }
  // New URLs are leased only while pages fetched + URLs leased stay below
  // `cap` (this server's share of the page budget). Not persisted: the name
  // server sends it with every Stats poll.
  void SetPageCap(uint64_t cap) { page_cap_ = cap; }
  // Records [offset, offset+limit) of the crawl log, in arrival order, read
  // from the store (kIoError/kCorruption if it cannot be read).
  [[nodiscard]] Status ReadLog(uint64_t offset, uint32_t limit, v1::CrawlLogChunk* chunk) const;
  // A page of the crawl log for GetCrawlLog (crawl_shard_log.cc): from
  // req.cursor() (else req.offset()), in arrival order, at most req.limit()
  // records (0: 10,000; at most 50,000) that pass the request's filters
  // (common/crawl/log_filter.h), examining at most 100,000 records so that a
  // selective filter still answers quickly; chunk->cursor() resumes after
  // the last record examined, so a page boundary never skips or repeats
  // one. kInvalidArgument for a bad cursor or filter.
  [[nodiscard]] Status ReadLogPage(const v1::GetCrawlLogRequest& req, v1::CrawlLogChunk* chunk) const;
  // Searches this shard's index (DESIGN.md 8; queueserver/index/search_index.h):
  // at most req.limit() matches (0: 200) within req.timeout_ms() (0: 1 s).
  // Bad queries give kInvalidArgument. Changes nothing in the store.
  [[nodiscard]] Status Search(const v1::SearchRequest& req, v1::SearchResponse* resp);
  // Search in two steps: PrepareSearch takes what the search needs from the
  // index (REQUIRES: the caller's exclusive access to the shard, as every
  // other method); the job it returns runs the walk and fills the response
  // without the shard (it may run outside the service lock, concurrently
  // with ingestion, after the shard is gone; not after the store).
  using SearchJob = std::function<Status(v1::SearchResponse*)>;
  [[nodiscard]] Result<SearchJob> PrepareSearch(const v1::SearchRequest& req);
  [[nodiscard]] const SearchIndex& index() const { return *index_; }
  // What the shard holds of host `host` (HostOfRequest's form): queued URLs
  // per tier, those waiting for robots.txt, those leased, and the first
  // req.sample_urls() queued ones (at most kMaxHostQueueSample); reads at
  // most req.max_scan() queued entries (0: kDefaultHostQueueScan; at most
  // kMaxHostQueueScan) and says so when it stopped there. Changes nothing
  // (crawl_shard_host_queue.cc). REQUIRES: between requests. Errors are
  // the store's read errors.
  [[nodiscard]] Status HostQueue(const std::string& host, const v1::HostQueueRequest& req,
                                 v1::HostQueueResponse* resp) const;
  // The structure order's finished-site reports go to `path` too (and the
  // ones it holds come back); see queueserver/site_report_log.h.
  [[nodiscard]] Status OpenSiteReports(std::string path) { return site_reports_.Open(std::move(path)); }
  [[nodiscard]] const SiteReportLog& site_reports() const { return site_reports_; }
  // Applied batch keys remembered for deduplication (bounded).
  [[nodiscard]] size_t applied_batches() const { return applied_batches_.size(); }
  // Links and seeds skipped because they were not valid URLs.
  [[nodiscard]] uint64_t invalid_urls() const { return invalid_urls_; }

  // What the shard remembers about the fetches of page URL `url` (last
  // fetch, validators, digest, change history; queueserver/fetch_state.h),
  // nullopt if it was never fetched; for the recrawl scheduler. Errors when
  // the store cannot be read or holds a damaged record.
  [[nodiscard]] Result<std::optional<FetchState>> FetchStateOf(const std::string& url);
  // The revisits of unchanged content among the records of the last
  // SubmitResults call, by URL: the WARC revisit profile and the fetch time
  // of the content they confirm (0: unknown). Read by the service after
  // the call, for the page cache.
  struct RevisitNote {
    v1::RevisitKind kind = v1::REVISIT_NONE;
    int64_t refers_to_unix_us = 0;
  };
  [[nodiscard]] const std::unordered_map<std::string, RevisitNote>& last_revisits() const { return revisits_; }

 private:
  // `referrers`: LinkReferrers(links).
  void AddLinks(const google::protobuf::RepeatedPtrField<v1::DiscoveredLink>& links,
                const std::vector<std::string_view>& referrers, int64_t now_ms);
  // Indexes a request's pages and links (search_index.h) into writer_'s batch.
  // `boosts`: the chain's indexer score of each fetched page, by URL.
  void IndexBatch(const google::protobuf::RepeatedPtrField<v1::FetchRecord>& records,
                  const google::protobuf::RepeatedPtrField<v1::DiscoveredLink>& links,
                  const std::vector<std::string_view>& referrers,
                  const std::unordered_map<std::string, double>& boosts);
  // Writes counters and commits the request's changes.
  Status Commit();
  // Revisits (crawl_shard_revisit.cc): updates the fetch state of a page's
  // record `r` in the request's batch, marks `logged` not-modified /
  // unchanged, and notes the revisit in revisits_. Fails (the request with
  // it) only when the store cannot be read.
  [[nodiscard]] Status NoteFetch(const v1::FetchRecord& r, v1::FetchRecord* logged, bool requeued = false);
  // For IndexBatch (crawl_shard_revisit.cc): whether `r` takes its page out
  // of search (gone, moved, now noindex) or is unchanged content (its
  // postings stay; a page removed before answers again). Either way it is
  // not indexed.
  bool RemovedOrUnchanged(const v1::FetchRecord& r);
  // Recrawl (crawl_shard_recrawl.cc). A crawl without recrawl does nothing.
  // Sets the state's interval and next visit from the revisit policy and
  // queues the page in due_; `previous` is the state before the fetch
  // (optimal: its change rate leaves change_rates_).
  void ScheduleNextVisit(FetchState* state, v1::RevisitKind revisit, const FetchState* previous = nullptr);
  // optimal: re-solves the multiplier from change_rates_ (every 64 pages
  // scheduled, and after a load).
  void SolveOptimalMu();
  // Before a lease of up to `max_urls`: files up to recrawl_share x
  // max_urls due pages into the frontier (Frontier::Revisit) and clears
  // their stored next visit (in the request's batch).
  void ReenterDue(size_t max_urls);
  // Load: due_ from the stored fetch states.
  [[nodiscard]] Status RebuildDueQueue();
  // The crawl's parameters as revisit settings (none: not a recrawl).
  void ApplyRecrawlParams(const v1::CrawlParams& p);
  // Attaches the remembered validators and digest to a page leased again.
  void AttachRevisit(v1::ScheduledUrl* u);
  // Files the reports of the site sessions that ended (structure order).
  Status DrainSiteReports();

  v1::CrawlInfo crawl_;
  const Clock* clock_;
  std::unique_ptr<ShardWriter> writer_;
  Frontier frontier_;
  std::optional<uint64_t> page_cap_;
  // Records in the crawl log. The records themselves are on disk (the store's
  // `log` family), or in memory_log_ for a shard without a store (tests).
  uint64_t log_size_ = 0;
  std::vector<v1::FetchRecord> memory_log_;
  // Which links the crawl keeps (max_depth, include/exclude hosts); follows
  // parameter changes.
  CrawlScope scope_;
  url::OriginMemo link_origins_;  // AddLinks' hosts of links
  uint64_t out_of_scope_ = 0;
  // For the status page (QueueServerStats top_hosts, recent_errors): pages
  // per host and the latest failed fetches, rebuilt from the log on load.
  void NoteForStatus(const v1::FetchRecord& r);
  std::unordered_map<std::string, uint64_t> host_pages_;
  std::deque<v1::FetchRecord> recent_errors_;
  // Records `key` as applied (and what it forgets) into writer_'s batch.
  void NoteApplied(const std::string& key);
  AppliedBatches applied_batches_;
  ShardCounters counters_;
  uint64_t invalid_urls_ = 0;
  uint64_t too_long_urls_ = 0;  // over url::kMaxUrlBytes (in memory)
  // The crawl's search index; journals into writer_ (same batch per request).
  std::unique_ptr<SearchIndex> index_;
  // Fetch states of a shard without a store (tests); revisits_ of the last
  // SubmitResults.
  std::unordered_map<uint64_t, FetchState> memory_fetch_state_;
  std::unordered_map<std::string, RevisitNote> revisits_;
  // Pages of the last SubmitResults that leave search (LeavesSearch).
  std::set<std::string> index_removals_;
  // Recrawl: the policy (none: a crawl that ends with its frontier), the
  // share of a schedule due pages may take (percent), and the due pages.
  std::optional<RevisitPolicy> revisit_policy_;
  uint32_t recrawl_share_percent_ = 50;
  DueQueue due_;
  // optimal (change_rate.h): the change rates of the shard's scheduled
  // pages, and pages scheduled since the multiplier was last solved.
  ChangeRates change_rates_;
  uint64_t rates_since_solve_ = 0;
  // Recrawl counters (QueueServerStats 325-329): due pages re-entered,
  // revisits unchanged / changed, window refills.
  uint64_t revisits_entered_ = 0;
  uint64_t revisits_unchanged_ = 0;
  uint64_t revisits_changed_ = 0;
  uint64_t due_refills_ = 0;
  // The structure order (null for the others) and its finished-site reports.
  StructureOrder* structure_ = nullptr;
  SiteReportLog site_reports_;
};

}  // namespace crawl::queueserver
