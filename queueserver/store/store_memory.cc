#include "queueserver/store/store_memory.h"

#include <algorithm>

namespace crawl::queueserver {

size_t StoreMemory::CapacityFor(size_t data_bytes, size_t max_bytes) {
  return std::min(std::max(data_bytes / 8, kMinBytes), max_bytes);
}

StoreMemory::StoreMemory(size_t max_bytes) : max_bytes_(max_bytes) {
  const size_t capacity = CapacityFor(0, max_bytes);
  cache_ = rocksdb::NewLRUCache(capacity);
  // allow_stall false: writers never wait on memory; a full budget flushes.
  write_buffers_ = std::make_shared<rocksdb::WriteBufferManager>(capacity / 2, cache_, false);
}

size_t StoreMemory::FitTo(size_t data_bytes) {
  const size_t capacity = CapacityFor(data_bytes, max_bytes_);
  if (capacity != cache_->GetCapacity()) {
    cache_->SetCapacity(capacity);
    write_buffers_->SetBufferSize(capacity / 2);
  }
  return capacity;
}

}  // namespace crawl::queueserver
