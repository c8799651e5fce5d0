// ShardWriter: the frontier journal, the crawl's scalars and log, and the
// one atomic Commit of a request's changes (queue_store.h).
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <map>
#include <memory>

#include "queueserver/store/queue_store.h"
#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"
#include "queueserver/store/batch_append.h"
#include "queueserver/store/shard_writer_impl.h"

namespace crawl::queueserver {

ShardWriter::ShardWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ShardWriter::~ShardWriter() = default;

std::unique_ptr<ShardWriter> QueueStore::NewWriter(uint64_t crawl_id) {
  auto impl = std::make_unique<ShardWriter::Impl>();
  impl->store = impl_.get();
  impl->prefix = Prefix(crawl_id);
  impl->segments = std::make_unique<SegmentFiles>(impl_->dir, crawl_id);
  return std::unique_ptr<ShardWriter>(new ShardWriter(std::move(impl)));
}

void ShardWriter::Seen(uint64_t url_hash) { PutU64(&impl_->seen, url_hash); }
void ShardWriter::Queued(QueueKind queue, const SeqEntry& e) {
  impl_->Put(kQueue, impl_->QueueKey(queue, e.seq), EncodeEntry(e.entry));
}
void ShardWriter::Dequeued(QueueKind queue, uint64_t seq) { impl_->Delete(kQueue, impl_->QueueKey(queue, seq)); }
void ShardWriter::WaitAdded(const std::string& origin, const SeqEntry& e) {
  impl_->Put(kWaiting, impl_->WaitKey(origin, e.seq), EncodeEntry(e.entry));
}
void ShardWriter::WaitRemoved(const std::string& origin, uint64_t seq) {
  impl_->Delete(kWaiting, impl_->WaitKey(origin, seq));
}
void ShardWriter::OriginChanged(const std::string& origin, const OriginRecord& record) {
  impl_->Put(kOrigins, impl_->Key(origin), EncodeOrigin(record));
}
void ShardWriter::LeaseOpened(uint64_t schedule_id, const LeaseRecord& lease,
                              const std::vector<FrontierEntry>& entries) {
  impl_->Put(kLeases, impl_->LeaseKey(schedule_id, kLeaseHeader), EncodeLease(lease));
  // All entries in one record: one key per URL cost a memtable insert each.
  std::string all;
  size_t bytes = 0;
  for (const auto& e : entries) bytes += e.url.size() + e.referrer.size() + 37;
  all.reserve(bytes);
  for (const auto& e : entries) AppendSizedEntry(&all, e);
  impl_->Put(kLeases, impl_->LeaseKey(schedule_id, kLeaseEntries), all);
}
void ShardWriter::LeaseUrlDone(uint64_t schedule_id, const std::string& url) {
  impl_->lease_done[schedule_id].push_back(url);
}
void ShardWriter::LeaseClosed(uint64_t schedule_id, const std::vector<std::string>& /*urls*/) {
  // Every record of the lease (header, entries of either layout, done
  // marks) in one range delete.
  impl_->lease_done.erase(schedule_id);
  (void)impl_->plain.DeleteRange(impl_->cf(kLeases), impl_->LeaseKey(schedule_id, kLeaseHeader),
                                 impl_->LeaseKey(schedule_id + 1, kLeaseHeader));
}

void ShardWriter::CldChanged(const std::string& cld, const CldStats& stats) {
  // Written once per CLD at Commit: host_budget reports one per link.
  impl_->clds[cld] = stats;
}
void ShardWriter::OrderStateChanged(const std::string& blob) {
  impl_->order_state = blob;
  impl_->order_state_set = true;
}
void ShardWriter::StructureNodeChanged(const StructureNodeRecord& node) {
  std::string key = node.origin;
  key.push_back('\0');
  key.push_back(node.graph);
  key.append(node.node);
  std::string value;
  PutF64(&value, node.value);
  impl_->Put(kStructure, impl_->Key(key), value);
}

void ShardWriter::AppendLog(uint64_t index, const v1::FetchRecord& record) {
  std::string k = impl_->prefix;
  PutU64(&k, index);
  impl_->Put(kLog, k, record.SerializeAsString());
}
Status ShardWriter::ScanLog(uint64_t from, uint64_t limit, const std::function<void(v1::FetchRecord&&)>& visit,
                            uint64_t* end) const {
  const std::string& p = impl_->prefix;
  std::string start = p;
  PutU64(&start, from);
  std::unique_ptr<rocksdb::Iterator> it(impl_->store->db->NewIterator(rocksdb::ReadOptions(), impl_->cf(kLog)));
  uint64_t next = from;
  for (it->Seek(start); it->Valid() && it->key().starts_with(p); it->Next()) {
    if (limit != 0 && next - from >= limit) break;
    const rocksdb::Slice k = it->key();
    const rocksdb::Slice v = it->value();
    v1::FetchRecord record;
    // Records are numbered 0, 1, 2... with no gap: a gap or an unreadable
    // record is corruption, not the log's end.
    if (k.size() != p.size() + 8 || ReadU64(std::string_view(k.data() + p.size(), 8)) != next ||
        !record.ParseFromArray(v.data(), static_cast<int>(v.size())))
      return Corrupt("log", std::string_view(k.data(), k.size()));
    visit(std::move(record));
    ++next;
  }
  *end = next;
  return FromRocks(it->status(), "reading log");
}

void ShardWriter::AddAppliedBatch(const AppliedBatch& batch) {
  impl_->Put(kBatches, impl_->Key(batch.key), AppliedBatches::EncodeValue(batch));
}
void ShardWriter::DropAppliedBatch(const std::string& key) { impl_->Delete(kBatches, impl_->Key(key)); }
void ShardWriter::PutCrawl(const v1::CrawlInfo& crawl) {
  impl_->Put(kMeta, impl_->Key("i"), crawl.SerializeAsString());
}
void ShardWriter::PutCounters(const ShardCounters& c, const FrontierScalars& sc) {
  std::string v;
  for (uint64_t x : {c.pages_fetched, c.fetch_attempts, c.bytes_fetched, c.fetch_errors, uint64_t{c.ended},
                     sc.next_schedule_id, sc.robots_disallowed, sc.activity})
    PutU64(&v, x);
  impl_->Put(kMeta, impl_->Key("c"), v);
}

// Puts this batch's new URL-seen hashes as one record under the next
// seen-record number (read from the store on first use); true if any.
bool ShardWriter::Impl::PutSeenRecord() {
  if (seen.empty()) return false;
  if (!next_seen_record) {
    const std::string p = prefix + "B";
    std::string last = p + std::string(8, '\xff');
    std::unique_ptr<rocksdb::Iterator> it(store->db->NewIterator(rocksdb::ReadOptions(), cf(kSeen)));
    it->SeekForPrev(last);
    next_seen_record = 0;
    if (it->Valid() && it->key().starts_with(p) && it->key().size() == p.size() + 8)
      next_seen_record = ReadU64(std::string_view(it->key().data() + p.size(), 8)) + 1;
    NoteRead(it->status(), "reading the URL-seen set");
  }
  std::string k = prefix + "B";
  PutU64(&k, *next_seen_record);
  Put(kSeen, k, seen);
  seen.clear();
  return true;
}

// Puts the tier counts this batch changed; returns them (committed to
// tier_counts once the write succeeds).
std::map<int32_t, uint64_t> ShardWriter::Impl::PutTierCounts() {
  std::map<int32_t, uint64_t> counts;
  if (tier_delta.empty()) return counts;
  LoadTierCounts();
  for (const auto& [tier, delta] : tier_delta) {
    if (delta == 0) continue;
    const uint64_t c = static_cast<uint64_t>(static_cast<int64_t>(tier_counts[tier]) + delta);
    counts[tier] = c;
    std::string v;
    PutU64(&v, c);
    if (c == 0) {
      Delete(kTiers, TierKey('C', tier));
    } else {
      Put(kTiers, TierKey('C', tier), v);
    }
  }
  tier_delta.clear();
  return counts;
}

// One atomic write of the three batches (they touch disjoint families, so
// their order does not matter).
rocksdb::Status ShardWriter::Impl::AppendSorted(rocksdb::WriteBatch* out) {
  // Key order within each family: the memtable's skip list inserts a run of
  // ascending keys from where the one before went (its splice) instead of
  // searching from the top for each random key (document ids, liveness and
  // fetch-state keys are hashes). `batch` keeps the last write of a key
  // (overwrite_key) and has no range deletes, so the order of its records
  // does not change what they leave.
  for (Cf c : kIndexedCfs) {
    std::unique_ptr<rocksdb::WBWIIterator> it(batch.NewIterator(cf(c)));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const rocksdb::WriteEntry e = it->Entry();
      switch (e.type) {
        case rocksdb::kPutRecord: (void)out->Put(cf(c), e.key, e.value); break;
        case rocksdb::kMergeRecord: (void)out->Merge(cf(c), e.key, e.value); break;
        case rocksdb::kDeleteRecord: (void)out->Delete(cf(c), e.key); break;
        case rocksdb::kSingleDeleteRecord: (void)out->SingleDelete(cf(c), e.key); break;
        default: return rocksdb::Status::NotSupported("queue store: a record kind it never writes");
      }
    }
  }
  std::vector<const PendingMap::value_type*> sorted;
  for (size_t i = 0; i < std::size(kMappedCfs); ++i) {
    sorted.clear();
    sorted.reserve(mapped[i].size());
    for (const auto& entry : mapped[i]) sorted.push_back(&entry);
    std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    rocksdb::ColumnFamilyHandle* family = cf(kMappedCfs[i]);
    for (const auto* d : sorted) {
      (void)(d->second ? out->Put(family, d->first, *d->second) : out->Delete(family, d->first));
    }
  }
  return rocksdb::Status::OK();
}

