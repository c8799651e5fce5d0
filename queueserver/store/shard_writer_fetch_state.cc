// ShardWriter's per-URL fetch state (family fetch_state, queue_store.h;
// queueserver/fetch_state.h).
#include <rocksdb/db.h>

#include "queueserver/store/fetch_state_codec.h"
#include "queueserver/store/queue_store.h"
#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"
#include "queueserver/store/shard_writer_impl.h"

namespace crawl::queueserver {
namespace {
std::string FetchStateKey(const std::string& prefix, uint64_t url_hash) {
  std::string k = prefix;
  PutU64(&k, url_hash);
  return k;
}
}  // namespace

Result<std::optional<FetchState>> ShardWriter::GetFetchState(uint64_t url_hash, const std::string& url) {
  std::string value;
  const std::string key = FetchStateKey(impl_->prefix, url_hash);
  const rocksdb::Status rs = impl_->batch.GetFromBatchAndDB(impl_->store->db.get(), rocksdb::ReadOptions(),
                                                            impl_->cf(kFetchState), key, &value);
  if (rs.IsNotFound()) return std::optional<FetchState>();
  if (!rs.ok()) return FromRocks(rs, "reading fetch state");
  FetchState state;
  if (!DecodeFetchState(value, &state)) return Corrupt("fetch state", key);
  if (state.url != url) return std::optional<FetchState>();  // another URL with the same hash
  return std::optional<FetchState>(std::move(state));
}

void ShardWriter::PutFetchState(uint64_t url_hash, const FetchState& state) {
  impl_->Put(kFetchState, FetchStateKey(impl_->prefix, url_hash), EncodeFetchState(state));
}

}  // namespace crawl::queueserver
