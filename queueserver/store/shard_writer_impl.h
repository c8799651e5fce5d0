// ShardWriter::Impl: the batches of one writer and the keys it writes
// (queue_store.h). Internal to queueserver/store/.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/utilities/write_batch_with_index.h>
#include <rocksdb/write_batch.h>

#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "queueserver/store/queue_store.h"
#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"
#include "queueserver/store/segment_files.h"

namespace crawl::queueserver {

struct ShardWriter::Impl {
  QueueStore::Impl* store = nullptr;
  std::string prefix;
  // The search index's postings segments (written before the batch at
  // Commit; the batch records each file's length under SegmentLengthKey).
  std::unique_ptr<SegmentFiles> segments;
  // Indexed so the opic order and the search index read their own
  // uncommitted writes (a point lookup per link for opic).
  rocksdb::WriteBatchWithIndex batch{rocksdb::BytewiseComparator(), 0, /*overwrite_key=*/true};
  // Every other family: nothing reads it back before Commit, so its writes
  // skip the index (a skip-list insert per key was most of the cost of a
  // lease: one tier erase and one lease entry per URL).
  rocksdb::WriteBatch plain;
  // The families read back only by point lookups or rare scans: the search
  // index's document summaries (kDocs) and document map (kDocMap), and the
  // fetch states (kFetchState). Their writes wait here by key (nullopt: a
  // delete), are read back from here (GetMapped; a scan or a search's
  // snapshot lays them over the store) and go out at Commit in key order:
  // random hash keys were a skip-list insert each in `batch`, and their
  // lookups a seek into it (summaries alone: about a tenth of a queue
  // server's CPU).
  using PendingMap = std::unordered_map<std::string, std::optional<std::string>>;
  static constexpr Cf kMappedCfs[] = {kDocs, kDocMap, kFetchState};
  PendingMap mapped[std::size(kMappedCfs)];
  PendingMap* MappedOf(Cf c) {
    for (size_t i = 0; i < std::size(kMappedCfs); ++i) {
      if (kMappedCfs[i] == c) return &mapped[i];
    }
    return nullptr;
  }
  size_t MappedCount() const {
    size_t n = 0;
    for (const PendingMap& m : mapped) n += m.size();
    return n;
  }
  // A point read of a mapped family `c`: this batch's write of `k`, else the
  // store's.
  rocksdb::Status GetMapped(Cf c, const std::string& k, std::string* value) {
    const PendingMap& m = *MappedOf(c);
    if (auto it = m.find(k); it != m.end()) {
      if (!it->second) return rocksdb::Status::NotFound();
      *value = *it->second;
      return rocksdb::Status::OK();
    }
    return store->db->Get(rocksdb::ReadOptions(), cf(c), k, value);
  }
  // The tier queues, also unindexed: they are read back (TierRead) only
  // when a window runs dry, so the index of this batch's tier writes is
  // built then, from the records not yet in it (IndexTierOps).
  rocksdb::WriteBatch tier_ops;
  rocksdb::WriteBatchWithIndex tier_index{rocksdb::BytewiseComparator(), 0, /*overwrite_key=*/true};
  uint32_t tier_ops_indexed = 0;
  // URLs reported done per open lease, written at Commit unless the lease
  // closes first (its range delete covers them).
  std::map<uint64_t, std::vector<std::string>> lease_done;
  // A failed read (opic) fails the next Commit, so the request is refused
  // whole and the shard reloaded.
  Status read_error;
  // The order's scalars and the CLD statistics, written once at Commit
  // (orders note them often).
  std::unordered_map<std::string, CldStats> clds;
  std::string order_state;
  // New URL-seen hashes of this batch (8 bytes each), one record at Commit
  // under the next seen-record number (read from the store on first use).
  std::string seen;
  std::optional<uint64_t> next_seen_record;
  bool order_state_set = false;
  // Tier entry counts: committed (loaded on first use) and this batch's changes.
  std::map<int32_t, uint64_t> tier_counts;
  bool tier_counts_loaded = false;
  std::map<int32_t, int64_t> tier_delta;

