// ShardWriter as the opic order's OpicStore and the tiered orders'
// TierStore: reads see the batch's own writes (queue_store.h).
#include <rocksdb/db.h>

#include <bit>
#include <memory>

#include "queueserver/store/queue_store.h"
#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"
#include "queueserver/store/shard_writer_impl.h"

namespace crawl::queueserver {

void ShardWriter::OpicPut(const OpicKey& key, uint64_t url_hash, const FrontierEntry& e) {
  const std::string qk = impl_->OpicQueueKey(key);
  impl_->Put(kOpic, qk, EncodeEntry(e));
  impl_->Put(kOpic, impl_->OpicHashKey(url_hash), qk.substr(impl_->prefix.size() + 1));
}
void ShardWriter::OpicErase(const OpicKey& key, uint64_t url_hash) {
  impl_->Delete(kOpic, impl_->OpicQueueKey(key));
  impl_->Delete(kOpic, impl_->OpicHashKey(url_hash));
}
std::optional<OpicKey> ShardWriter::OpicFind(uint64_t url_hash) {
  std::string v;
  auto s = impl_->batch.GetFromBatchAndDB(impl_->store->db.get(), rocksdb::ReadOptions(), impl_->cf(kOpic),
                                          impl_->OpicHashKey(url_hash), &v);
  impl_->NoteRead(s, "reading the opic queue");
  if (!s.ok() || v.size() != 16) return std::nullopt;
  return OpicKey{FromDescendingBits(ReadU64(v)), ReadU64(std::string_view(v).substr(8))};
}
std::optional<FrontierEntry> ShardWriter::OpicGet(const OpicKey& key) {
  std::string v;
  auto s = impl_->batch.GetFromBatchAndDB(impl_->store->db.get(), rocksdb::ReadOptions(), impl_->cf(kOpic),
                                          impl_->OpicQueueKey(key), &v);
  impl_->NoteRead(s, "reading the opic queue");
  FrontierEntry e;
  if (!s.ok() || !DecodeEntry(v, &e)) return std::nullopt;
  return e;
}
std::vector<std::pair<OpicKey, FrontierEntry>> ShardWriter::OpicTop(size_t n) {
  std::vector<std::pair<OpicKey, FrontierEntry>> out;
  const std::string p = impl_->prefix + "Q";
  rocksdb::ColumnFamilyHandle* cf = impl_->cf(kOpic);
  std::unique_ptr<rocksdb::Iterator> it(
      impl_->batch.NewIteratorWithBase(cf, impl_->store->db->NewIterator(rocksdb::ReadOptions(), cf)));
  for (it->Seek(p); it->Valid() && it->key().starts_with(p) && out.size() < n; it->Next()) {
    const std::string_view k(it->key().data(), it->key().size());
    if (k.size() != p.size() + 16) continue;
    FrontierEntry e;
    if (!DecodeEntry(std::string_view(it->value().data(), it->value().size()), &e)) {
      if (impl_->read_error.ok()) impl_->read_error = Corrupt("opic queue", k);
      break;
    }
    out.emplace_back(OpicKey{FromDescendingBits(ReadU64(k.substr(p.size()))), ReadU64(k.substr(p.size() + 8))},
                     std::move(e));
  }
  impl_->NoteRead(it->status(), "reading the opic queue");
  return out;
}

std::optional<OpicVisits> ShardWriter::OpicVisitsGet(uint64_t url_hash) {
  std::string v;
  auto s = impl_->batch.GetFromBatchAndDB(impl_->store->db.get(), rocksdb::ReadOptions(), impl_->cf(kOpic),
                                          impl_->OpicHashKey(url_hash, 'V'), &v);
  if (s.IsNotFound()) return std::nullopt;
  impl_->NoteRead(s, "reading opic visits");
  if (!s.ok()) return std::nullopt;
  if (v.size() != 16) {
    if (impl_->read_error.ok()) impl_->read_error = Corrupt("opic visits", impl_->OpicHashKey(url_hash, 'V'));
    return std::nullopt;
  }
  return OpicVisits{std::bit_cast<double>(ReadU64(v)), std::bit_cast<double>(ReadU64(std::string_view(v).substr(8)))};
}
void ShardWriter::OpicVisitsPut(uint64_t url_hash, const OpicVisits& v) {
  std::string value;
  PutU64(&value, std::bit_cast<uint64_t>(v.credit));
  PutU64(&value, std::bit_cast<uint64_t>(v.history));
  impl_->Put(kOpic, impl_->OpicHashKey(url_hash, 'V'), value);
}

Status ShardWriter::OpicScan(const OpicStore::ScanVisitor& visit) const {
  const std::string p = impl_->prefix + "Q";
  std::unique_ptr<rocksdb::Iterator> it(impl_->store->db->NewIterator(rocksdb::ReadOptions(), impl_->cf(kOpic)));
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
    const std::string_view k(it->key().data(), it->key().size());
    FrontierEntry e;
    if (k.size() != p.size() + 16 || !DecodeEntry(std::string_view(it->value().data(), it->value().size()), &e))
      return Corrupt("opic queue", k);
    if (!visit(e)) return Status::Ok();
  }
  return FromRocks(it->status(), "reading the opic queue");
}

