// ShardOrderQueues (shard_order_queues.h): the opic queue and the tier
// queues read and written through the request's batch.
#include "queueserver/store/shard_order_queues.h"

#include <rocksdb/db.h>

#include <algorithm>
#include <bit>
#include <memory>

#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"

namespace crawl::queueserver {

std::string ShardOrderQueues::OpicQueueKey(const OpicKey& key) const {
  std::string k = batch_->prefix();
  k.push_back('Q');
  PutU64(&k, DescendingBits(key.sort));
  PutU64(&k, key.seq);
  return k;
}

std::string ShardOrderQueues::OpicHashKey(uint64_t hash, char kind) const {
  std::string k = batch_->prefix();
  k.push_back(kind);
  PutU64(&k, hash);
  return k;
}

std::string ShardOrderQueues::TierKey(char kind, int32_t tier) const {
  std::string k = batch_->prefix();
  k.push_back(kind);
  PutTier(&k, tier);
  return k;
}

std::string ShardOrderQueues::TierEntryKey(int32_t tier, uint64_t seq) const {
  std::string k = TierKey('T', tier);
  PutU64(&k, seq);
  return k;
}

void ShardOrderQueues::OpicPut(const OpicKey& key, uint64_t url_hash, const FrontierEntry& e) {
  const std::string qk = OpicQueueKey(key);
  batch_->Put(kOpic, qk, EncodeEntry(e));
  batch_->Put(kOpic, OpicHashKey(url_hash), qk.substr(batch_->prefix().size() + 1));
}
void ShardOrderQueues::OpicErase(const OpicKey& key, uint64_t url_hash) {
  batch_->Delete(kOpic, OpicQueueKey(key));
  batch_->Delete(kOpic, OpicHashKey(url_hash));
}
std::optional<OpicKey> ShardOrderQueues::OpicFind(uint64_t url_hash) {
  std::string v;
  auto s = batch_->GetIndexed(kOpic, OpicHashKey(url_hash), &v);
  batch_->NoteRead(s, "reading the opic queue");
  if (!s.ok() || v.size() != 16) return std::nullopt;
  return OpicKey{FromDescendingBits(ReadU64(v)), ReadU64(std::string_view(v).substr(8))};
}
std::optional<FrontierEntry> ShardOrderQueues::OpicGet(const OpicKey& key) {
  std::string v;
  auto s = batch_->GetIndexed(kOpic, OpicQueueKey(key), &v);
  batch_->NoteRead(s, "reading the opic queue");
  FrontierEntry e;
  if (!s.ok() || !DecodeEntry(v, &e)) return std::nullopt;
  return e;
}
std::vector<std::pair<OpicKey, FrontierEntry>> ShardOrderQueues::OpicTop(size_t n) {
  std::vector<std::pair<OpicKey, FrontierEntry>> out;
  const std::string p = batch_->prefix() + "Q";
  std::unique_ptr<rocksdb::Iterator> it(batch_->NewIndexedIterator(kOpic));
  for (it->Seek(p); it->Valid() && it->key().starts_with(p) && out.size() < n; it->Next()) {
    const std::string_view k(it->key().data(), it->key().size());
    if (k.size() != p.size() + 16) continue;
    FrontierEntry e;
    if (!DecodeEntry(std::string_view(it->value().data(), it->value().size()), &e)) {
      batch_->NoteError(Corrupt("opic queue", k));
      break;
    }
    out.emplace_back(
        OpicKey{FromDescendingBits(ReadU64(k.substr(p.size()))), ReadU64(k.substr(p.size() + 8))},
        std::move(e));
  }
  batch_->NoteRead(it->status(), "reading the opic queue");
  return out;
}

std::optional<OpicVisits> ShardOrderQueues::OpicVisitsGet(uint64_t url_hash) {
  std::string v;
  auto s = batch_->GetIndexed(kOpic, OpicHashKey(url_hash, 'V'), &v);
  if (s.IsNotFound()) return std::nullopt;
  batch_->NoteRead(s, "reading opic visits");
  if (!s.ok()) return std::nullopt;
  if (v.size() != 16) {
    batch_->NoteError(Corrupt("opic visits", OpicHashKey(url_hash, 'V')));
    return std::nullopt;
  }
  return OpicVisits{std::bit_cast<double>(ReadU64(v)),
                    std::bit_cast<double>(ReadU64(std::string_view(v).substr(8)))};
}
void ShardOrderQueues::OpicVisitsPut(uint64_t url_hash, const OpicVisits& v) {
  std::string value;
  PutU64(&value, std::bit_cast<uint64_t>(v.credit));
  PutU64(&value, std::bit_cast<uint64_t>(v.history));
  batch_->Put(kOpic, OpicHashKey(url_hash, 'V'), value);
}

Status ShardOrderQueues::OpicScan(const OpicStore::ScanVisitor& visit) const {
  const std::string p = batch_->prefix() + "Q";
  std::unique_ptr<rocksdb::Iterator> it(
      batch_->store().db->NewIterator(rocksdb::ReadOptions(), batch_->cf(kOpic)));
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
    const std::string_view k(it->key().data(), it->key().size());
    FrontierEntry e;
    if (k.size() != p.size() + 16 ||
        !DecodeEntry(std::string_view(it->value().data(), it->value().size()), &e))
      return Corrupt("opic queue", k);
    if (!visit(e)) return Status::Ok();
  }
  return FromRocks(it->status(), "reading the opic queue");
}

