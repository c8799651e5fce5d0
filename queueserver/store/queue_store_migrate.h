// One-time migrations of older store layouts, run by QueueStore::Open
// before anything reads the store, so QueueStore::Load reads only the
// current layout (queue_store.h). Internal to queueserver/store/.
#pragma once

#include <cstdint>
#include <vector>

#include "common/base/status.h"
#include "queueserver/store/queue_store_db.h"

namespace crawl::queueserver::store_internal {

// Brings the crawls `crawl_ids` to the current layout. Today one step:
// pages in the single FIFO of older stores ('P' keys of the queue family)
// move to the tier queues, counts included, in one atomic write per crawl
// (tier 0, or the entry's tier under host_budget). The structure order
// still journals its pages there (they are its queue) and keeps them. A
// crawl with a record that cannot be decoded is left as it is, for Load to
// report. Fails only when the store cannot be read or written.
[[nodiscard]] Status MigrateOldLayouts(StoreDb& store, const std::vector<uint64_t>& crawl_ids);

}  // namespace crawl::queueserver::store_internal