  rocksdb::ColumnFamilyHandle* cf(Cf c) const { return store->cf[c]; }
  std::string Key(std::string_view rest) const { return prefix + std::string(rest); }
  std::string QueueKey(QueueKind q, uint64_t seq) const {
    std::string k = prefix;
    k.push_back(q == QueueKind::kRobots ? 'R' : 'P');
    PutU64(&k, seq);
    return k;
  }
  std::string WaitKey(const std::string& origin, uint64_t seq) const {
    std::string k = prefix + origin;
    k.push_back('\0');
    PutU64(&k, seq);
    return k;
  }
  std::string LeaseKey(uint64_t id, char tag, std::string_view url = {}) const {
    std::string k = prefix;
    PutU64(&k, id);
    k.push_back(tag);
    k.append(url);
    return k;
  }
  // The families whose writes go into `batch`.
  static constexpr Cf kIndexedCfs[] = {kOpic, kPostings, kTerms};
  static bool Indexed(Cf c) {
    for (Cf i : kIndexedCfs) {
      if (c == i) return true;
    }
    return false;
  }
  void Put(Cf c, const std::string& k, const std::string& v) {
    if (PendingMap* m = MappedOf(c)) {
      m->insert_or_assign(k, v);
    } else if (Indexed(c)) {
      (void)batch.Put(cf(c), k, v);
    } else if (c == kTiers) {
      (void)tier_ops.Put(cf(c), k, v);
    } else {
      (void)plain.Put(cf(c), k, v);
    }
  }
  void Delete(Cf c, const std::string& k) {
    if (PendingMap* m = MappedOf(c)) {
      m->insert_or_assign(k, std::nullopt);
    } else if (Indexed(c)) {
      (void)batch.Delete(cf(c), k);
    } else if (c == kTiers) {
      (void)tier_ops.Delete(cf(c), k);
    } else {
      (void)plain.Delete(cf(c), k);
    }
  }
  // Records in the three batches and the mapped families together.
  [[nodiscard]] uint32_t Count() {
    return batch.GetWriteBatch()->Count() + plain.Count() + tier_ops.Count() + static_cast<uint32_t>(MappedCount());
  }
  void Clear() {
    batch.Clear();
    plain.Clear();
    for (PendingMap& m : mapped) m.clear();
    tier_ops.Clear();
    tier_index.Clear();
    tier_ops_indexed = 0;
    lease_done.clear();
  }
  // Postings 'c' partition(4): a segment file's committed length (varint).
  std::string SegmentLengthKey(uint32_t partition) const {
    std::string k = prefix;
    k.push_back('c');
    AppendBigEndian32(&k, partition);
    return k;
  }
  // Postings 'c' partition(4) first doc(4): a segment kept as a record (a
  // store from before the files, or segments the files could not take).
  std::string SegmentRecordKey(uint32_t partition, uint32_t first_doc) const {
    std::string k = SegmentLengthKey(partition);
    AppendBigEndian32(&k, first_doc);
    return k;
  }
  static void AppendBigEndian32(std::string* out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((v >> shift) & 0xff));
  }
  // The committed length of the partition's segment file (0: none).
  Result<uint64_t> SegmentLength(uint32_t partition);
  // Steps of ShardWriter::Commit (shard_writer.cc).
  // Writes the staged segments and puts their files' lengths in the batch.
  Status WriteSegments();
  bool PutSeenRecord();
  std::map<int32_t, uint64_t> PutTierCounts();
  rocksdb::Status WriteBatches();
  // Appends `batch`'s records, then the summaries, family by family in key
  // order (shard_writer.cc).
  rocksdb::Status AppendSorted(rocksdb::WriteBatch* out);
  // Brings tier_index up to date with tier_ops, so reads see this batch's
  // tier writes. Returns the iterator a reader merges over the store.
  rocksdb::Iterator* TierIterator() {
    rocksdb::ColumnFamilyHandle* tiers = cf(kTiers);
    if (tier_ops.Count() > tier_ops_indexed) {
      struct Indexer : rocksdb::WriteBatch::Handler {
        rocksdb::WriteBatchWithIndex* index;
        rocksdb::ColumnFamilyHandle* family;
        uint32_t skip;
        rocksdb::Status PutCF(uint32_t, const rocksdb::Slice& k, const rocksdb::Slice& v) override {
          if (skip > 0) {
            --skip;
          } else {
            (void)index->Put(family, k, v);
          }
          return rocksdb::Status::OK();
        }
        rocksdb::Status DeleteCF(uint32_t, const rocksdb::Slice& k) override {
          if (skip > 0) {
            --skip;
          } else {
            (void)index->Delete(family, k);
          }
          return rocksdb::Status::OK();
        }
      } indexer;
      indexer.index = &tier_index;
      indexer.family = tiers;
      indexer.skip = tier_ops_indexed;
      NoteRead(tier_ops.Iterate(&indexer), "indexing tier writes");
      tier_ops_indexed = tier_ops.Count();
    }
    return tier_index.NewIteratorWithBase(tiers, store->db->NewIterator(rocksdb::ReadOptions(), tiers));
  }
  // opic: prefix 'Q' sort(8, descending) seq(8) -> entry; prefix 'H' hash(8) -> sort(8) seq(8);
  // prefix 'V' hash(8) -> credit(8) history(8) (doubles' bits; a recrawl's fetched pages).
  std::string OpicQueueKey(const OpicKey& key) const {
    std::string k = prefix;
    k.push_back('Q');
    PutU64(&k, DescendingBits(key.sort));
    PutU64(&k, key.seq);
    return k;
  }
  std::string OpicHashKey(uint64_t hash, char kind = 'H') const {
    std::string k = prefix;
    k.push_back(kind);
    PutU64(&k, hash);
    return k;
  }
  std::string TierKey(char kind, int32_t tier) const {
    std::string k = prefix;
    k.push_back(kind);
    PutTier(&k, tier);
    return k;
  }
  std::string TierEntryKey(int32_t tier, uint64_t seq) const {
    std::string k = TierKey('T', tier);
    PutU64(&k, seq);
    return k;
  }
  void LoadTierCounts() {
    if (tier_counts_loaded) return;
    const std::string p = prefix + "C";
    std::unique_ptr<rocksdb::Iterator> it(store->db->NewIterator(rocksdb::ReadOptions(), cf(kTiers)));
    for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
      const std::string_view k(it->key().data(), it->key().size());
      if (k.size() != p.size() + 4 || it->value().size() != 8) {
        if (read_error.ok()) read_error = Corrupt("tier count", k);
        continue;
      }
      tier_counts[ReadTier(k.substr(p.size()))] = ReadU64(std::string_view(it->value().data(), 8));
    }
    NoteRead(it->status(), "reading tier counts");
    tier_counts_loaded = true;
  }
  void NoteRead(const rocksdb::Status& s, const char* what) {
    if (!s.ok() && !s.IsNotFound() && read_error.ok()) read_error = FromRocks(s, what);
  }
};

}  // namespace crawl::queueserver
