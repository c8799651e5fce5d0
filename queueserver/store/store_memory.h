// What the queue store may hold in memory (docs/OPERATIONS.md "Memory"):
// one LRU block cache for every column family's data, index and filter
// blocks, with the memtables charged to it too (a WriteBufferManager costed
// to the cache, flushing once they hold half of it), so one number bounds
// RocksDB's memory. That number follows the data, within the queue server's
// share of its memory budget: a small crawl's store holds little, and a
// billion-page crawl's gets the whole share.
//
// Thread-safe (RocksDB's cache and write buffer manager are).
#pragma once

#include <rocksdb/cache.h>
#include <rocksdb/write_buffer_manager.h>

#include <cstddef>
#include <memory>

namespace crawl::queueserver {

class StoreMemory {
 public:
  // The least the store is given, whatever its size: room for a few
  // memtables and the blocks of the current batch.
  static constexpr size_t kMinBytes = size_t{24} << 20;

  // What a store of `data_bytes` (tables on disk plus memtables) may hold:
  // an eighth of them, within [kMinBytes, max_bytes] (max_bytes wins if it
  // is lower than kMinBytes).
  [[nodiscard]] static size_t CapacityFor(size_t data_bytes, size_t max_bytes);

  // Starts at the capacity of an empty store.
  explicit StoreMemory(size_t max_bytes);

  [[nodiscard]] const std::shared_ptr<rocksdb::Cache>& cache() const { return cache_; }
  [[nodiscard]] const std::shared_ptr<rocksdb::WriteBufferManager>& write_buffers() const {
    return write_buffers_;
  }
  // Resizes the cache and the memtables' half of it for a store of
  // `data_bytes`; returns the capacity now.
  size_t FitTo(size_t data_bytes);
  [[nodiscard]] size_t max_bytes() const { return max_bytes_; }

 private:
  const size_t max_bytes_;
  std::shared_ptr<rocksdb::Cache> cache_;
  std::shared_ptr<rocksdb::WriteBufferManager> write_buffers_;
};

}  // namespace crawl::queueserver