void ShardWriter::TierPut(int32_t tier, const SeqEntry& e) {
  impl_->Put(kTiers, impl_->TierEntryKey(tier, e.seq), EncodeEntry(e.entry));
  ++impl_->tier_delta[tier];
}
void ShardWriter::TierErase(int32_t tier, uint64_t seq) {
  impl_->Delete(kTiers, impl_->TierEntryKey(tier, seq));
  --impl_->tier_delta[tier];
}
std::vector<SeqEntry> ShardWriter::TierRead(int32_t tier, uint64_t after, size_t n) {
  std::vector<SeqEntry> out;
  if (after == UINT64_MAX) return out;
  const std::string p = impl_->TierKey('T', tier);
  out.reserve(std::min<size_t>(n, 1 << 16));
  std::unique_ptr<rocksdb::Iterator> it(impl_->TierIterator());
  for (it->Seek(impl_->TierEntryKey(tier, after + 1)); it->Valid() && it->key().starts_with(p) && out.size() < n;
       it->Next()) {
    const std::string_view k(it->key().data(), it->key().size());
    SeqEntry e;
    if (k.size() != p.size() + 8 || !DecodeEntry(std::string_view(it->value().data(), it->value().size()), &e.entry)) {
      if (impl_->read_error.ok()) impl_->read_error = Corrupt("tier queue", k);
      break;
    }
    e.seq = ReadU64(k.substr(p.size()));
    out.push_back(std::move(e));
  }
  impl_->NoteRead(it->status(), "reading a tier queue");
  return out;
}
Status ShardWriter::TierScan(const TierStore::ScanVisitor& visit) const {
  // Keys sort by tier (PutTier keeps signed order) then sequence number.
  const std::string p = impl_->prefix + "T";
  std::unique_ptr<rocksdb::Iterator> it(impl_->store->db->NewIterator(rocksdb::ReadOptions(), impl_->cf(kTiers)));
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
    const std::string_view k(it->key().data(), it->key().size());
    SeqEntry e;
    if (k.size() != p.size() + 12 || !DecodeEntry(std::string_view(it->value().data(), it->value().size()), &e.entry))
      return Corrupt("tier queue", k);
    e.seq = ReadU64(k.substr(p.size() + 4));
    if (!visit(ReadTier(k.substr(p.size(), 4)), e)) return Status::Ok();
  }
  return FromRocks(it->status(), "reading the tier queues");
}

std::map<int32_t, TierStore::TierInfo> ShardWriter::TierSummary() {
  Impl& m = *impl_;
  m.LoadTierCounts();
  std::map<int32_t, TierInfo> out;
  std::map<int32_t, int64_t> counts;
  for (const auto& [tier, c] : m.tier_counts) counts[tier] += static_cast<int64_t>(c);
  for (const auto& [tier, d] : m.tier_delta) counts[tier] += d;
  std::unique_ptr<rocksdb::Iterator> it(m.TierIterator());
  for (const auto& [tier, c] : counts) {
    if (c <= 0) continue;
    const std::string p = m.TierKey('T', tier);
    TierInfo info;
    info.count = static_cast<uint64_t>(c);
    it->Seek(p);
    if (!it->Valid() || !it->key().starts_with(p) || it->key().size() != p.size() + 8) {
      if (m.read_error.ok()) m.read_error = Corrupt("tier count", p);
      continue;
    }
    info.first_seq = ReadU64(std::string_view(it->key().data() + p.size(), 8));
    // The last entry: just before the next tier's first possible key.
    std::string next = m.TierKey('T', tier);
    PutU64(&next, UINT64_MAX);
    it->SeekForPrev(next);
    if (!it->Valid() || !it->key().starts_with(p) || it->key().size() != p.size() + 8) {
      if (m.read_error.ok()) m.read_error = Corrupt("tier queue", p);
      continue;
    }
    info.last_seq = ReadU64(std::string_view(it->key().data() + p.size(), 8));
    out[tier] = info;
  }
  m.NoteRead(it->status(), "reading tier queues");
  return out;
}

}  // namespace crawl::queueserver
