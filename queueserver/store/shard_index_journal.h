// The search index's journal in the store (IndexJournal, index/
// index_journal.h; ShardWriter forwards its calls here): the four index
// families through the request's ShardBatch, snapshots for searches, direct
// writes outside a request (a merge, a compaction), and the postings
// segments in files of their own (segment_files.h) whose committed lengths
// the batch records. Internal to queueserver/store/.
//
// Not thread-safe: part of one ShardWriter, used as it is by one thread at a
// time, under the queue server's service lock (mu_, queueserver/service.h);
// the snapshots it makes are thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "queueserver/index/index_journal.h"
#include "queueserver/store/segment_files.h"
#include "queueserver/store/shard_batch.h"

namespace crawl::queueserver {

class ShardIndexJournal {
 public:
  // `batch` must outlive the journal; `segments` keeps the crawl's segment
  // files.
  ShardIndexJournal(ShardBatch* batch, std::unique_ptr<SegmentFiles> segments)
      : batch_(batch), segments_(std::move(segments)) {}

  // IndexJournal's calls (queue_store.h documents ShardWriter's).
  void PutIndex(IndexFamily family, const std::string& key, const std::string& value);
  [[nodiscard]] Status GetIndex(IndexFamily family, const std::string& key, std::string* value);
  [[nodiscard]] Status ScanIndex(IndexFamily family, const std::string& prefix,
                                 const std::function<bool(std::string_view, std::string_view)>& visit);
  [[nodiscard]] Status WriteIndexNow(const std::vector<IndexJournal::Put>& puts,
                                     const std::vector<IndexJournal::Key>& deletes, IndexFamily erase_family,
                                     const std::string& erase_from, const std::string& erase_to);
  [[nodiscard]] Status WriteSortedNow(IndexFamily family, const std::vector<IndexJournal::Put>& puts);
  [[nodiscard]] std::shared_ptr<const IndexSnapshot> SnapshotIndex();
  void AppendSegment(uint32_t partition, uint32_t first_doc, std::string segment);
  [[nodiscard]] Status ScanSegments(uint32_t partition,
                                    const std::function<bool(uint32_t, std::string_view)>& visit,
                                    uint64_t* lost);
  [[nodiscard]] Status DropSegments(uint32_t partition) { return segments_->Drop(partition); }

  // Commit's steps: whether segments wait; writes them to their files and
  // puts the files' lengths in the batch (or, when the files cannot take
  // them, the segments themselves); then Committed or, on a failed write,
  // Abandon.
  [[nodiscard]] bool segments_staged() const { return segments_->staged(); }
  Status WriteSegments();
  void Committed() { segments_->Committed(); }
  void Abandon() { segments_->Abandon(); }

 private:
  // Postings 'c' partition(4): a segment file's committed length (varint).
  std::string SegmentLengthKey(uint32_t partition) const;
  // Postings 'c' partition(4) first doc(4): a segment kept as a record (a
  // store from before the files, or segments the files could not take).
  std::string SegmentRecordKey(uint32_t partition, uint32_t first_doc) const;
  // The committed length of the partition's segment file (0: none).
  Result<uint64_t> SegmentLength(uint32_t partition);

  ShardBatch* batch_;
  std::unique_ptr<SegmentFiles> segments_;
};

}  // namespace crawl::queueserver
