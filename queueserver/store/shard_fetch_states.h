// The per-URL fetch states of one crawl (family fetch_state, queue_store.h;
// queueserver/fetch_state.h) read and written through the request's
// ShardBatch: key crawl prefix + url hash(8). Internal to queueserver/store/.
//
// Not thread-safe: part of one ShardWriter, used as it is by one thread at a
// time, under the queue server's service lock (mu_, queueserver/service.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/base/status.h"
#include "queueserver/fetch_state.h"
#include "queueserver/store/shard_batch.h"

namespace crawl::queueserver {

class ShardFetchStates {
 public:
  // `batch` must outlive the states.
  explicit ShardFetchStates(ShardBatch* batch) : batch_(batch) {}

  // ShardWriter's GetFetchState, ScanFetchStates and PutFetchState
  // (queue_store.h).
  [[nodiscard]] Result<std::optional<FetchState>> Get(uint64_t url_hash, const std::string& url);
  [[nodiscard]] Status Scan(const std::function<bool(uint64_t url_hash, const FetchState&)>& visit,
                            uint64_t* damaged) const;
  void Put(uint64_t url_hash, const FetchState& state);

 private:
  std::string Key(uint64_t url_hash) const;

  ShardBatch* batch_;
};

}  // namespace crawl::queueserver
