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
  const rocksdb::Status rs = impl_->GetMapped(kFetchState, key, &value);
  if (rs.IsNotFound()) return std::optional<FetchState>();
  if (!rs.ok()) return FromRocks(rs, "reading fetch state");
  FetchState state;
  if (!DecodeFetchState(value, &state)) return Corrupt("fetch state", key);
  if (state.url != url) return std::optional<FetchState>();  // another URL with the same hash
  return std::optional<FetchState>(std::move(state));
}

Status ShardWriter::ScanFetchStates(const std::function<bool(uint64_t, const FetchState&)>& visit,
                                    uint64_t* damaged) const {
  const std::string& p = impl_->prefix;
  std::unique_ptr<rocksdb::Iterator> it(
      impl_->store->db->NewIterator(rocksdb::ReadOptions(), impl_->cf(kFetchState)));
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

void ShardWriter::PutFetchState(uint64_t url_hash, const FetchState& state) {
  impl_->Put(kFetchState, FetchStateKey(impl_->prefix, url_hash), EncodeFetchState(state));
}

}  // namespace crawl::queueserver
