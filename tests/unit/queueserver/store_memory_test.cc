// The queue store's memory follows its data within its share of the budget
// (queueserver/store/store_memory.h), and an open store reports what it
// holds (QueueStore::FitMemoryToData).
#include "queueserver/store/store_memory.h"

#include <catch2/catch.hpp>

#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

using crawl::queueserver::QueueStore;
using crawl::queueserver::StoreMemory;

namespace {
constexpr size_t kMiB = size_t{1} << 20;
}

TEST_CASE("the store's memory is an eighth of its data, within its bounds", "[store_memory]") {
  const size_t max = 512 * kMiB;
  CHECK(StoreMemory::CapacityFor(0, max) == StoreMemory::kMinBytes);
  CHECK(StoreMemory::CapacityFor(80 * kMiB, max) == StoreMemory::kMinBytes);
  CHECK(StoreMemory::CapacityFor(800 * kMiB, max) == 100 * kMiB);
  CHECK(StoreMemory::CapacityFor(8000 * kMiB, max) == max);
  // A budget below the floor wins over it.
  CHECK(StoreMemory::CapacityFor(0, 8 * kMiB) == 8 * kMiB);
}

TEST_CASE("fitting resizes the cache and the memtables' half of it", "[store_memory]") {
  StoreMemory memory(512 * kMiB);
  CHECK(memory.cache()->GetCapacity() == StoreMemory::kMinBytes);
  CHECK(memory.write_buffers()->buffer_size() == StoreMemory::kMinBytes / 2);
  CHECK(memory.FitTo(1600 * kMiB) == 200 * kMiB);
  CHECK(memory.cache()->GetCapacity() == 200 * kMiB);
  CHECK(memory.write_buffers()->buffer_size() == 100 * kMiB);
  CHECK(memory.FitTo(0) == StoreMemory::kMinBytes);
  CHECK(memory.cache()->GetCapacity() == StoreMemory::kMinBytes);
}

TEST_CASE("an open store reports its memory, fitted to its data", "[store_memory]") {
  crawl::test_support::TempDir dir;
  auto store = QueueStore::Open(dir.path.string(), {.memory_bytes = 64 * kMiB});
  REQUIRE(store.ok());
  const QueueStore::MemoryUse use = (*store)->FitMemoryToData();
  CHECK(use.capacity == StoreMemory::kMinBytes);  // empty: the floor
  CHECK(use.cache_used <= use.capacity);
  CHECK(use.data >= use.memtables);
}
