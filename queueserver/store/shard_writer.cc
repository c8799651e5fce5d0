// ShardWriter (queue_store.h): the facade over the parts that hold one
// request's changes to one crawl, all in one ShardBatch (shard_batch.h):
// the frontier's records (shard_frontier_journal.h), the orders' queues
// (shard_order_queues.h), the search index's journal
// (shard_index_journal.h) and the fetch states (shard_fetch_states.h). The
// crawl log, applied batch keys and crawl scalars are written here, and
// Commit stages the held changes and writes the batch as one.
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <map>
#include <memory>
#include <utility>

#include "queueserver/store/queue_store.h"
#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"
#include "queueserver/store/shard_batch.h"
#include "queueserver/store/shard_fetch_states.h"
#include "queueserver/store/shard_frontier_journal.h"
#include "queueserver/store/shard_index_journal.h"
#include "queueserver/store/shard_order_queues.h"

namespace crawl::queueserver {

// The parts, all writing into `batch` (declared first: the others refer
// to it). Like the ShardWriter, used by one thread at a time, under the
// queue server's service lock (mu_, queueserver/service.h).
struct ShardWriter::Impl {
  Impl(StoreDb* store, std::string prefix, std::unique_ptr<SegmentFiles> segments)
      : batch(store, std::move(prefix)),
        frontier(&batch),
        orders(&batch),
        index(&batch, std::move(segments)),
        fetch_states(&batch) {}
  ShardBatch batch;
  ShardFrontierJournal frontier;
  ShardOrderQueues orders;
  ShardIndexJournal index;
  ShardFetchStates fetch_states;
};

ShardWriter::ShardWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ShardWriter::~ShardWriter() = default;

std::unique_ptr<ShardWriter> QueueStore::NewWriter(uint64_t crawl_id) {
  auto impl = std::make_unique<ShardWriter::Impl>(impl_.get(), Prefix(crawl_id),
                                                  std::make_unique<SegmentFiles>(impl_->dir, crawl_id));
  return std::unique_ptr<ShardWriter>(new ShardWriter(std::move(impl)));
}

void ShardWriter::Seen(uint64_t url_hash) { impl_->frontier.Seen(url_hash); }
void ShardWriter::Queued(QueueKind queue, const SeqEntry& e) { impl_->frontier.Queued(queue, e); }
void ShardWriter::Dequeued(QueueKind queue, uint64_t seq) { impl_->frontier.Dequeued(queue, seq); }
void ShardWriter::WaitAdded(const std::string& origin, const SeqEntry& e) {
  impl_->frontier.WaitAdded(origin, e);
}
void ShardWriter::WaitRemoved(const std::string& origin, uint64_t seq) {
  impl_->frontier.WaitRemoved(origin, seq);
}
void ShardWriter::OriginChanged(const std::string& origin, const OriginRecord& record) {
  impl_->frontier.OriginChanged(origin, record);
}
void ShardWriter::LeaseOpened(uint64_t schedule_id, const LeaseRecord& lease,
                              const std::vector<FrontierEntry>& entries) {
  impl_->frontier.LeaseOpened(schedule_id, lease, entries);
}
void ShardWriter::LeaseUrlDone(uint64_t schedule_id, const std::string& url) {
  impl_->frontier.LeaseUrlDone(schedule_id, url);
}
void ShardWriter::LeaseClosed(uint64_t schedule_id, const std::vector<std::string>& /*urls*/) {
  impl_->frontier.LeaseClosed(schedule_id);
}
void ShardWriter::CldChanged(const std::string& cld, const CldStats& stats) {
  impl_->frontier.CldChanged(cld, stats);
}
void ShardWriter::OrderStateChanged(const std::string& blob) { impl_->frontier.OrderStateChanged(blob); }
void ShardWriter::StructureNodeChanged(const StructureNodeRecord& node) {
  impl_->frontier.StructureNodeChanged(node);
}

void ShardWriter::OpicPut(const OpicKey& key, uint64_t url_hash, const FrontierEntry& e) {
  impl_->orders.OpicPut(key, url_hash, e);
}
void ShardWriter::OpicErase(const OpicKey& key, uint64_t url_hash) { impl_->orders.OpicErase(key, url_hash); }
std::optional<OpicKey> ShardWriter::OpicFind(uint64_t url_hash) { return impl_->orders.OpicFind(url_hash); }
std::optional<FrontierEntry> ShardWriter::OpicGet(const OpicKey& key) { return impl_->orders.OpicGet(key); }
std::vector<std::pair<OpicKey, FrontierEntry>> ShardWriter::OpicTop(size_t n) {
  return impl_->orders.OpicTop(n);
}
std::optional<OpicVisits> ShardWriter::OpicVisitsGet(uint64_t url_hash) {
  return impl_->orders.OpicVisitsGet(url_hash);
}
void ShardWriter::OpicVisitsPut(uint64_t url_hash, const OpicVisits& v) {
  impl_->orders.OpicVisitsPut(url_hash, v);
}
Status ShardWriter::OpicScan(const OpicStore::ScanVisitor& visit) const {
  return impl_->orders.OpicScan(visit);
}
void ShardWriter::TierPut(int32_t tier, const SeqEntry& e) { impl_->orders.TierPut(tier, e); }
void ShardWriter::TierErase(int32_t tier, uint64_t seq) { impl_->orders.TierErase(tier, seq); }
std::vector<SeqEntry> ShardWriter::TierRead(int32_t tier, uint64_t after, size_t n) {
  return impl_->orders.TierRead(tier, after, n);
}
std::map<int32_t, TierStore::TierInfo> ShardWriter::TierSummary() { return impl_->orders.TierSummary(); }
Status ShardWriter::TierScan(const TierStore::ScanVisitor& visit) const {
  return impl_->orders.TierScan(visit);
}

Result<std::optional<FetchState>> ShardWriter::GetFetchState(uint64_t url_hash, const std::string& url) {
  return impl_->fetch_states.Get(url_hash, url);
}
Status ShardWriter::ScanFetchStates(const std::function<bool(uint64_t, const FetchState&)>& visit,
                                    uint64_t* damaged) const {
  return impl_->fetch_states.Scan(visit, damaged);
}
void ShardWriter::PutFetchState(uint64_t url_hash, const FetchState& state) {
  impl_->fetch_states.Put(url_hash, state);
}

void ShardWriter::PutIndex(IndexFamily family, const std::string& key, const std::string& value) {
  impl_->index.PutIndex(family, key, value);
}
Status ShardWriter::GetIndex(IndexFamily family, const std::string& key, std::string* value) {
  return impl_->index.GetIndex(family, key, value);
}
Status ShardWriter::ScanIndex(IndexFamily family, const std::string& prefix,
                              const std::function<bool(std::string_view, std::string_view)>& visit) {
  return impl_->index.ScanIndex(family, prefix, visit);
}
Status ShardWriter::WriteIndexNow(const std::vector<Put>& puts, const std::vector<Key>& deletes,
                                  IndexFamily erase_family, const std::string& erase_from,
                                  const std::string& erase_to) {
  return impl_->index.WriteIndexNow(puts, deletes, erase_family, erase_from, erase_to);
}
Status ShardWriter::WriteSortedNow(IndexFamily family, const std::vector<Put>& puts) {
  return impl_->index.WriteSortedNow(family, puts);
}
std::shared_ptr<const IndexSnapshot> ShardWriter::SnapshotIndex() { return impl_->index.SnapshotIndex(); }
void ShardWriter::AppendSegment(uint32_t partition, uint32_t first_doc, std::string segment) {
  impl_->index.AppendSegment(partition, first_doc, std::move(segment));
}
Status ShardWriter::ScanSegments(uint32_t partition,
                                 const std::function<bool(uint32_t, std::string_view)>& visit,
                                 uint64_t* lost) {
  return impl_->index.ScanSegments(partition, visit, lost);
}
Status ShardWriter::DropSegments(uint32_t partition) { return impl_->index.DropSegments(partition); }

void ShardWriter::AppendLog(uint64_t index, const v1::FetchRecord& record) {
  std::string k = impl_->batch.prefix();
  PutU64(&k, index);
  impl_->batch.Put(kLog, k, record.SerializeAsString());
}
Status ShardWriter::ScanLog(uint64_t from, uint64_t limit,
                            const std::function<void(v1::FetchRecord&&)>& visit, uint64_t* end) const {
  const std::string& p = impl_->batch.prefix();
  std::string start = p;
  PutU64(&start, from);
  std::unique_ptr<rocksdb::Iterator> it(
      impl_->batch.store().db->NewIterator(rocksdb::ReadOptions(), impl_->batch.cf(kLog)));
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
  impl_->batch.Put(kBatches, impl_->batch.Key(batch.key), AppliedBatches::EncodeValue(batch));
}
void ShardWriter::DropAppliedBatch(const std::string& key) {
  impl_->batch.Delete(kBatches, impl_->batch.Key(key));
}
void ShardWriter::PutCrawl(const v1::CrawlInfo& crawl) {
  impl_->batch.Put(kMeta, impl_->batch.Key("i"), crawl.SerializeAsString());
}
void ShardWriter::PutCounters(const ShardCounters& c, const FrontierScalars& sc) {
  std::string v;
  for (uint64_t x : {c.pages_fetched, c.fetch_attempts, c.bytes_fetched, c.fetch_errors, uint64_t{c.ended},
                     sc.next_schedule_id, sc.robots_disallowed, sc.activity})
    PutU64(&v, x);
  impl_->batch.Put(kMeta, impl_->batch.Key("c"), v);
}

Status ShardWriter::Commit() {
  Impl& m = *impl_;
  const bool wrote_seen = m.frontier.StageScalars();
  const std::map<int32_t, uint64_t> counts = m.orders.StageTierCounts();  // tier counts after this batch
  m.frontier.StageLeaseDone();
  Status s = m.batch.TakeReadError();
  if (m.batch.Count() == 0 && !m.index.segments_staged()) return s;
  // The segments first (the batch records their files' new lengths); an
  // injected failure fails the batch after them, as a full disk would.
  if (s.ok()) s = m.index.WriteSegments();
  if (s.ok() && m.batch.store().fail_writes) {
    s = Status::IoError("queue store: write failed (injected by a test)");
  } else if (s.ok()) {
    s = FromRocks(m.batch.Write(), "queue store write");
  }
  m.batch.Clear();
  if (s.ok()) {
    m.index.Committed();
    m.orders.Committed(counts);
    m.frontier.Committed(wrote_seen);
  } else {
    m.index.Abandon();
  }
  return s;
}

void ShardWriter::Discard() {
  impl_->batch.Clear();
  impl_->index.Abandon();
  (void)impl_->batch.TakeReadError();
  impl_->frontier.Discard();
  impl_->orders.Discard();
}

size_t ShardWriter::pending() const {
  // A read error counts as a change, so the next Commit reports it.
  return static_cast<size_t>(impl_->batch.Count()) + (impl_->batch.read_failed() ? 1 : 0) +
         impl_->frontier.held() + (impl_->index.segments_staged() ? 1 : 0);
}

}  // namespace crawl::queueserver
