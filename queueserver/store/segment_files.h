// The search index's postings segments of one crawl in append-only files
// of their own, one per index partition, instead of RocksDB records.
//
// A segment (a request's postings in one partition, SearchIndex::Flush) is
// read back only when a queue server starts (SearchIndex::Load): while the
// process runs, the index answers from its in-memory lists and merges the
// partition from them. As RocksDB records each segment was copied into the
// write batch, the WAL, a memtable, a flushed table and a compaction, a large
// share of a queue server's CPU; here it is one
// write() at the request's commit.
//
// Files: <store dir>/postings-segments/<crawl id, 16 hex>-<partition>.seg,
// frames of: segment length (4, little-endian), first document (4),
// CRC-32C of the segment (4), the segment. The request's RocksDB batch
// records each file's committed length (ShardWriter: postings 'c'
// partition(4) -> varint length); it is written after the frames, so bytes
// past that length are a commit that failed or was killed before its batch,
// and are never read (Read truncates them). With QueueStore::Options::sync
// the frames are fdatasync'ed before the batch. Without it, an OS crash
// (not a killed process) may lose a file's tail that the WAL kept: Read
// then gives back the intact frames and says how many committed bytes are
// gone (docs/ARCHITECTURE.md "Durability").
//
// One writer per crawl (the crawl's ShardWriter); not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/status.h"

namespace crawl::queueserver::store_internal {

class SegmentFiles {
 public:
  // `store_dir`: the RocksDB directory; the files go in a directory under it.
  SegmentFiles(const std::string& store_dir, uint64_t crawl_id);
  ~SegmentFiles();
  SegmentFiles(const SegmentFiles&) = delete;
  SegmentFiles& operator=(const SegmentFiles&) = delete;

  // Holds a segment for the next Write.
  void Stage(uint32_t partition, uint32_t first_doc, std::string segment);
  [[nodiscard]] bool staged() const { return !staged_.empty(); }
  struct Staged {
    uint32_t partition, first_doc;
    std::string segment;
  };
  // The staged segments, handed over (after a failed Write: the caller
  // stores them otherwise); what Write wrote is forgotten, as by Abandon.
  [[nodiscard]] std::vector<Staged> TakeStaged() {
    std::vector<Staged> out = std::move(staged_);
    Abandon();
    return out;
  }
  // Forgets the staged segments and whatever Write wrote past the committed
  // lengths (a discarded request, or a failed commit).
  void Abandon();

  // Appends the staged segments after each file's committed length
  // (`committed(partition)` gives it the first time a partition is
  // written), fdatasync'ing them when `sync`; `lengths` gets each written
  // file's new length, which the caller records in its batch, and
  // Committed() makes them the committed ones once that batch is written.
  using CommittedLength = std::function<Result<uint64_t>(uint32_t partition)>;
  [[nodiscard]] Status Write(bool sync, const CommittedLength& committed,
                             std::vector<std::pair<uint32_t, uint64_t>>* lengths);
  void Committed();

  // Visits the frames of `partition` within its first `committed` bytes,
  // in order, until `visit` returns false. `*intact` is where the intact
  // frames end: `committed` unless the file is shorter or a frame is damaged
  // (then the frames after it are not visited). The file is cut to
  // `*intact` (dropping an uncommitted tail), and later appends go there.
  [[nodiscard]] Status Read(uint32_t partition, uint64_t committed,
                            const std::function<bool(uint32_t first_doc, std::string_view segment)>& visit,
                            uint64_t* intact);
  // Removes the partition's file (its postings are merged).
  [[nodiscard]] Status Drop(uint32_t partition);
  // Where the crawl's merged lists are built as a table file before
  // RocksDB ingests it (ShardWriter::WriteSortedNow); goes with the crawl.
  [[nodiscard]] std::string MergeTablePath() const { return dir_ + "/" + crawl_hex_ + "-merge" + ".seg"; }

  // Removes the files of every crawl not in `crawls` (deleted crawls whose
  // files a crash left behind), or of `crawl` alone.
  [[nodiscard]] static Status RemoveOtherCrawls(const std::string& store_dir,
                                                const std::vector<uint64_t>& crawls);
  [[nodiscard]] static Status RemoveCrawl(const std::string& store_dir, uint64_t crawl);

 private:
  struct File {
    int fd = -1;
    uint64_t committed = 0;  // length the store's last commit recorded
    uint64_t written = 0;    // end of this request's frames (>= committed)
  };
  std::string Path(uint32_t partition) const;
  // The partition's file, opened (created) on first use.
  Result<File*> Open(uint32_t partition, const CommittedLength& committed, bool sync);

  std::string dir_;
  std::string crawl_hex_;
  std::map<uint32_t, File> files_;
  std::vector<Staged> staged_;
};

}  // namespace crawl::queueserver::store_internal
