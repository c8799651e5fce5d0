// Durable state of a queue server: one RocksDB under --data-dir holding, per
// crawl id, everything a CrawlShard and its Frontier keep (docs/DESIGN.md
// §1: "all state in RocksDB, survives kill -9"). docs/ARCHITECTURE.md
// "Durability" describes the layout and the guarantees.
//
// Column families, every key starting with the 8-byte big-endian crawl id:
//   meta     id 'i' -> CrawlInfo; id 'c' -> counters and frontier scalars
//   seen     id 'B' record(8) -> hash8...         (URL-seen set: the hashes one
//                                                  commit added; older stores:
//                                                  id hash8 -> "")
//   queue    id 'R' seq(8) -> entry               (robots.txt FIFO; 'P': the page
//                                                  FIFO of older stores, moved to
//                                                  "tiers" at open)
//   waiting  id origin 0x00 seq(8) -> entry       (pages waiting for robots.txt)
//   origins  id origin -> robots state + serialized rules
//   leases   id schedule(8) 0x00 -> lease header; id schedule(8) 0x02 -> every
//            entry; id schedule(8) 0x03 url -> "" (reported done); older
//            stores: id schedule(8) 0x01 url -> entry. Closed by one range delete.
//   log      id index(8) -> FetchRecord
//   batches  id key -> applied_ms(8) order(8)     (applied batch keys, the recent
//                                                  ones: queueserver/applied_batches.h;
//                                                  older stores: "")
//   clds     id cld -> SEEN, WSEEN, WIN           (host_budget, docs/DESIGN.md §5.1)
//   opic     id 'Q' sort(8, descending) seq(8) -> entry;  id 'H' hash8 -> sort seq
//            (the opic order's queue, queueserver/frontier/opic_order.h)
//   tiers    id 'T' tier(4) seq(8) -> entry;  id 'C' tier(4) -> count(8)
//            (the bfs/host_budget tier FIFOs, queueserver/frontier/tier_store.h)
//   meta     id 'o' -> the order's scalars
//   structure id origin 0x00 graph(1) node -> value (8-byte double): the
//            structure order's GC ('C') and GB ('B') nodes per host
//            (queueserver/frontier/structure_module.h)
//   docs, doc_map, postings, terms: the search index (queueserver/index/search_index.h),
//            read by the index through the ShardWriter, not loaded at start-up;
//            its postings segments are files under the store's directory
//            (segment_files.h), postings id 'c' partition(4) -> their length
//   fetch_state id hash8(url) -> FetchState        (per page URL: last fetch,
//            validators, digest, change history; queueserver/fetch_state.h;
//            read by key through the ShardWriter, not loaded at start-up)
//   warc_loc id hash8(url) -> url, file number, offset  (the page cache's
//            newest response record per URL, warc_location_index.h; written
//            after the WARC appends, one batch per request, outside the
//            request's commit; read by key, not loaded at start-up)
//
// A ShardWriter collects the changes of one request (it is the Frontier's
// journal): families read back before Commit (opic, the index) in an
// indexed batch, the tier queues in a batch indexed only when read, the
// rest in a plain one; Commit() writes them as one atomic batch with the
// write-ahead log on. RocksDB types stay inside queueserver/store/ (its
// .cc files and internal headers, never this one); errors come back as
// crawl::Status. Thread-safety: QueueStore may be used from any thread; a
// ShardWriter by one thread at a time.
//
// Files: queue_store.cc opens (column families, migrations of older
// layouts: queue_store_migrate.h); queue_store_load.cc loads one loader per
// family; queue_store_codec.h encodes keys and values; queue_store_db.h
// holds the families and the open database; shard_writer.cc the writer
// (its parts in shard_*.h); segment_files.h the index's postings segments,
// kept in files; warc_location_store.cc the page cache's location index. A
// store from before a family was added gets it empty when it opens.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/applied_batches.h"
#include "queueserver/fetch_state.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/frontier/opic_order.h"
#include "queueserver/frontier/tier_store.h"
#include "queueserver/index/search_index.h"
#include "queueserver/store/warc_location_index.h"

namespace crawl::queueserver {

// Per-crawl numbers kept beside the frontier.
struct ShardCounters {
  uint64_t pages_fetched = 0;
  uint64_t fetch_attempts = 0;
  uint64_t bytes_fetched = 0;
  uint64_t fetch_errors = 0;
  bool ended = false;
  bool operator==(const ShardCounters&) const = default;
};

// What the store holds for one crawl.
struct ShardImage {
  v1::CrawlInfo crawl;
  ShardCounters counters;
  FrontierImage frontier;
  std::vector<AppliedBatch> applied_batches;
};

class QueueStore;

// The changes of one request to one crawl, written together by Commit().
// It is also the opic order's OpicStore, the tiered orders' TierStore
// (reads see the batch's own writes) and the search index's journal.
class ShardWriter final : public FrontierJournal, public OpicStore, public TierStore, public IndexJournal {
 public:
  ~ShardWriter() override;

