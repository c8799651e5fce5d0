// ShardBatch (shard_batch.h): a request's writes routed by family, read
// back, and written as one atomic batch.
#include "queueserver/store/shard_batch.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "queueserver/store/batch_append.h"

namespace crawl::queueserver {

bool ShardBatch::Indexed(Cf c) {
  for (Cf i : kIndexedCfs) {
    if (c == i) return true;
  }
  return false;
}

ShardBatch::PendingMap* ShardBatch::MutableMappedOf(Cf c) {
  for (size_t i = 0; i < std::size(kMappedCfs); ++i) {
    if (kMappedCfs[i] == c) return &mapped_[i];
  }
  return nullptr;
}

const ShardBatch::PendingMap* ShardBatch::MappedOf(Cf c) const {
  for (size_t i = 0; i < std::size(kMappedCfs); ++i) {
    if (kMappedCfs[i] == c) return &mapped_[i];
  }
  return nullptr;
}

size_t ShardBatch::MappedCount() const {
  size_t n = 0;
  for (const PendingMap& m : mapped_) n += m.size();
  return n;
}

rocksdb::Status ShardBatch::GetMapped(Cf c, const std::string& k, std::string* value) {
  const PendingMap& m = *MappedOf(c);
  if (auto it = m.find(k); it != m.end()) {
    if (!it->second) return rocksdb::Status::NotFound();
    *value = *it->second;
    return rocksdb::Status::OK();
  }
  return store_->db->Get(rocksdb::ReadOptions(), cf(c), k, value);
}

void ShardBatch::Put(Cf c, const std::string& k, const std::string& v) {
  if (PendingMap* m = MutableMappedOf(c)) {
    m->insert_or_assign(k, v);
  } else if (Indexed(c)) {
    (void)indexed_.Put(cf(c), k, v);
  } else if (c == kTiers) {
    (void)tier_ops_.Put(cf(c), k, v);
  } else {
    (void)plain_.Put(cf(c), k, v);
  }
}

void ShardBatch::Delete(Cf c, const std::string& k) {
  if (PendingMap* m = MutableMappedOf(c)) {
    m->insert_or_assign(k, std::nullopt);
  } else if (Indexed(c)) {
    (void)indexed_.Delete(cf(c), k);
  } else if (c == kTiers) {
    (void)tier_ops_.Delete(cf(c), k);
  } else {
    (void)plain_.Delete(cf(c), k);
  }
}

uint32_t ShardBatch::Count() {
  return indexed_.GetWriteBatch()->Count() + plain_.Count() + tier_ops_.Count() +
         static_cast<uint32_t>(MappedCount());
}

void ShardBatch::Clear() {
  indexed_.Clear();
  plain_.Clear();
  for (PendingMap& m : mapped_) m.clear();
  tier_ops_.Clear();
  tier_index_.Clear();
  tier_ops_indexed_ = 0;
}

rocksdb::Iterator* ShardBatch::NewTierIterator() {
  rocksdb::ColumnFamilyHandle* tiers = cf(kTiers);
  if (tier_ops_.Count() > tier_ops_indexed_) {
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
    indexer.index = &tier_index_;
    indexer.family = tiers;
    indexer.skip = tier_ops_indexed_;
    NoteRead(tier_ops_.Iterate(&indexer), "indexing tier writes");
    tier_ops_indexed_ = tier_ops_.Count();
  }
  return tier_index_.NewIteratorWithBase(tiers, store_->db->NewIterator(rocksdb::ReadOptions(), tiers));
}

// One atomic write of the three batches (they touch disjoint families, so
// their order does not matter).
rocksdb::Status ShardBatch::AppendSorted(rocksdb::WriteBatch* out) {
  // Key order within each family: the memtable's skip list inserts a run of
  // ascending keys from where the one before went (its splice) instead of
  // searching from the top for each random key (document ids, liveness and
  // fetch-state keys are hashes). `indexed_` keeps the last write of a key
  // (overwrite_key) and has no range deletes, so the order of its records
  // does not change what they leave.
  for (Cf c : kIndexedCfs) {
    std::unique_ptr<rocksdb::WBWIIterator> it(indexed_.NewIterator(cf(c)));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const rocksdb::WriteEntry e = it->Entry();
      switch (e.type) {
        case rocksdb::kPutRecord:
          (void)out->Put(cf(c), e.key, e.value);
          break;
        case rocksdb::kMergeRecord:
          (void)out->Merge(cf(c), e.key, e.value);
          break;
        case rocksdb::kDeleteRecord:
          (void)out->Delete(cf(c), e.key);
          break;
        case rocksdb::kSingleDeleteRecord:
          (void)out->SingleDelete(cf(c), e.key);
          break;
        default:
          return rocksdb::Status::NotSupported("queue store: a record kind it never writes");
      }
    }
  }
  std::vector<const PendingMap::value_type*> sorted;
  for (size_t i = 0; i < std::size(kMappedCfs); ++i) {
    sorted.clear();
    sorted.reserve(mapped_[i].size());
    for (const auto& entry : mapped_[i]) sorted.push_back(&entry);
    std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    rocksdb::ColumnFamilyHandle* family = cf(kMappedCfs[i]);
    for (const auto* d : sorted) {
      (void)(d->second ? out->Put(family, d->first, *d->second) : out->Delete(family, d->first));
    }
  }
  return rocksdb::Status::OK();
}

rocksdb::Status ShardBatch::Write() {
  const bool sorted_part = indexed_.GetWriteBatch()->Count() > 0 || MappedCount() > 0;
  if (tier_ops_.Count() == 0 && !sorted_part) return store_->db->Write(store_->write_options, &plain_);
  if (plain_.Count() == 0 && !sorted_part) return store_->db->Write(store_->write_options, &tier_ops_);
  size_t mapped_bytes = 0;
  for (const PendingMap& m : mapped_) {
    for (const auto& [key, value] : m) mapped_bytes += key.size() + (value ? value->size() : 0) + 16;
  }
  rocksdb::WriteBatch all;
  const size_t reserve =
      plain_.GetDataSize() + tier_ops_.GetDataSize() + indexed_.GetWriteBatch()->GetDataSize() + mapped_bytes;
  if (rocksdb::Status s = JoinBatches(plain_, tier_ops_, store_->cf, reserve, &all); !s.ok()) return s;
  if (rocksdb::Status s = AppendSorted(&all); !s.ok()) return s;
  return store_->db->Write(store_->write_options, &all);
}

}  // namespace crawl::queueserver
