// Where a SearchIndex keeps its records (search_index.h): the index's
// column families, the IndexJournal the index writes and reads them through
// (the ShardWriter over RocksDB, or MemoryIndexJournal), and the read-only
// IndexSnapshot a prepared search walks. Record layouts are in
// index_records.h and docs/ARCHITECTURE.md "Index and search".
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/status.h"

namespace crawl::queueserver {

// Index column families (keys below are what follows the crawl id prefix).
enum class IndexFamily {
  kDocs,      // doc id (24) -> zlib(summary)
  kDocMap,    // 'a' partition(4) doc(4) -> document entry; 'r' partition(4) place(4) -> doc(4);
              // 'c' partition(4) -> documents (closed); 'm' partition(4) -> "" (merged); 's' -> totals;
              // 'u' url hash(8) -> liveness (PageLiveness); 'g' -> compaction counters (index_compact.cc)
  kPostings,  // 'c' partition(4) first doc(4) -> segment (a request's postings; the ShardWriter keeps
              // segments in files and here 'c' partition(4) -> their length); 'm' partition(4) term id(8) ->
              // blocked list
  kTerms,     // term id (8) -> varint documents, varint occurrences (of the merged partitions)
};

// A read-only view of the stored index records as they were when it was
// made (a RocksDB snapshot): later writes, merges and range deletes do not
// show. Thread-safe; it outlives the index and the journal that made it
// (not the store).
class IndexSnapshot {
 public:
  virtual ~IndexSnapshot() = default;
  // kNotFound when absent.
  [[nodiscard]] virtual Status GetIndex(IndexFamily family, const std::string& key,
                                        std::string* value) const = 0;
};

// Where the index lives (implemented by ShardWriter over RocksDB, and by
// MemoryIndexJournal). Writes join the current request's batch; reads see
// the stored records and that batch's own writes.
class IndexJournal {
 public:
  virtual ~IndexJournal() = default;
  virtual void PutIndex(IndexFamily family, const std::string& key, const std::string& value) = 0;
  // kNotFound when absent.
  [[nodiscard]] virtual Status GetIndex(IndexFamily family, const std::string& key, std::string* value) = 0;
  // Visits the records whose key starts with `prefix`, in key order, until
  // `visit` returns false.
  [[nodiscard]] virtual Status ScanIndex(
      IndexFamily family, const std::string& prefix,
      const std::function<bool(std::string_view key, std::string_view value)>& visit) = 0;
  // A rewrite of stored records outside any request (a closed partition's
  // postings merge, a compaction): `puts`, then the keys `deletes`
  // removed, then the keys of `erase_family` in [erase_from, erase_to)
  // (none when erase_from is empty), written atomically now (one
  // WriteBatch). REQUIRES: no request batch pending.
  struct Put {
    IndexFamily family;
    std::string key, value;
  };
  struct Key {
    IndexFamily family;
    std::string key;
  };
  [[nodiscard]] virtual Status WriteIndexNow(const std::vector<Put>& puts, const std::vector<Key>& deletes,
                                             IndexFamily erase_family, const std::string& erase_from,
                                             const std::string& erase_to) = 0;
  // The index records now, the pending request's writes included.
  [[nodiscard]] virtual std::shared_ptr<const IndexSnapshot> SnapshotIndex() = 0;
  // Puts of one family in ascending key order, written now, outside any
  // request, as one atomic whole but not with anything else (a partition
  // merge's lists, whose marker a later WriteIndexNow writes). Here as
  // WriteIndexNow; the ShardWriter writes them as a table file of their
  // own (no write-ahead log, memtable and flush). REQUIRES: no request
  // batch pending.
  [[nodiscard]] virtual Status WriteSortedNow(IndexFamily family, const std::vector<Put>& puts) {
    return WriteIndexNow(puts, {}, family, "", "");
  }

  // Postings segments: a request's postings of one partition (SearchIndex::
  // Flush), written with the request, read back only by SearchIndex::Load,
  // and dropped once the partition is merged (the merge's write erases the
  // partition's kPostings keys from 'c' partition(4) on, then DropSegments).
  // Here as kPostings records 'c' partition(4) first doc(4); the ShardWriter
  // keeps them in files of their own (queueserver/store/segment_files.h).
  virtual void AppendSegment(uint32_t partition, uint32_t first_doc, std::string segment);
  // Visits the committed segments of `partition` in order until `visit`
  // returns false. `*lost` is the bytes of committed segments that could
  // not be read back (an OS crash without --sync-writes can take a file's
  // tail); the segments before them are visited.
  [[nodiscard]] virtual Status ScanSegments(
      uint32_t partition, const std::function<bool(uint32_t first_doc, std::string_view segment)>& visit,
      uint64_t* lost);
  [[nodiscard]] virtual Status DropSegments(uint32_t /*partition*/) { return Status::Ok(); }
};

// An IndexJournal in memory (tests, a queue server without a data
// directory). Writes by one thread; its snapshots may read from others.
class MemoryIndexJournal final : public IndexJournal {
 public:
  // The records, shared with the snapshots. While a snapshot lives, every
  // write notes the value it replaced (none: absent) under its sequence
  // number, so a snapshot reads a record as it was when it was taken.
  struct State {
    std::shared_mutex mu;  // writes exclusive; snapshots' reads shared
    std::map<std::string, std::string> families[4];
    uint64_t sequence = 0;              // writes so far
    std::multiset<uint64_t> snapshots;  // the live snapshots' sequences
    std::map<std::pair<int, std::string>, std::vector<std::pair<uint64_t, std::optional<std::string>>>>
        history;
    // REQUIRES: mu held exclusively.
    void Write(int family, const std::string& key, const std::optional<std::string>& value);
  };

 private:
  std::shared_ptr<State> state_ = std::make_shared<State>();

 public:
  MemoryIndexJournal() = default;
  // A copy of the records (tests corrupt copies), sharing nothing.
  MemoryIndexJournal(const MemoryIndexJournal& other) : IndexJournal() {
    for (int f = 0; f < 4; ++f) families[f] = other.families[f];
  }
  MemoryIndexJournal& operator=(const MemoryIndexJournal&) = delete;
  void PutIndex(IndexFamily family, const std::string& key, const std::string& value) override;
  [[nodiscard]] Status GetIndex(IndexFamily family, const std::string& key, std::string* value) override;
  [[nodiscard]] Status ScanIndex(
      IndexFamily family, const std::string& prefix,
      const std::function<bool(std::string_view, std::string_view)>& visit) override;
  [[nodiscard]] Status WriteIndexNow(const std::vector<Put>& puts, const std::vector<Key>& deletes,
                                     IndexFamily erase_family, const std::string& erase_from,
                                     const std::string& erase_to) override;
  // Not a copy: reads the live records under the lock (sharing them, so it
  // outlives the journal), and the values that writes since replaced from
  // the State's history, so it answers as a RocksDB snapshot would.
  [[nodiscard]] std::shared_ptr<const IndexSnapshot> SnapshotIndex() override;
  // The records by IndexFamily (tests read and corrupt them).
  std::map<std::string, std::string> (&families)[4] = state_->families;
};

}  // namespace crawl::queueserver
