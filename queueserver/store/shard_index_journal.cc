// ShardIndexJournal (shard_index_journal.h): the index families read and
// written through the request's batch, snapshots, direct writes, and the
// postings segments.
#include "queueserver/store/shard_index_journal.h"

#include <rocksdb/db.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/utilities/write_batch_with_index.h>
#include <rocksdb/write_batch.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/varint.h"
#include "queueserver/store/queue_store_db.h"

namespace crawl::queueserver {

void ShardIndexJournal::PutIndex(IndexFamily family, const std::string& key, const std::string& value) {
  batch_->Put(IndexCf(family), batch_->Key(key), value);
}

Status ShardIndexJournal::GetIndex(IndexFamily family, const std::string& key, std::string* value) {
  const Cf c = IndexCf(family);
  const std::string k = batch_->Key(key);
  const rocksdb::Status s =
      batch_->MappedOf(c) != nullptr ? batch_->GetMapped(c, k, value) : batch_->GetIndexed(c, k, value);
  if (s.IsNotFound()) return Status::NotFound("no index record");
  return FromRocks(s, std::string("reading ") + kCfNames[c]);
}

Status ShardIndexJournal::ScanIndex(IndexFamily family, const std::string& prefix,
                                    const std::function<bool(std::string_view, std::string_view)>& visit) {
  rocksdb::ColumnFamilyHandle* cf = batch_->cf(IndexCf(family));
  const std::string p = batch_->Key(prefix);
  rocksdb::WriteBatchWithIndex mapped{rocksdb::BytewiseComparator(), 0,
                                      /*overwrite_key=*/true};
  bool own = false;
  if (const ShardBatch::PendingMap* m = batch_->MappedOf(IndexCf(family))) {
    // This family's writes are not in the indexed batch (shard_batch.h): a scan
    // (none is hot: a partition's merge or compaction) indexes those under
    // the prefix for itself.
    for (const auto& [key, value] : *m) {
      if (!key.starts_with(p)) continue;
      (void)(value ? mapped.Put(cf, key, *value) : mapped.Delete(cf, key));
    }
    own = true;
  }
  std::unique_ptr<rocksdb::Iterator> it(
      own ? mapped.NewIteratorWithBase(cf, batch_->store().db->NewIterator(rocksdb::ReadOptions(), cf))
          : batch_->NewIndexedIterator(IndexCf(family)));
  const size_t n = batch_->prefix().size();
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
    const rocksdb::Slice k = it->key();
    const rocksdb::Slice v = it->value();
    if (!visit(std::string_view(k.data() + n, k.size() - n), std::string_view(v.data(), v.size()))) break;
  }
  return FromRocks(it->status(), std::string("reading ") + kCfNames[IndexCf(family)]);
}

namespace {
// Reads the index families at a RocksDB snapshot (released with it), the
// writer's pending index writes at the time laid over it.
class StoreIndexSnapshot final : public IndexSnapshot {
 public:
  StoreIndexSnapshot(rocksdb::DB* db, std::vector<rocksdb::ColumnFamilyHandle*> cfs, std::string prefix,
                     std::map<std::pair<int, std::string>, std::optional<std::string>> overlay)
      : db_(db),
        snapshot_(db->GetSnapshot()),
        cfs_(std::move(cfs)),
        prefix_(std::move(prefix)),
        overlay_(std::move(overlay)) {}
  ~StoreIndexSnapshot() override { db_->ReleaseSnapshot(snapshot_); }
  StoreIndexSnapshot(const StoreIndexSnapshot&) = delete;
  StoreIndexSnapshot& operator=(const StoreIndexSnapshot&) = delete;

  Status GetIndex(IndexFamily family, const std::string& key, std::string* value) const override {
    if (!overlay_.empty()) {
      auto it = overlay_.find({static_cast<int>(family), key});
      if (it != overlay_.end()) {
        if (!it->second) return Status::NotFound("no index record");
        *value = *it->second;
        return Status::Ok();
      }
    }
    rocksdb::ReadOptions ro;
    ro.snapshot = snapshot_;
    auto s = db_->Get(ro, cfs_[static_cast<int>(family)], prefix_ + key, value);
    if (s.IsNotFound()) return Status::NotFound("no index record");
    return FromRocks(s, "reading the index");
  }

 private:
  rocksdb::DB* db_;
  const rocksdb::Snapshot* snapshot_;
  std::vector<rocksdb::ColumnFamilyHandle*> cfs_;  // by IndexFamily
  std::string prefix_;
  std::map<std::pair<int, std::string>, std::optional<std::string>> overlay_;
};
}  // namespace

