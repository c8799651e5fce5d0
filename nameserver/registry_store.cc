#include "nameserver/registry_store.h"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <filesystem>

namespace crawl::nameserver {
namespace {

std::string U64Key(char tag, uint64_t v) {
  std::string k(1, tag);
  for (int shift = 56; shift >= 0; shift -= 8) k.push_back(static_cast<char>((v >> shift) & 0xff));
  return k;
}

uint64_t ReadU64(std::string_view s) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(s[i]);
  return v;
}

Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::Ok();
  return Status::Internal("name server registry: " + what + ": " + s.ToString());
}

}  // namespace

struct RegistryStore::Impl {
  std::unique_ptr<rocksdb::DB> db;  // null: keep nothing

  Status Write(rocksdb::WriteBatch& batch, const std::string& what, bool sync = true) {
    if (!db) return Status::Ok();
    rocksdb::WriteOptions options;
    options.sync = sync;
    return FromRocks(db->Write(options, &batch), what);
  }
};

RegistryStore::RegistryStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RegistryStore::~RegistryStore() = default;

Result<std::unique_ptr<RegistryStore>> RegistryStore::Open(const std::string& dir, size_t memory_bytes) {
  auto impl = std::make_unique<Impl>();
  if (!dir.empty()) {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.max_open_files = 64;
    // The registry is a few crawls and members rewritten at every heartbeat:
    // RocksDB's 64 MB memtable let the name server's RSS climb for hours
    // (36 -> 77 MB over a 2 h soak) before the first flush; 4 MB flushes soon
    // and holds the same data (a 64 MB budget gives 4 MB).
    options.write_buffer_size = memory_bytes / 16;
    rocksdb::BlockBasedTableOptions table;
    table.block_cache = rocksdb::NewLRUCache(memory_bytes / 16);
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    const std::string path = (std::filesystem::path(dir) / "registry").string();
    rocksdb::DB* db = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(options, path, &db);
    if (!s.ok())
      return Status::Unavailable("cannot open the name server registry in " + path + ": " + s.ToString());
    impl->db.reset(db);
  }
  return std::unique_ptr<RegistryStore>(new RegistryStore(std::move(impl)));
}

Result<RegistryImage> RegistryStore::Load() const {
  RegistryImage image;
  if (!impl_->db) return image;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string_view key(it->key().data(), it->key().size());
    const std::string_view value(it->value().data(), it->value().size());
    auto corrupt = [&] {
      return Status::Internal("name server registry: unreadable entry (tag '" + std::string(1, key[0]) +
                              "')");
    };
    if (key.empty()) return corrupt();
    switch (key[0]) {
      case 'c': {
        v1::CrawlInfo crawl;
        if (key.size() != 9 || !crawl.ParseFromArray(value.data(), static_cast<int>(value.size())))
          return corrupt();
        image.crawls[ReadU64(key.substr(1))] = std::move(crawl);
        break;
      }
      case 'a':
        if (value.size() != 8) return corrupt();
        image.active_crawl = ReadU64(value);
        break;
      case 'm': {
        v1::QueueServerInfo info;
        if (!info.ParseFromArray(value.data(), static_cast<int>(value.size()))) return corrupt();
        image.members[std::string(key.substr(1))] = std::move(info);
        break;
      }
      case 's': {
        v1::QueueServerStats stats;
        if (key.size() < 9 || !stats.ParseFromArray(value.data(), static_cast<int>(value.size())))
          return corrupt();
        image.stats[ReadU64(key.substr(1, 8))][std::string(key.substr(9))] = std::move(stats);
        break;
      }
      case 'p':
      case 'd': {
        v1::CrawlInfo crawl;
        if (key.size() != 9 || !crawl.ParseFromArray(value.data(), static_cast<int>(value.size())))
          return corrupt();
        (key[0] == 'p' ? image.starting : image.pending_deletes)[ReadU64(key.substr(1))] = std::move(crawl);
        break;
      }
      default:
        return corrupt();
    }
  }
  if (!it->status().ok()) return FromRocks(it->status(), "load");
  if (image.active_crawl != 0 && !image.crawls.count(image.active_crawl)) image.active_crawl = 0;
  return image;
}

Status RegistryStore::PutCrawl(const v1::CrawlInfo& crawl) {
  rocksdb::WriteBatch batch;
  batch.Put(U64Key('c', crawl.crawl_id()), crawl.SerializeAsString());
  return impl_->Write(batch, "save crawl");
}

Status RegistryStore::PutActive(uint64_t crawl_id) {
  rocksdb::WriteBatch batch;
  if (crawl_id == 0) {
    batch.Delete("a");
  } else {
    batch.Put("a", U64Key('a', crawl_id).substr(1));
  }
  return impl_->Write(batch, "save active crawl");
}

Status RegistryStore::PutCrawlAndActive(const v1::CrawlInfo& crawl, uint64_t active_crawl_id) {
  rocksdb::WriteBatch batch;
  batch.Put(U64Key('c', crawl.crawl_id()), crawl.SerializeAsString());
  batch.Delete(U64Key('p', crawl.crawl_id()));
  if (active_crawl_id == 0) {
    batch.Delete("a");
  } else {
    batch.Put("a", U64Key('a', active_crawl_id).substr(1));
  }
  return impl_->Write(batch, "save crawl");
}

Status RegistryStore::PutMember(const v1::QueueServerInfo& info) {
  rocksdb::WriteBatch batch;
  batch.Put("m" + info.id(), info.SerializeAsString());
  return impl_->Write(batch, "save queue server");
}

Status RegistryStore::PutStarting(const v1::CrawlInfo& crawl) {
  rocksdb::WriteBatch batch;
  batch.Put(U64Key('p', crawl.crawl_id()), crawl.SerializeAsString());
  return impl_->Write(batch, "save starting crawl");
}

Status RegistryStore::DeleteCrawl(uint64_t id, const v1::CrawlInfo& pending) {
  rocksdb::WriteBatch batch;
  batch.Delete(U64Key('c', id));
  batch.Delete(U64Key('p', id));
  // Its numbers: every 's' id(8) key. (The highest id has no successor;
  // crawl ids are start seconds, far from it.)
  if (id != UINT64_MAX) batch.DeleteRange(U64Key('s', id), U64Key('s', id + 1));
  if (pending.queue_servers_size() > 0) {
    batch.Put(U64Key('d', id), pending.SerializeAsString());
  } else {
    batch.Delete(U64Key('d', id));
  }
  return impl_->Write(batch, "delete crawl");
}

Status RegistryStore::PutPendingDelete(const v1::CrawlInfo& pending) {
  rocksdb::WriteBatch batch;
  if (pending.queue_servers_size() > 0) {
    batch.Put(U64Key('d', pending.crawl_id()), pending.SerializeAsString());
  } else {
    batch.Delete(U64Key('d', pending.crawl_id()));
  }
  return impl_->Write(batch, "save pending delete");
}

Status RegistryStore::PutStats(uint64_t crawl_id, const v1::QueueServerStats& stats) {
  rocksdb::WriteBatch batch;
  batch.Put(U64Key('s', crawl_id) + stats.queue_server_id(), stats.SerializeAsString());
  // Polled several times a second: written to the WAL without fsync, so it
  // survives a killed process (not a power cut, which costs a few seconds
  // of numbers that the next poll brings back).
  return impl_->Write(batch, "save stats", /*sync=*/false);
}

}  // namespace crawl::nameserver
