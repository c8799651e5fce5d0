// The queue store's RocksDB side shared by its files (queue_store.h lists
// the layout): the column families, the open database (QueueStore::Impl),
// key prefixes and error conversion. Internal to queueserver/store/.
#pragma once

#include <rocksdb/db.h>

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "queueserver/store/queue_store.h"
#include "queueserver/store/store_memory.h"

namespace crawl::queueserver::store_internal {

// Column family names, in the order of the handles kept in StoreDb::cf.
enum Cf {
  kMeta,
  kSeen,
  kQueue,
  kWaiting,
  kOrigins,
  kLeases,
  kLog,
  kBatches,
  kClds,
  kOpic,
  kDocs,
  kDocMap,
  kPostings,
  kTerms,
  kStructure,
  kTiers,
  kFetchState,  // per-URL fetch state (queueserver/fetch_state.h)
  kWarcLoc,     // page cache locations (warc_location_index.h)
  kCfCount
};
extern const char* const kCfNames[kCfCount];
Cf IndexCf(IndexFamily f);

Status FromRocks(const rocksdb::Status& s, const std::string& what);

// Records of one lease under id schedule(8): the header, its entries (one
// key per URL in older stores; one record of them all now), and a mark per
// URL reported done while the lease stays open.
constexpr char kLeaseHeader = '\0';
constexpr char kLeaseUrl = '\1';
constexpr char kLeaseEntries = '\2';
constexpr char kLeaseDone = '\3';

// The 8-byte big-endian crawl id every key starts with.
std::string Prefix(uint64_t crawl_id);

Status Corrupt(const char* what, std::string_view key);

// The open database: what QueueStore::Impl holds, a type of its own so the
// store's free functions (loaders, migrations) can take it.
struct StoreDb {
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> cf;  // owned; destroyed before db
  rocksdb::WriteOptions write_options;
  std::atomic<bool> fail_writes{false};
  std::string dir;  // the database's directory (segment_files.h keeps files under it)
  std::shared_ptr<StoreMemory> memory;

  StoreDb() = default;
  StoreDb(const StoreDb&) = delete;
  StoreDb& operator=(const StoreDb&) = delete;
  ~StoreDb() {
    for (auto* h : cf) {
      if (h && db) (void)db->DestroyColumnFamilyHandle(h);
    }
    if (db) (void)db->Close();
  }

  // Visits every key of `family` that starts with `prefix`, in key order.
  template <typename F>
  Status Scan(Cf family, const std::string& prefix, F&& visit) const {
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), cf[family]));
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      const rocksdb::Slice k = it->key();
      const rocksdb::Slice v = it->value();
      Status s = visit(std::string_view(k.data(), k.size()), std::string_view(v.data(), v.size()));
      if (!s.ok()) return s;
    }
    return FromRocks(it->status(), std::string("reading ") + kCfNames[family]);
  }
};

}  // namespace crawl::queueserver::store_internal

namespace crawl::queueserver {

using namespace store_internal;  // NOLINT(google-build-using-namespace): the store's own helpers

struct QueueStore::Impl : StoreDb {};

}  // namespace crawl::queueserver
