// The writes of one request to one crawl's column families (ShardWriter,
// queue_store.h), held until Commit writes them as one atomic RocksDB
// write. Each family's writes wait where they are cheapest to hold and to
// read back (see the members), and a failed read is kept to fail the
// Commit. Internal to queueserver/store/.
//
// Not thread-safe: part of one ShardWriter, used as it is by one thread at a
// time, under the queue server's service lock (mu_, queueserver/service.h).
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/utilities/write_batch_with_index.h>
#include <rocksdb/write_batch.h>

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/base/status.h"
#include "queueserver/store/queue_store.h"
#include "queueserver/store/queue_store_db.h"

namespace crawl::queueserver {

class ShardBatch {
 public:
  using PendingMap = std::unordered_map<std::string, std::optional<std::string>>;

  // `store` must outlive the batch; `prefix` starts every key of the crawl.
  ShardBatch(StoreDb* store, std::string prefix) : store_(store), prefix_(std::move(prefix)) {}

  [[nodiscard]] StoreDb& store() const { return *store_; }
  [[nodiscard]] const std::string& prefix() const { return prefix_; }
  [[nodiscard]] rocksdb::ColumnFamilyHandle* cf(Cf c) const { return store_->cf[c]; }
  [[nodiscard]] std::string Key(std::string_view rest) const { return prefix_ + std::string(rest); }

  void Put(Cf c, const std::string& k, const std::string& v);
  void Delete(Cf c, const std::string& k);
  // A range delete of an unindexed family (not the mapped ones or kTiers).
  void DeleteRange(Cf c, const std::string& from, const std::string& to) {
    (void)plain_.DeleteRange(cf(c), from, to);
  }

  // This batch's writes of a mapped family `c` (kDocs, kDocMap,
  // kFetchState), by key (nullopt: a delete); null for another family.
  [[nodiscard]] const PendingMap* MappedOf(Cf c) const;
  // A point read of a mapped family `c`: this batch's write of `k`, else the
  // store's.
  rocksdb::Status GetMapped(Cf c, const std::string& k, std::string* value);
  // A point read of an indexed family (kOpic, kPostings, kTerms): this
  // batch's write of `k`, else the store's.
  rocksdb::Status GetIndexed(Cf c, const std::string& k, std::string* value) {
    return indexed_.GetFromBatchAndDB(store_->db.get(), rocksdb::ReadOptions(), cf(c), k, value);
  }
  // An iterator over an indexed family `c` with this batch's writes laid
  // over the store.
  [[nodiscard]] rocksdb::Iterator* NewIndexedIterator(Cf c) {
    return indexed_.NewIteratorWithBase(cf(c), store_->db->NewIterator(rocksdb::ReadOptions(), cf(c)));
  }
  // Whether the indexed families have writes, and an iterator over those
  // of `family`.
  [[nodiscard]] bool indexed_pending() { return indexed_.GetWriteBatch()->Count() > 0; }
  [[nodiscard]] rocksdb::WBWIIterator* NewIndexedBatchIterator(rocksdb::ColumnFamilyHandle* family) {
    return indexed_.NewIterator(family);
  }
  // Brings the tier index up to date with this batch's tier writes, so
  // reads see them. Returns the iterator a reader merges over the store.
  [[nodiscard]] rocksdb::Iterator* NewTierIterator();

  // Records held, in every family.
  [[nodiscard]] uint32_t Count();
  // Forgets every write (not the read error).
  void Clear();
  // Writes everything held in one atomic write (nothing on an error).
  rocksdb::Status Write();

  // A failed read: kept (the first one) until TakeReadError, so the next
  // Commit fails.
  void NoteRead(const rocksdb::Status& s, const char* what) {
    if (!s.ok() && !s.IsNotFound() && read_error_.ok()) read_error_ = FromRocks(s, what);
  }
  void NoteError(Status s) {
    if (read_error_.ok()) read_error_ = std::move(s);
  }
  [[nodiscard]] bool read_failed() const { return !read_error_.ok(); }
  [[nodiscard]] Status TakeReadError() {
    Status s = std::move(read_error_);
    read_error_ = Status::Ok();
    return s;
  }

 private:
  static constexpr Cf kIndexedCfs[] = {kOpic, kPostings, kTerms};
  static constexpr Cf kMappedCfs[] = {kDocs, kDocMap, kFetchState};
  static bool Indexed(Cf c);
  PendingMap* MutableMappedOf(Cf c);
  [[nodiscard]] size_t MappedCount() const;
  // Appends indexed_'s records, then the mapped families', family by
  // family in key order.
  rocksdb::Status AppendSorted(rocksdb::WriteBatch* out);

  StoreDb* store_;
  std::string prefix_;
  // Indexed so the opic order and the search index read their own
  // uncommitted writes (a point lookup per link for opic).
  rocksdb::WriteBatchWithIndex indexed_{rocksdb::BytewiseComparator(), 0,
                                        /*overwrite_key=*/true};
  // Every other family: nothing reads it back before Commit, so its writes
  // skip the index (a skip-list insert per key was most of the cost of a
  // lease: one tier erase and one lease entry per URL).
  rocksdb::WriteBatch plain_;
  // The families read back only by point lookups or rare scans: the search
  // index's document summaries (kDocs) and document map (kDocMap), and the
  // fetch states (kFetchState). Their writes wait here by key (nullopt: a
  // delete), are read back from here (GetMapped; a scan or a search's
  // snapshot lays them over the store) and go out at Commit in key order:
  // random hash keys were a skip-list insert each in `indexed_`, and their
  // lookups a seek into it (summaries alone: about a tenth of a queue
  // server's CPU).
  PendingMap mapped_[std::size(kMappedCfs)];
  // The tier queues, also unindexed: they are read back only when a window
  // runs dry, so the index of this batch's tier writes is built then, from
  // the records not yet in it (NewTierIterator).
  rocksdb::WriteBatch tier_ops_;
  rocksdb::WriteBatchWithIndex tier_index_{rocksdb::BytewiseComparator(), 0,
                                           /*overwrite_key=*/true};
  uint32_t tier_ops_indexed_ = 0;
  Status read_error_;
};

}  // namespace crawl::queueserver