std::shared_ptr<const IndexSnapshot> ShardIndexJournal::SnapshotIndex() {
  constexpr IndexFamily kFamilies[] = {IndexFamily::kDocs, IndexFamily::kDocMap, IndexFamily::kPostings,
                                       IndexFamily::kTerms};
  std::vector<rocksdb::ColumnFamilyHandle*> cfs;
  std::map<std::pair<int, std::string>, std::optional<std::string>> overlay;
  const bool pending = batch_->indexed_pending();
  const size_t n = batch_->prefix().size();
  for (IndexFamily f : kFamilies) {
    cfs.push_back(batch_->cf(IndexCf(f)));
    if (const ShardBatch::PendingMap* m = batch_->MappedOf(IndexCf(f))) {
      for (const auto& [key, value] : *m) {
        if (key.starts_with(batch_->prefix())) overlay[{static_cast<int>(f), key.substr(n)}] = value;
      }
      continue;
    }
    if (!pending) continue;
    std::unique_ptr<rocksdb::WBWIIterator> it(batch_->NewIndexedBatchIterator(cfs.back()));
    for (it->Seek(batch_->prefix()); it->Valid(); it->Next()) {
      const rocksdb::WriteEntry e = it->Entry();
      if (!e.key.starts_with(batch_->prefix())) break;
      std::string key(e.key.data() + n, e.key.size() - n);
      if (e.type == rocksdb::kPutRecord) {
        overlay[{static_cast<int>(f), std::move(key)}] = e.value.ToString();
      } else if (e.type == rocksdb::kDeleteRecord || e.type == rocksdb::kSingleDeleteRecord) {
        overlay[{static_cast<int>(f), std::move(key)}] = std::nullopt;
      }
    }
  }
  return std::make_shared<StoreIndexSnapshot>(batch_->store().db.get(), std::move(cfs), batch_->prefix(),
                                              std::move(overlay));
}

Status ShardIndexJournal::WriteIndexNow(const std::vector<IndexJournal::Put>& puts,
                                        const std::vector<IndexJournal::Key>& deletes,
                                        IndexFamily erase_family, const std::string& erase_from,
                                        const std::string& erase_to) {
  if (batch_->store().fail_writes) return Status::IoError("queue store: write failed (injected by a test)");
  rocksdb::WriteBatch batch;
  for (const IndexJournal::Put& p : puts)
    (void)batch.Put(batch_->cf(IndexCf(p.family)), batch_->Key(p.key), p.value);
  for (const IndexJournal::Key& k : deletes)
    (void)batch.Delete(batch_->cf(IndexCf(k.family)), batch_->Key(k.key));
  if (!erase_from.empty())
    (void)batch.DeleteRange(batch_->cf(IndexCf(erase_family)), batch_->Key(erase_from),
                            batch_->Key(erase_to));
  return FromRocks(batch_->store().db->Write(batch_->store().write_options, &batch),
                   "queue store index write");
}

namespace {
uint32_t ReadU32Be(std::string_view d) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(d[i]);
  return v;
}
}  // namespace

std::string ShardIndexJournal::SegmentLengthKey(uint32_t partition) const {
  std::string k = batch_->prefix();
  k.push_back('c');
  for (int shift = 24; shift >= 0; shift -= 8) k.push_back(static_cast<char>((partition >> shift) & 0xff));
  return k;
}

std::string ShardIndexJournal::SegmentRecordKey(uint32_t partition, uint32_t first_doc) const {
  std::string k = SegmentLengthKey(partition);
  for (int shift = 24; shift >= 0; shift -= 8) k.push_back(static_cast<char>((first_doc >> shift) & 0xff));
  return k;
}

void ShardIndexJournal::AppendSegment(uint32_t partition, uint32_t first_doc, std::string segment) {
  segments_->Stage(partition, first_doc, std::move(segment));
}

Result<uint64_t> ShardIndexJournal::SegmentLength(uint32_t partition) {
  const std::string key = SegmentLengthKey(partition);
  std::string value;
  const rocksdb::Status s =
      batch_->store().db->Get(rocksdb::ReadOptions(), batch_->cf(kPostings), key, &value);
  if (s.IsNotFound()) return uint64_t{0};
  if (!s.ok()) return FromRocks(s, "reading a postings segment length");
  size_t pos = 0;
  uint64_t length = 0;
  if (!GetVarint(value, &pos, &length) || pos != value.size()) return Corrupt("postings segment length", key);
  return length;
}

