// Durable state of the name server (docs/DESIGN.md §9; a name
// server restart loses nothing): every crawl's CrawlInfo, the active crawl,
// the queue servers that ever registered, and each crawl's last polled
// numbers per queue server, in one RocksDB under --data-dir.
//
// Keys (default column family):
//   'c' id(8, big-endian)            -> CrawlInfo
//   'a'                              -> active crawl id (8 bytes; absent: none)
//   'm' server id                    -> QueueServerInfo
//   's' id(8) server id              -> QueueServerStats (last poll)
//   'p' id(8)                        -> CrawlInfo of a crawl being started:
//                                       written before any queue server is
//                                       told, removed when the crawl is
//                                       stored as running (no crawl forgotten)
//   'd' id(8)                        -> CrawlInfo (id and the queue servers
//                                       still to be told) of a pending delete
// Each Put* is one synchronous write (WAL fsynced): these happen a few
// times per crawl, not per page; only PutStats (every poll) skips the fsync. Without a data directory the
// store keeps nothing (Open("") gives an in-memory registry, for tests and quick runs). Thread-safe (RocksDB
// is).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "common/base/status.h"
#include "proto/crawl.pb.h"

namespace crawl::nameserver {

struct RegistryImage {
  std::map<uint64_t, v1::CrawlInfo> crawls;
  uint64_t active_crawl = 0;
  std::map<std::string, v1::QueueServerInfo> members;
  std::map<uint64_t, std::map<std::string, v1::QueueServerStats>> stats;
  // Crawls whose start was under way (no answer given yet), by id.
  std::map<uint64_t, v1::CrawlInfo> starting;
  // Deleted crawls some queue servers still hold: id and those servers.
  std::map<uint64_t, v1::CrawlInfo> pending_deletes;
};

class RegistryStore {
 public:
  // Opens (creating) the store in `dir`/registry; "" keeps nothing.
  // `memory_bytes` bounds RocksDB's memtable and block cache (a sixteenth of
  // it each).
  [[nodiscard]] static Result<std::unique_ptr<RegistryStore>> Open(const std::string& dir,
                                                                   size_t memory_bytes = size_t{64} << 20);
  ~RegistryStore();

  // Everything stored, for the service to start from.
  [[nodiscard]] Result<RegistryImage> Load() const;

  [[nodiscard]] Status PutCrawl(const v1::CrawlInfo& crawl);
  // 0 clears the active crawl.
  [[nodiscard]] Status PutActive(uint64_t crawl_id);
  // A crawl and whether it is the active one, in one atomic write; a start
  // record of the crawl goes in the same write.
  [[nodiscard]] Status PutCrawlAndActive(const v1::CrawlInfo& crawl, uint64_t active_crawl_id);
  [[nodiscard]] Status PutMember(const v1::QueueServerInfo& info);
  // Records a crawl being started (before any queue server hears of it).
  [[nodiscard]] Status PutStarting(const v1::CrawlInfo& crawl);
  // In one atomic write: crawl `id` leaves the store (its CrawlInfo, start
  // record and numbers) and `pending` (its queue servers still to be told to
  // drop it) is recorded; nothing is recorded when `pending` names none.
  [[nodiscard]] Status DeleteCrawl(uint64_t id, const v1::CrawlInfo& pending);
  // The queue servers still to be told of delete `pending.crawl_id()`; none
  // left removes the record.
  [[nodiscard]] Status PutPendingDelete(const v1::CrawlInfo& pending);
  [[nodiscard]] Status PutStats(uint64_t crawl_id, const v1::QueueServerStats& stats);

 private:
  struct Impl;
  explicit RegistryStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace crawl::nameserver
