// ShardFetchStates (shard_fetch_states.h): fetch state records read and
// written.
#include "queueserver/store/shard_fetch_states.h"

#include <rocksdb/db.h>

#include <memory>

#include "queueserver/store/fetch_state_codec.h"
#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"

namespace crawl::queueserver {

std::string ShardFetchStates::Key(uint64_t url_hash) const {
  std::string k = batch_->prefix();
  PutU64(&k, url_hash);
  return k;
}

Result<std::optional<FetchState>> ShardFetchStates::Get(uint64_t url_hash, const std::string& url) {
  std::string value;
  const std::string key = Key(url_hash);
  const rocksdb::Status rs = batch_->GetMapped(kFetchState, key, &value);
  if (rs.IsNotFound()) return std::optional<FetchState>();
  if (!rs.ok()) return FromRocks(rs, "reading fetch state");
  FetchState state;
  if (!DecodeFetchState(value, &state)) return Corrupt("fetch state", key);
  if (state.url != url) return std::optional<FetchState>();  // another URL with the same hash
  return std::optional<FetchState>(std::move(state));
}

Status ShardFetchStates::Scan(const std::function<bool(uint64_t, const FetchState&)>& visit,
                              uint64_t* damaged) const {
  const std::string& p = batch_->prefix();
  std::unique_ptr<rocksdb::Iterator> it(
      batch_->store().db->NewIterator(rocksdb::ReadOptions(), batch_->cf(kFetchState)));
  FetchState state;
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
    const std::string_view k(it->key().data(), it->key().size());
    if (k.size() != p.size() + 8 ||
        !DecodeFetchState(std::string_view(it->value().data(), it->value().size()), &state)) {
      if (damaged != nullptr) ++*damaged;
      continue;
    }
    if (!visit(ReadU64(k.substr(p.size())), state)) break;
  }
  return FromRocks(it->status(), "reading fetch states");
}

void ShardFetchStates::Put(uint64_t url_hash, const FetchState& state) {
  batch_->Put(kFetchState, Key(url_hash), EncodeFetchState(state));
}

}  // namespace crawl::queueserver