Status ShardIndexJournal::WriteSegments() {
  if (!segments_->staged()) return Status::Ok();
  std::vector<std::pair<uint32_t, uint64_t>> lengths;
  Status s = segments_->Write(
      batch_->store().write_options.sync, [this](uint32_t partition) { return SegmentLength(partition); },
      &lengths);
  if (!s.ok()) {
    // The files cannot take them (a full disk): the segments go in the
    // batch as records, as before the files, and RocksDB decides. So a
    // full disk fails a request where it failed before, and a queue server
    // whose store still takes writes does not refuse results while it
    // hands out leases. ScanSegments merges records and frames by document.
    for (SegmentFiles::Staged& staged : segments_->TakeStaged())
      batch_->Put(kPostings, SegmentRecordKey(staged.partition, staged.first_doc), staged.segment);
    return Status::Ok();
  }
  for (const auto& [partition, length] : lengths) {
    std::string value;
    PutVarint(&value, length);
    batch_->Put(kPostings, SegmentLengthKey(partition), value);
  }
  return Status::Ok();
}

Status ShardIndexJournal::ScanSegments(uint32_t partition,
                                       const std::function<bool(uint32_t, std::string_view)>& visit,
                                       uint64_t* lost) {
  *lost = 0;
  // The partition's records: its file's length ('c' partition), and the
  // segments of a store from before the files ('c' partition first doc).
  const std::string length_key = SegmentLengthKey(partition);
  const size_t n = batch_->prefix().size();
  std::optional<uint64_t> committed;
  std::vector<std::pair<uint32_t, std::string>> records;  // (first doc, segment), ascending
  Status s = batch_->store().Scan(kPostings, length_key, [&](std::string_view k, std::string_view v) {
    if (k.size() == n + 5) {
      size_t pos = 0;
      uint64_t length = 0;
      if (!GetVarint(v, &pos, &length) || pos != v.size()) return Corrupt("postings segment length", k);
      committed = length;
    } else if (k.size() == n + 9) {
      records.emplace_back(ReadU32Be(k.substr(n + 5)), std::string(v));
    } else {
      return Corrupt("postings segment", k);
    }
    return Status::Ok();
  });
  if (!s.ok()) return s;
  // Records and the file's frames in document order.
  size_t next = 0;
  bool more = true;
  auto records_before = [&](uint64_t first_doc) {
    for (; more && next < records.size() && records[next].first < first_doc; ++next)
      more = visit(records[next].first, records[next].second);
    return more;
  };
  uint64_t intact = 0;
  s = segments_->Read(
      partition, committed.value_or(0),
      [&](uint32_t first_doc, std::string_view segment) {
        return records_before(first_doc) && (more = visit(first_doc, segment));
      },
      &intact);
  if (!s.ok() || !more || !records_before(UINT64_MAX)) return s;
  if (!committed || intact == *committed) return s;
  // Committed bytes are gone (an OS crash took the file's tail, not the
  // WAL's): record the intact length now, so frames a later request
  // writes there and fails to commit are never taken for committed ones.
  *lost = *committed - intact;
  std::string value;
  PutVarint(&value, intact);
  return FromRocks(
      batch_->store().db->Put(batch_->store().write_options, batch_->cf(kPostings), length_key, value),
      "recording a postings segment length");
}

Status ShardIndexJournal::WriteSortedNow(IndexFamily family, const std::vector<IndexJournal::Put>& puts) {
  if (puts.empty()) return Status::Ok();
  if (batch_->store().fail_writes) return Status::IoError("queue store: write failed (injected by a test)");
  rocksdb::ColumnFamilyHandle* cf = batch_->cf(IndexCf(family));
  for (size_t i = 0; i < puts.size(); ++i) {
    if (puts[i].family != family || (i > 0 && !(puts[i - 1].key < puts[i].key)))
      return Status::InvalidArgument("sorted index write: keys out of order or of another family");
  }
  // A name of its own (a fresh file: RocksDB links the one it ingests).
  const std::string path = segments_->MergeTablePath();
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::filesystem::remove(path, ec);
  // Left in the page cache (SstFileWriter drops its pages by default):
  // queries read these lists next, as they did from a flushed memtable.
  rocksdb::SstFileWriter table(rocksdb::EnvOptions(), batch_->store().db->GetOptions(cf), cf,
                               /*invalidate_page_cache=*/false);
  rocksdb::Status s = table.Open(path);
  for (size_t i = 0; s.ok() && i < puts.size(); ++i) s = table.Put(batch_->Key(puts[i].key), puts[i].value);
  if (s.ok()) s = table.Finish();
  if (s.ok()) {
    rocksdb::IngestExternalFileOptions ingest;
    ingest.move_files = true;
    s = batch_->store().db->IngestExternalFile(cf, {path}, ingest);
  }
  std::filesystem::remove(path, ec);
  return FromRocks(s, "writing sorted index records");
}

}  // namespace crawl::queueserver