void ShardOrderQueues::TierPut(int32_t tier, const SeqEntry& e) {
  batch_->Put(kTiers, TierEntryKey(tier, e.seq), EncodeEntry(e.entry));
  ++tier_delta_[tier];
}
void ShardOrderQueues::TierErase(int32_t tier, uint64_t seq) {
  batch_->Delete(kTiers, TierEntryKey(tier, seq));
  --tier_delta_[tier];
}
std::vector<SeqEntry> ShardOrderQueues::TierRead(int32_t tier, uint64_t after, size_t n) {
  std::vector<SeqEntry> out;
  if (after == UINT64_MAX) return out;
  const std::string p = TierKey('T', tier);
  out.reserve(std::min<size_t>(n, 1 << 16));
  std::unique_ptr<rocksdb::Iterator> it(batch_->NewTierIterator());
  for (it->Seek(TierEntryKey(tier, after + 1)); it->Valid() && it->key().starts_with(p) && out.size() < n;
       it->Next()) {
    const std::string_view k(it->key().data(), it->key().size());
    SeqEntry e;
    if (k.size() != p.size() + 8 ||
        !DecodeEntry(std::string_view(it->value().data(), it->value().size()), &e.entry)) {
      batch_->NoteError(Corrupt("tier queue", k));
      break;
    }
    e.seq = ReadU64(k.substr(p.size()));
    out.push_back(std::move(e));
  }
  batch_->NoteRead(it->status(), "reading a tier queue");
  return out;
}
Status ShardOrderQueues::TierScan(const TierStore::ScanVisitor& visit) const {
  // Keys sort by tier (PutTier keeps signed order) then sequence number.
  const std::string p = batch_->prefix() + "T";
  std::unique_ptr<rocksdb::Iterator> it(
      batch_->store().db->NewIterator(rocksdb::ReadOptions(), batch_->cf(kTiers)));
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
    const std::string_view k(it->key().data(), it->key().size());
    SeqEntry e;
    if (k.size() != p.size() + 12 ||
        !DecodeEntry(std::string_view(it->value().data(), it->value().size()), &e.entry))
      return Corrupt("tier queue", k);
    e.seq = ReadU64(k.substr(p.size() + 4));
    if (!visit(ReadTier(k.substr(p.size(), 4)), e)) return Status::Ok();
  }
  return FromRocks(it->status(), "reading the tier queues");
}

std::map<int32_t, TierStore::TierInfo> ShardOrderQueues::TierSummary() {
  LoadTierCounts();
  std::map<int32_t, TierStore::TierInfo> out;
  std::map<int32_t, int64_t> counts;
  for (const auto& [tier, c] : tier_counts_) counts[tier] += static_cast<int64_t>(c);
  for (const auto& [tier, d] : tier_delta_) counts[tier] += d;
  std::unique_ptr<rocksdb::Iterator> it(batch_->NewTierIterator());
  for (const auto& [tier, c] : counts) {
    if (c <= 0) continue;
    const std::string p = TierKey('T', tier);
    TierStore::TierInfo info;
    info.count = static_cast<uint64_t>(c);
    it->Seek(p);
    if (!it->Valid() || !it->key().starts_with(p) || it->key().size() != p.size() + 8) {
      batch_->NoteError(Corrupt("tier count", p));
      continue;
    }
    info.first_seq = ReadU64(std::string_view(it->key().data() + p.size(), 8));
    // The last entry: just before the next tier's first possible key.
    std::string next = TierKey('T', tier);
    PutU64(&next, UINT64_MAX);
    it->SeekForPrev(next);
    if (!it->Valid() || !it->key().starts_with(p) || it->key().size() != p.size() + 8) {
      batch_->NoteError(Corrupt("tier queue", p));
      continue;
    }
    info.last_seq = ReadU64(std::string_view(it->key().data() + p.size(), 8));
    out[tier] = info;
  }
  batch_->NoteRead(it->status(), "reading tier queues");
  return out;
}

void ShardOrderQueues::LoadTierCounts() {
  if (tier_counts_loaded_) return;
  const std::string p = batch_->prefix() + "C";
  std::unique_ptr<rocksdb::Iterator> it(
      batch_->store().db->NewIterator(rocksdb::ReadOptions(), batch_->cf(kTiers)));
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
    const std::string_view k(it->key().data(), it->key().size());
    if (k.size() != p.size() + 4 || it->value().size() != 8) {
      batch_->NoteError(Corrupt("tier count", k));
      continue;
    }
    tier_counts_[ReadTier(k.substr(p.size()))] = ReadU64(std::string_view(it->value().data(), 8));
  }
  batch_->NoteRead(it->status(), "reading tier counts");
  tier_counts_loaded_ = true;
}

// Puts the tier counts this batch changed; returns them (committed to
// tier_counts_ once the write succeeds).
std::map<int32_t, uint64_t> ShardOrderQueues::StageTierCounts() {
  std::map<int32_t, uint64_t> counts;
  if (tier_delta_.empty()) return counts;
  LoadTierCounts();
  for (const auto& [tier, delta] : tier_delta_) {
    if (delta == 0) continue;
    const uint64_t c = static_cast<uint64_t>(static_cast<int64_t>(tier_counts_[tier]) + delta);
    counts[tier] = c;
    std::string v;
    PutU64(&v, c);
    if (c == 0) {
      batch_->Delete(kTiers, TierKey('C', tier));
    } else {
      batch_->Put(kTiers, TierKey('C', tier), v);
    }
  }
  tier_delta_.clear();
  return counts;
}

void ShardOrderQueues::Committed(const std::map<int32_t, uint64_t>& counts) {
  for (const auto& [tier, c] : counts) tier_counts_[tier] = c;
}

}  // namespace crawl::queueserver