  void Seen(uint64_t url_hash) override;
  void Queued(QueueKind queue, const SeqEntry& e) override;
  void Dequeued(QueueKind queue, uint64_t seq) override;
  void WaitAdded(const std::string& origin, const SeqEntry& e) override;
  void WaitRemoved(const std::string& origin, uint64_t seq) override;
  void OriginChanged(const std::string& origin, const OriginRecord& record) override;
  void LeaseOpened(uint64_t schedule_id, const LeaseRecord& lease,
                   const std::vector<FrontierEntry>& entries) override;
  void LeaseUrlDone(uint64_t schedule_id, const std::string& url) override;
  void LeaseClosed(uint64_t schedule_id, const std::vector<std::string>& urls) override;
  void CldChanged(const std::string& cld, const CldStats& stats) override;
  void OrderStateChanged(const std::string& blob) override;
  void StructureNodeChanged(const StructureNodeRecord& node) override;

  void OpicPut(const OpicKey& key, uint64_t url_hash, const FrontierEntry& e) override;
  void OpicErase(const OpicKey& key, uint64_t url_hash) override;
  [[nodiscard]] std::optional<OpicKey> OpicFind(uint64_t url_hash) override;
  [[nodiscard]] std::optional<FrontierEntry> OpicGet(const OpicKey& key) override;
  [[nodiscard]] std::vector<std::pair<OpicKey, FrontierEntry>> OpicTop(size_t n) override;
  [[nodiscard]] std::optional<OpicVisits> OpicVisitsGet(uint64_t url_hash) override;
  void OpicVisitsPut(uint64_t url_hash, const OpicVisits& v) override;
  // The committed queue only (REQUIRES: between requests); no read error is
  // kept for the next Commit: it comes back here.
  [[nodiscard]] Status OpicScan(const OpicStore::ScanVisitor& visit) const override;

  void TierPut(int32_t tier, const SeqEntry& e) override;
  void TierErase(int32_t tier, uint64_t seq) override;
  [[nodiscard]] std::vector<SeqEntry> TierRead(int32_t tier, uint64_t after, size_t n) override;
  [[nodiscard]] std::map<int32_t, TierInfo> TierSummary() override;
  // As OpicScan: committed entries, errors returned.
  [[nodiscard]] Status TierScan(const TierStore::ScanVisitor& visit) const override;

  void AppendLog(uint64_t index, const v1::FetchRecord& record);
  // Visits the committed crawl log from record `from` on, in arrival order,
  // at most `limit` records (0: all); `*end` is the index after the last one
  // visited. The log stays on disk: a queue server that kept it in RAM grew
  // by ~300 bytes per fetch (docs/BENCHMARKS.md, memory curve).
  [[nodiscard]] Status ScanLog(uint64_t from, uint64_t limit,
                               const std::function<void(v1::FetchRecord&&)>& visit, uint64_t* end) const;
  void AddAppliedBatch(const AppliedBatch& batch);
  // Forgets an applied batch key (queueserver/applied_batches.h).
  void DropAppliedBatch(const std::string& key);
  // The fetch state of the page URL with hash `url_hash` (queueserver/
  // fetch_state.h), as written in this batch or else committed; nullopt
  // when there is none, or when the stored one is another URL's (`url`
  // differs: a hash collision). kIoError when it cannot be read, kInternal
  // for a damaged record.
  [[nodiscard]] Result<std::optional<FetchState>> GetFetchState(uint64_t url_hash, const std::string& url);
  void PutFetchState(uint64_t url_hash, const FetchState& state);
  // Visits every committed fetch state of the crawl in URL-hash order until
  // `visit` returns false (for a recrawl scheduler building its queue).
  // Damaged records are skipped and counted in `*damaged` (may be null).
  [[nodiscard]] Status ScanFetchStates(const std::function<bool(uint64_t url_hash, const FetchState&)>& visit,
                                       uint64_t* damaged = nullptr) const;
  void PutCrawl(const v1::CrawlInfo& crawl);
  void PutCounters(const ShardCounters& counters, const FrontierScalars& scalars);
  void PutIndex(IndexFamily family, const std::string& key, const std::string& value) override;
  [[nodiscard]] Status GetIndex(IndexFamily family, const std::string& key, std::string* value) override;
  [[nodiscard]] Status ScanIndex(
      IndexFamily family, const std::string& prefix,
      const std::function<bool(std::string_view, std::string_view)>& visit) override;
  [[nodiscard]] Status WriteIndexNow(const std::vector<Put>& puts, const std::vector<Key>& deletes,
                                     IndexFamily erase_family, const std::string& erase_from,
                                     const std::string& erase_to) override;
  // A table file written with RocksDB's SstFileWriter and ingested
  // (IngestExternalFile): a partition merge's lists skip the write-ahead
  // log, the memtable and its flush.
  [[nodiscard]] Status WriteSortedNow(IndexFamily family, const std::vector<Put>& puts) override;
  // A RocksDB snapshot of the index families, and a copy of this request's
  // pending index writes (none between requests, where searches take it).
  [[nodiscard]] std::shared_ptr<const IndexSnapshot> SnapshotIndex() override;
  // Postings segments in files of their own (store/segment_files.h),
  // written by Commit before its batch, which records their lengths;
  // segments of older stores, RocksDB records, are still read.
  void AppendSegment(uint32_t partition, uint32_t first_doc, std::string segment) override;
  [[nodiscard]] Status ScanSegments(uint32_t partition,
                                    const std::function<bool(uint32_t, std::string_view)>& visit,
                                    uint64_t* lost) override;
  [[nodiscard]] Status DropSegments(uint32_t partition) override;

