// ShardFrontierJournal (shard_frontier_journal.h): the frontier's changes
// as records, and the held ones staged at Commit.
#include "queueserver/store/shard_frontier_journal.h"

#include <rocksdb/db.h>

#include <memory>

#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"

namespace crawl::queueserver {

std::string ShardFrontierJournal::QueueKey(QueueKind q, uint64_t seq) const {
  std::string k = batch_->prefix();
  k.push_back(q == QueueKind::kRobots ? 'R' : 'P');
  PutU64(&k, seq);
  return k;
}

std::string ShardFrontierJournal::WaitKey(const std::string& origin, uint64_t seq) const {
  std::string k = batch_->prefix() + origin;
  k.push_back('\0');
  PutU64(&k, seq);
  return k;
}

std::string ShardFrontierJournal::LeaseKey(uint64_t id, char tag, std::string_view url) const {
  std::string k = batch_->prefix();
  PutU64(&k, id);
  k.push_back(tag);
  k.append(url);
  return k;
}

void ShardFrontierJournal::Seen(uint64_t url_hash) { PutU64(&seen_, url_hash); }
void ShardFrontierJournal::Queued(QueueKind queue, const SeqEntry& e) {
  batch_->Put(kQueue, QueueKey(queue, e.seq), EncodeEntry(e.entry));
}
void ShardFrontierJournal::Dequeued(QueueKind queue, uint64_t seq) {
  batch_->Delete(kQueue, QueueKey(queue, seq));
}
void ShardFrontierJournal::WaitAdded(const std::string& origin, const SeqEntry& e) {
  batch_->Put(kWaiting, WaitKey(origin, e.seq), EncodeEntry(e.entry));
}
void ShardFrontierJournal::WaitRemoved(const std::string& origin, uint64_t seq) {
  batch_->Delete(kWaiting, WaitKey(origin, seq));
}
void ShardFrontierJournal::OriginChanged(const std::string& origin, const OriginRecord& record) {
  batch_->Put(kOrigins, batch_->Key(origin), EncodeOrigin(record));
}
void ShardFrontierJournal::LeaseOpened(uint64_t schedule_id, const LeaseRecord& lease,
                                       const std::vector<FrontierEntry>& entries) {
  batch_->Put(kLeases, LeaseKey(schedule_id, kLeaseHeader), EncodeLease(lease));
  // All entries in one record: one key per URL cost a memtable insert each.
  std::string all;
  size_t bytes = 0;
  for (const auto& e : entries) bytes += e.url.size() + e.referrer.size() + 37;
  all.reserve(bytes);
  for (const auto& e : entries) AppendSizedEntry(&all, e);
  batch_->Put(kLeases, LeaseKey(schedule_id, kLeaseEntries), all);
}
void ShardFrontierJournal::LeaseUrlDone(uint64_t schedule_id, const std::string& url) {
  lease_done_[schedule_id].push_back(url);
}
void ShardFrontierJournal::LeaseClosed(uint64_t schedule_id) {
  // Every record of the lease (header, entries of either layout, done
  // marks) in one range delete.
  lease_done_.erase(schedule_id);
  batch_->DeleteRange(kLeases, LeaseKey(schedule_id, kLeaseHeader), LeaseKey(schedule_id + 1, kLeaseHeader));
}

void ShardFrontierJournal::CldChanged(const std::string& cld, const CldStats& stats) {
  // Written once per CLD at Commit: host_budget reports one per link.
  clds_[cld] = stats;
}
void ShardFrontierJournal::OrderStateChanged(const std::string& blob) {
  order_state_ = blob;
  order_state_set_ = true;
}
void ShardFrontierJournal::StructureNodeChanged(const StructureNodeRecord& node) {
  std::string key = node.origin;
  key.push_back('\0');
  key.push_back(node.graph);
  key.append(node.node);
  std::string value;
  PutF64(&value, node.value);
  batch_->Put(kStructure, batch_->Key(key), value);
}

bool ShardFrontierJournal::PutSeenRecord() {
  if (seen_.empty()) return false;
  if (!next_seen_record_) {
    const std::string p = batch_->prefix() + "B";
    std::string last = p + std::string(8, '\xff');
    std::unique_ptr<rocksdb::Iterator> it(
        batch_->store().db->NewIterator(rocksdb::ReadOptions(), batch_->cf(kSeen)));
    it->SeekForPrev(last);
    next_seen_record_ = 0;
    if (it->Valid() && it->key().starts_with(p) && it->key().size() == p.size() + 8)
      next_seen_record_ = ReadU64(std::string_view(it->key().data() + p.size(), 8)) + 1;
    batch_->NoteRead(it->status(), "reading the URL-seen set");
  }
  std::string k = batch_->prefix() + "B";
  PutU64(&k, *next_seen_record_);
  batch_->Put(kSeen, k, seen_);
  seen_.clear();
  return true;
}

bool ShardFrontierJournal::StageScalars() {
  if (order_state_set_) batch_->Put(kMeta, batch_->Key("o"), order_state_);
  order_state_set_ = false;
  for (const auto& [cld, stats] : clds_) batch_->Put(kClds, batch_->Key(cld), EncodeCld(stats));
  clds_.clear();
  return PutSeenRecord();
}

void ShardFrontierJournal::StageLeaseDone() {
  for (const auto& [id, urls] : lease_done_) {
    for (const std::string& u : urls) batch_->Put(kLeases, LeaseKey(id, kLeaseDone, u), "");
  }
  lease_done_.clear();
}

void ShardFrontierJournal::Committed(bool wrote_seen) {
  if (next_seen_record_ && wrote_seen) ++*next_seen_record_;
}

void ShardFrontierJournal::Discard() {
  lease_done_.clear();
  order_state_set_ = false;
  clds_.clear();
  seen_.clear();
}

size_t ShardFrontierJournal::held() const {
  return (order_state_set_ ? 1 : 0) + clds_.size() + seen_.size() / 8 + lease_done_.size();
}

}  // namespace crawl::queueserver