rocksdb::Status ShardWriter::Impl::WriteBatches() {
  const bool sorted_part = batch.GetWriteBatch()->Count() > 0 || MappedCount() > 0;
  if (tier_ops.Count() == 0 && !sorted_part) return store->db->Write(store->write_options, &plain);
  if (plain.Count() == 0 && !sorted_part) return store->db->Write(store->write_options, &tier_ops);
  size_t mapped_bytes = 0;
  for (const PendingMap& m : mapped) {
    for (const auto& [key, value] : m) mapped_bytes += key.size() + (value ? value->size() : 0) + 16;
  }
  rocksdb::WriteBatch all;
  const size_t reserve =
      plain.GetDataSize() + tier_ops.GetDataSize() + batch.GetWriteBatch()->GetDataSize() + mapped_bytes;
  if (rocksdb::Status s = JoinBatches(plain, tier_ops, store->cf, reserve, &all); !s.ok()) return s;
  if (rocksdb::Status s = AppendSorted(&all); !s.ok()) return s;
  return store->db->Write(store->write_options, &all);
}

Status ShardWriter::Commit() {
  Impl& m = *impl_;
  if (m.order_state_set) m.Put(kMeta, m.Key("o"), m.order_state);
  m.order_state_set = false;
  for (const auto& [cld, stats] : m.clds) m.Put(kClds, m.Key(cld), EncodeCld(stats));
  m.clds.clear();
  const bool wrote_seen = m.PutSeenRecord();
  const std::map<int32_t, uint64_t> counts = m.PutTierCounts();  // tier counts after this batch
  for (const auto& [id, urls] : m.lease_done) {
    for (const std::string& u : urls) m.Put(kLeases, m.LeaseKey(id, kLeaseDone, u), "");
  }
  m.lease_done.clear();
  Status s = m.read_error;
  m.read_error = Status::Ok();
  if (m.Count() == 0 && !m.segments->staged()) return s;
  // The segments first (the batch records their files' new lengths); an
  // injected failure fails the batch after them, as a full disk would.
  if (s.ok()) s = m.WriteSegments();
  if (s.ok() && m.store->fail_writes) {
    s = Status::IoError("queue store: write failed (injected by a test)");
  } else if (s.ok()) {
    s = FromRocks(m.WriteBatches(), "queue store write");
  }
  m.Clear();
  if (s.ok()) {
    m.segments->Committed();
    for (const auto& [tier, c] : counts) m.tier_counts[tier] = c;
    if (m.next_seen_record && wrote_seen) ++*m.next_seen_record;
  } else {
    m.segments->Abandon();
  }
  return s;
}

void ShardWriter::Discard() {
  impl_->Clear();
  impl_->segments->Abandon();
  impl_->read_error = Status::Ok();
  impl_->order_state_set = false;
  impl_->tier_delta.clear();
  impl_->clds.clear();
  impl_->seen.clear();
}

size_t ShardWriter::pending() const {
  // A read error counts as a change, so the next Commit reports it.
  return static_cast<size_t>(impl_->Count()) + (impl_->read_error.ok() ? 0 : 1) +
         (impl_->order_state_set ? 1 : 0) + impl_->clds.size() + impl_->seen.size() / 8 + impl_->lease_done.size() +
         (impl_->segments->staged() ? 1 : 0);
}

}  // namespace crawl::queueserver
