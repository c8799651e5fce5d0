// What arrives at one crawl's shard, applied to it: seeds (InjectSeeds),
// fetch results (SubmitResults: the frontier's report, counters, crawl log,
// fetch states, host errors, links, search index) and links sent by other
// queue servers (AddUrls). A retried SubmitResults or AddUrls batch is
// applied once: the keys of applied batches are remembered
// (queueserver/applied_batches.h).
//
// Every change goes into the shard's request batch; the shard commits it.
// Owned by CrawlShard and, like it, not thread-safe: called under the
// service's lock (queueserver/service.h).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/base/clock.h"
#include "common/base/status.h"
#include "common/url/url.h"
#include "proto/crawl.pb.h"
#include "queueserver/applied_batches.h"
#include "queueserver/frontier/crawl_scope.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/index/search_index.h"
#include "queueserver/link_wire.h"
#include "queueserver/shard/crawl_log.h"
#include "queueserver/shard/recrawl_scheduler.h"
#include "queueserver/store/queue_store.h"

namespace crawl::queueserver {

// Limits on one request, so an oversized or hostile request is refused whole
// (never half applied).
inline constexpr int kMaxRecordsPerRequest = 20'000;
inline constexpr int kMaxLinksPerRequest = 1'000'000;
inline constexpr int kMaxSeedsPerRequest = 1'000'000;
inline constexpr size_t kMaxIdBytes = 256;  // fetcher ids and batch ids

// kInvalidArgument when `id` (a fetcher or batch id, named `what` in the
// message) is longer than kMaxIdBytes.
[[nodiscard]] Status CheckRequestId(const std::string& id, const char* what);

// A revisit of unchanged content among a SubmitResults call's records: the
// WARC revisit profile and the fetch time of the content it confirms (0:
// unknown).
struct RevisitNote {
  v1::RevisitKind kind = v1::REVISIT_NONE;
  int64_t refers_to_unix_us = 0;
};

// The shard's parts an ingest changes; all are the shard's and outlive it.
struct ShardParts {
  const v1::CrawlInfo& crawl;
  const Clock* clock;
  ShardWriter* writer;  // null: in memory only
  Frontier& frontier;
  ShardCounters& counters;
  CrawlLog& log;
  RecrawlScheduler& recrawl;
  SearchIndex& index;
};

class ShardIngest {
 public:
  explicit ShardIngest(const ShardParts& parts);

  // Each returns kInvalidArgument, changing nothing, for a request over the
  // limits above. A batch applied before sets resp->duplicate() and changes
  // nothing. SubmitResults fails, part applied, when the store cannot be
  // read: the shard is then stale (crawl_shard.h).
  [[nodiscard]] Status InjectSeeds(const v1::InjectSeedsRequest& req, v1::InjectSeedsResponse* resp);
  [[nodiscard]] Status SubmitResults(const v1::SubmitResultsRequest& req, v1::SubmitResultsResponse* resp);
  [[nodiscard]] Status AddUrls(const v1::AddUrlsRequest& req, v1::AddUrlsResponse* resp);

  // Which links the crawl keeps (max_depth, include/exclude hosts).
  void ApplyParams(const v1::CrawlParams& params);
  // The applied batches the store holds (on load).
  void RestoreAppliedBatches(std::vector<AppliedBatch> batches) {
    applied_batches_.Restore(std::move(batches));
  }

  // Applied batch keys remembered (bounded).
  [[nodiscard]] size_t applied_batches() const { return applied_batches_.size(); }
  // Links and seeds skipped because they were not valid URLs, and those
  // over url::kMaxUrlBytes.
  [[nodiscard]] uint64_t invalid_urls() const { return invalid_urls_; }
  [[nodiscard]] uint64_t too_long_urls() const { return too_long_urls_; }
  // The revisits among the records of the last SubmitResults call, by URL.
  [[nodiscard]] const std::unordered_map<std::string, RevisitNote>& last_revisits() const {
    return revisits_;
  }

 private:
  // Whether batch `key` was applied; if not, records it as applied.
  bool AppliedBefore(const std::string& key);
  // One fetch record of schedule `schedule_id`: the frontier's report,
  // counters, fetch state and log entry. `boosts`: the page's indexer score.
  [[nodiscard]] Status ApplyRecord(uint64_t schedule_id, const v1::FetchRecord& r, int64_t now_ms,
                                   std::unordered_map<std::string, double>* boosts);
  // Host errors of a schedule: the fetcher's counts, else the records'.
  void NoteHostErrors(const v1::SubmitResultsRequest& req);
  // `referrers`: LinkReferrers(links).
  void AddLinks(const google::protobuf::RepeatedPtrField<v1::DiscoveredLink>& links,
                const std::vector<std::string_view>& referrers, int64_t now_ms);
  // Indexes a request's pages and links (search_index.h). `boosts`: the
  // chain's indexer score of each fetched page, by URL.
  void IndexBatch(const google::protobuf::RepeatedPtrField<v1::FetchRecord>& records,
                  const google::protobuf::RepeatedPtrField<v1::DiscoveredLink>& links,
                  const std::vector<std::string_view>& referrers,
                  const std::unordered_map<std::string, double>& boosts);
  // For IndexBatch: whether `r` takes its page out of search (gone, moved,
  // now noindex) or is unchanged content (its postings stay; a page removed
  // before answers again). Either way it is not indexed.
  bool RemovedOrUnchanged(const v1::FetchRecord& r);

  ShardParts shard_;
  CrawlScope scope_;
  url::OriginMemo link_origins_;  // AddLinks' hosts of links
  uint64_t out_of_scope_ = 0;
  uint64_t invalid_urls_ = 0;
  uint64_t too_long_urls_ = 0;
  AppliedBatches applied_batches_;
  // Of the last SubmitResults: its revisits, and its pages that leave search.
  std::unordered_map<std::string, RevisitNote> revisits_;
  std::set<std::string> index_removals_;
};

}  // namespace crawl::queueserver
