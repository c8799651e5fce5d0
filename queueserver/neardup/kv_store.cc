// In-memory and RocksDB key-value stores of the near-duplicate tables
// (kv_store.h).
#include "queueserver/neardup/kv_store.h"

#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <filesystem>

namespace crawl::queueserver::neardup {

Status MemoryKvStore::Get(std::string_view key, std::string* value, bool* found) {
  auto it = map_.find(key);
  *found = it != map_.end();
  if (*found) *value = it->second;
  return Status::Ok();
}

Status MemoryKvStore::Put(const std::vector<std::pair<std::string, std::string>>& pairs) {
  for (const auto& [k, v] : pairs) map_[k] = v;
  return Status::Ok();
}

Status MemoryKvStore::Scan(std::string_view prefix,
                           const std::function<bool(std::string_view, std::string_view)>& visit) {
  for (auto it = map_.lower_bound(prefix); it != map_.end() && it->first.starts_with(prefix); ++it) {
    if (!visit(it->first, it->second)) break;
  }
  return Status::Ok();
}

Status MemoryKvStore::DeletePrefix(std::string_view prefix) {
  auto it = map_.lower_bound(prefix);
  while (it != map_.end() && it->first.starts_with(prefix)) it = map_.erase(it);
  return Status::Ok();
}

namespace {

Status FromRocks(const rocksdb::Status& s, const char* what) {
  if (s.ok()) return Status::Ok();
  return Status::IoError(std::string("near-duplicate store: ") + what + ": " + s.ToString());
}

class RocksKvStore final : public KvStore {
 public:
  RocksKvStore(std::unique_ptr<rocksdb::DB> db, std::string dir) : db_(std::move(db)), dir_(std::move(dir)) {}
  ~RocksKvStore() override { (void)db_->Close(); }

  Status Get(std::string_view key, std::string* value, bool* found) override {
    rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), rocksdb::Slice(key.data(), key.size()), value);
    *found = s.ok();
    if (s.IsNotFound()) return Status::Ok();
    return FromRocks(s, "get");
  }
  Status Put(const std::vector<std::pair<std::string, std::string>>& pairs) override {
    rocksdb::WriteBatch batch;
    for (const auto& [k, v] : pairs) batch.Put(k, v);
    return FromRocks(db_->Write(rocksdb::WriteOptions(), &batch), "write");
  }
  Status Scan(std::string_view prefix,
              const std::function<bool(std::string_view, std::string_view)>& visit) override {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    const rocksdb::Slice p(prefix.data(), prefix.size());
    for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
      if (!visit(std::string_view(it->key().data(), it->key().size()),
                 std::string_view(it->value().data(), it->value().size())))
        break;
    }
    return FromRocks(it->status(), "scan");
  }
  Status DeletePrefix(std::string_view prefix) override {
    // The end of the range: the prefix with its last byte below 0xff raised.
    std::string end(prefix);
    while (!end.empty() && static_cast<unsigned char>(end.back()) == 0xff) end.pop_back();
    if (end.empty()) return Status::InvalidArgument("near-duplicate store: cannot delete an all-0xff prefix");
    end.back() = static_cast<char>(static_cast<unsigned char>(end.back()) + 1);
    rocksdb::WriteBatch batch;
    (void)batch.DeleteRange(rocksdb::Slice(prefix.data(), prefix.size()), end);
    return FromRocks(db_->Write(rocksdb::WriteOptions(), &batch), "delete");
  }
  uint64_t DiskBytes() override {
    (void)db_->Flush(rocksdb::FlushOptions());
    uint64_t total = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir_, ec)) {
      if (e.is_regular_file(ec) && e.path().extension() == ".sst") total += e.file_size(ec);
    }
    return total;
  }

 private:
  std::unique_ptr<rocksdb::DB> db_;
  std::string dir_;
};

}  // namespace

Result<std::unique_ptr<KvStore>> OpenRocksKvStore(const std::string& dir) {
  rocksdb::Options options;
  options.create_if_missing = true;
  // Bloom filters: a probe's first read per table is the URL's key, which a
  // new page (most probes) does not have.
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir, &raw);
  if (!s.ok()) return FromRocks(s, "open");
  return std::unique_ptr<KvStore>(new RocksKvStore(std::unique_ptr<rocksdb::DB>(raw), dir));
}

}  // namespace crawl::queueserver::neardup
