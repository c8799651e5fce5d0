// One crawl's log on one queue server: every fetch record in arrival order,
// as `crawlctl log` and GetCrawlLog read it, and the status page's summary
// of it (pages per host, the latest failed fetches).
//
// The records are in the store's `log` family, written into the shard's
// request batch, or in memory for a shard without a store (tests). The
// summary is rebuilt from the records on load.
//
// Owned by CrawlShard and, like it, not thread-safe: called under the
// service's lock (queueserver/service.h).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/store/queue_store.h"

namespace crawl::queueserver {

class CrawlLog {
 public:
  // `writer` (null: records kept in memory) is the shard's and outlives the
  // log.
  explicit CrawlLog(ShardWriter* writer) : writer_(writer) {}

  // The log's copy of fetch record `r`: without the robots rules, the
  // description, the mini index and the body (kept elsewhere, and larger
  // than the rest), but with a robots.txt's first 16 KiB, which the
  // console's host page shows.
  [[nodiscard]] static v1::FetchRecord EntryFor(const v1::FetchRecord& r);

  // Counts the stored records and rebuilds the summary from them, one
  // record at a time. Errors are the store's read errors.
  [[nodiscard]] Status Load();
  // Appends `entry` (EntryFor's form) to the log.
  void Append(v1::FetchRecord entry);
  [[nodiscard]] uint64_t size() const { return size_; }

  // A page of the log for GetCrawlLog: from req.cursor() (else
  // req.offset()), in arrival order, at most req.limit() records (0:
  // 10,000; at most 50,000) that pass the request's filters
  // (common/crawl/log_filter.h), examining at most 100,000 records so that a
  // selective filter still answers quickly; chunk->cursor() resumes after
  // the last record examined, so a page boundary never skips or repeats
  // one. kInvalidArgument for a bad cursor or filter.
  [[nodiscard]] Status ReadPage(const v1::GetCrawlLogRequest& req, v1::CrawlLogChunk* chunk) const;

  // The summary: top_hosts (the 10 with most pages) and recent_errors.
  void FillStats(v1::QueueServerStats* stats) const;

 private:
  void NoteForStatus(const v1::FetchRecord& r);

  ShardWriter* const writer_;
  uint64_t size_ = 0;
  std::vector<v1::FetchRecord> memory_records_;  // without a writer
  std::unordered_map<std::string, uint64_t> host_pages_;
  std::deque<v1::FetchRecord> recent_errors_;  // newest first, at most 20
};

}  // namespace crawl::queueserver
