// One queue server's share of one crawl: the frontier of the hosts it owns
// and the parts around it, each a class of its own under queueserver/shard/:
//   ShardIngest       seeds, fetch results and links applied, each batch once
//                     (docs/DESIGN.md §3 step 6)
//   CrawlLog          the crawl log and the status page's summary of it
//   RecrawlScheduler  fetch states, next visits, due pages back in the frontier
//   SiteReports       the structure order's finished-site reports
// The shard owns them, hands out schedules, and commits each request.
//
// With a ShardWriter (queueserver/store/queue_store.h) every request's changes are
// committed in one atomic batch before the request is answered; a shard whose
// commit failed is stale (its memory is ahead of the store) and must be
// replaced by one loaded from the store (`Load`). Without a writer the shard
// lives in memory only.
//
// Takes and fills wire messages so the gRPC service stays a thin adapter;
// holds no sockets and reads time from an injected clock. Not thread-safe:
// the service serialises calls under its lock (queueserver/service.h), and
// the shard's parts are called only through the shard.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/base/clock.h"
#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/fetch_state.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/index/search_index.h"
#include "queueserver/revisit_policy.h"
#include "queueserver/shard/crawl_log.h"
#include "queueserver/shard/frontier_options.h"
#include "queueserver/shard/recrawl_scheduler.h"
#include "queueserver/shard/shard_ingest.h"
#include "queueserver/shard/site_reports.h"
#include "queueserver/site_report_log.h"
#include "queueserver/store/queue_store.h"

namespace crawl::queueserver {

// The host of a HostQueue request (QueueServer.HostQueue) as url::HostOf
// gives it for the queued URLs (lower case, IDN as punycode, IPv6 without
// brackets); kInvalidArgument when `host` is empty or not a bare host name
// (a scheme, port, path or userinfo, characters no host has).
[[nodiscard]] Result<std::string> HostOfRequest(std::string_view host);

// The language whose stemmer stems a search (docs/DESIGN.md §8): the
// request's (normalized as common/text/language_id.h does), else the one
// CLD2 reliably identifies in the query's words (`site:` terms, quotes and
// `|` left out), else "en".
[[nodiscard]] std::string QueryLanguage(const v1::SearchRequest& req);

// The languages a search is stemmed in, each giving its own alternatives of
// the query: QueryLanguage's first; when the request names none and CLD2
// cannot tell reliably, also CLD2's best guesses, the script's most written
// language, then every other Snowball language (one code per stemmer). A
// query of a few words rarely reads reliably, and stemmed only as English a
// short Spanish title would miss its page, whose terms are Spanish stems.
[[nodiscard]] std::vector<std::string> QueryLanguages(const v1::SearchRequest& req);

// HostQueue bounds: queued entries read when the request names none, the
// most a request may ask to read, and the most sample URLs returned.
inline constexpr uint64_t kDefaultHostQueueScan = 1'000'000;
inline constexpr uint64_t kMaxHostQueueScan = 2'000'000;  // about a second of the shard's lock
inline constexpr uint32_t kMaxHostQueueSample = 100;

class CrawlShard {
 public:
  // A new shard for `crawl`. `clock` must outlive the shard; `writer` (may be
  // null: in memory only) is owned. Call Create() to persist it.
  // `index_partition_bytes`: IndexOptions::partition_bytes (0: no bound).
  CrawlShard(const v1::CrawlInfo& crawl, const Clock* clock, std::unique_ptr<ShardWriter> writer,
             uint64_t index_partition_bytes = 0);

  // The shard of `crawl_id` as `store` holds it. `store` and `clock` must
  // outlive the shard.
  [[nodiscard]] static Result<std::unique_ptr<CrawlShard>> Load(QueueStore* store, uint64_t crawl_id,
                                                                const Clock* clock,
                                                                uint64_t index_partition_bytes = 0);

  // The frontier options a crawl's parameters ask for (shard/frontier_options.h).
  [[nodiscard]] static Result<FrontierOptions> FrontierOptionsFor(const v1::CrawlParams& params) {
    return queueserver::FrontierOptionsFor(params);
  }
  // Pages waiting for their next visit (recrawl; tests and stats).
  [[nodiscard]] size_t due_pages() const { return recrawl_.due_pages(); }
  // The most due pages kept in memory (due_queue.h; default 131,072 per
  // shard), and how often the window was refilled from the store.
  void set_due_window(size_t pages) { recrawl_.set_due_window(pages); }
  [[nodiscard]] uint64_t due_refills() const { return recrawl_.due_refills(); }
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
  // A page of the crawl log for GetCrawlLog (CrawlLog::ReadPage).
  [[nodiscard]] Status ReadLogPage(const v1::GetCrawlLogRequest& req, v1::CrawlLogChunk* chunk) const {
    return log_.ReadPage(req, chunk);
  }
  // Searches this shard's index (docs/DESIGN.md §8; queueserver/index/search_index.h):
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
  // kMaxHostQueueScan) and says so when it stopped there; and its
  // politeness (fields 11-17: Frontier::PolitenessOfHost, pace and
  // response times from RAM, forgotten on restart). Changes nothing.
  // REQUIRES: between requests. Errors are the store's read errors.
  [[nodiscard]] Status HostQueue(const std::string& host, const v1::HostQueueRequest& req,
                                 v1::HostQueueResponse* resp) const;
  // The structure order's finished-site reports go to `path` too (and the
  // ones it holds come back); see queueserver/site_report_log.h.
  [[nodiscard]] Status OpenSiteReports(std::string path) { return site_reports_.Open(std::move(path)); }
  [[nodiscard]] const SiteReportLog& site_reports() const { return site_reports_.log(); }
  // Applied batch keys remembered for deduplication (bounded).
  [[nodiscard]] size_t applied_batches() const { return ingest_.applied_batches(); }
  // Links and seeds skipped because they were not valid URLs.
  [[nodiscard]] uint64_t invalid_urls() const { return ingest_.invalid_urls(); }

  // What the shard remembers about the fetches of page URL `url` (last
  // fetch, validators, digest, change history; queueserver/fetch_state.h),
  // nullopt if it was never fetched; for the recrawl scheduler. Errors when
  // the store cannot be read or holds a damaged record.
  [[nodiscard]] Result<std::optional<FetchState>> FetchStateOf(const std::string& url) {
    return recrawl_.FetchStateOf(url);
  }
  // The revisits of unchanged content among the records of the last
  // SubmitResults call, by URL. Read by the service after the call, for the
  // page cache.
  [[nodiscard]] const std::unordered_map<std::string, RevisitNote>& last_revisits() const {
    return ingest_.last_revisits();
  }

 private:
  // Writes counters and commits the request's changes, then files the site
  // reports the request finished.
  Status Commit();
  // A leased entry of schedule `s` as the fetcher gets it (its origin's
  // crawl delay and start pace from `s`).
  void FillScheduledUrl(FrontierEntry& e, const Schedule& s, v1::ScheduledUrl* u);

  // Declared in dependency order: each part is built after those it uses.
  v1::CrawlInfo crawl_;
  const Clock* clock_;
  std::unique_ptr<ShardWriter> writer_;
  Frontier frontier_;
  ShardCounters counters_;
  std::optional<uint64_t> page_cap_;
  // The crawl's search index; journals into writer_ (same batch per request).
  std::unique_ptr<SearchIndex> index_;
  CrawlLog log_;
  RecrawlScheduler recrawl_;
  ShardIngest ingest_;
  SiteReports site_reports_;
};

}  // namespace crawl::queueserver