  // Writes every change since the last Commit/Discard in one atomic batch,
  // then starts an empty one. On error nothing of the batch is written.
  [[nodiscard]] Status Commit();
  // Drops the changes collected since the last Commit.
  void Discard();
  // Changes waiting for Commit.
  [[nodiscard]] size_t pending() const;

 private:
  friend class QueueStore;
  struct Impl;
  explicit ShardWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class QueueStore {
 public:
  struct Options {
    // fsync the write-ahead log on every commit. Off by default: a killed
    // process loses nothing (the log is in the OS page cache), a power cut may
    // lose the last writes.
    bool sync = false;
    // The most RocksDB may hold in memory: block cache and memtables
    // together (store_memory.h), an eighth of the data stored until that
    // reaches this.
    size_t memory_bytes = size_t{256} << 20;
  };

  // Opens or creates the database in `dir` (created if missing).
  [[nodiscard]] static Result<std::unique_ptr<QueueStore>> Open(const std::string& dir, Options options);
  ~QueueStore();
  QueueStore(const QueueStore&) = delete;
  QueueStore& operator=(const QueueStore&) = delete;

  // Ids of every crawl stored, ascending.
  [[nodiscard]] Result<std::vector<uint64_t>> ListCrawls() const;
  // Everything stored for `crawl_id`; kNotFound if it has no CrawlInfo.
  [[nodiscard]] Result<ShardImage> Load(uint64_t crawl_id) const;
  // A writer for `crawl_id`. The store must outlive it.
  [[nodiscard]] std::unique_ptr<ShardWriter> NewWriter(uint64_t crawl_id);

  // Removes everything stored for `crawl_id` in every family, in one atomic
  // write of range deletes (every key starts with the crawl id). Idempotent:
  // a crawl not stored changes nothing. No ShardWriter of the crawl may be in
  // use. InvalidArgument for id 0 or the highest id (no range end).
  [[nodiscard]] Status DeleteCrawl(uint64_t crawl_id);
  // What RocksDB holds in memory, in bytes, after FitMemoryToData.
  struct MemoryUse {
    size_t capacity = 0;    // block cache capacity (memtables charged in it)
    size_t cache_used = 0;  // of it, in use (blocks and memtables)
    size_t memtables = 0;
    size_t data = 0;  // tables and blob files on disk plus memtables, what capacity follows
  };
  // Fits the cache (and the memtables' share) to the data stored now
  // (StoreMemory::CapacityFor). Cheap: call it every second or so.
  MemoryUse FitMemoryToData();

  // Compacts the key range of `crawl_id` in every family, so a deleted
  // crawl's disk space comes back now rather than whenever RocksDB gets to
  // it. May take a while: call it without holding locks others wait on.
  void CompactCrawl(uint64_t crawl_id);

  // The page cache's location index of `crawl_id` (family warc_loc),
  // written and read directly, not through a ShardWriter: WARC files are
  // written after the request's commit. The store must outlive it; it may be
  // used from any one thread at a time.
  [[nodiscard]] std::unique_ptr<WarcLocationIndex> WarcLocations(uint64_t crawl_id);

  // Tests: every Commit (and PutLocations) fails with kIoError while set,
  // writing nothing (but postings segments past their files' committed
  // lengths, which are never read: as a batch that failed after them).
  void FailWritesForTest(bool fail);

 private:
  friend class ShardWriter;
  struct Impl;
  explicit QueueStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace crawl::queueserver
