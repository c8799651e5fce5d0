// One-time migrations of older store layouts at open (queue_store_migrate.h).
#include "queueserver/store/queue_store_migrate.h"

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <map>
#include <string>
#include <string_view>

#include "queueserver/store/queue_store_codec.h"

namespace crawl::queueserver::store_internal {
namespace {

// The writes that move one crawl's old page FIFO to the tier queues.
struct PageMove {
  rocksdb::WriteBatch batch;
  std::map<int32_t, uint64_t> moved;  // pages per tier
  bool undecodable = false;           // a record could not be read: move nothing
};

// Every page record of the crawl with key prefix `p` (any queue key but the
// robots.txt FIFO's 'R') as a put into its tier and a delete from the queue.
Status FindOldPages(const StoreDb& store, const std::string& p, bool tiered, PageMove* move) {
  const size_t n = p.size();
  return store.Scan(kQueue, p, [&](std::string_view k, std::string_view v) {
    if (k.size() == n + 9 && k[n] == 'R') return Status::Ok();
    FrontierEntry e;
    if (k.size() != n + 9 || !DecodeEntry(v, &e)) {
      move->undecodable = true;
      return Corrupt("queue", k);
    }
    const int32_t tier = tiered ? e.tier : 0;
    std::string tk = p + "T";
    PutTier(&tk, tier);
    PutU64(&tk, ReadU64(k.substr(n + 1)));
    (void)move->batch.Put(store.cf[kTiers], tk, std::string(v));
    (void)move->batch.Delete(store.cf[kQueue], std::string(k));
    ++move->moved[tier];
    return Status::Ok();
  });
}

// Adds the moved pages to the tier counts already stored, in the same batch.
Status AddTierCounts(const StoreDb& store, const std::string& p, PageMove* move) {
  for (const auto& [tier, count] : move->moved) {
    std::string ck = p + "C";
    PutTier(&ck, tier);
    std::string old;
    uint64_t base = 0;
    const rocksdb::Status rs = store.db->Get(rocksdb::ReadOptions(), store.cf[kTiers], ck, &old);
    if (!rs.ok() && !rs.IsNotFound()) return FromRocks(rs, "reading tier counts");
    if (rs.ok()) base = ReadU64(old);
    std::string v;
    PutU64(&v, base + count);
    (void)move->batch.Put(store.cf[kTiers], ck, v);
  }
  return Status::Ok();
}

// Moves the old page FIFO of one crawl to the tier queues.
Status MoveOldPageQueue(StoreDb& store, uint64_t crawl_id) {
  const std::string p = Prefix(crawl_id);
  std::string value;
  const rocksdb::Status rs = store.db->Get(rocksdb::ReadOptions(), store.cf[kMeta], p + "i", &value);
  if (rs.IsNotFound()) return Status::Ok();
  if (!rs.ok()) return FromRocks(rs, "reading crawl info");
  v1::CrawlInfo crawl;
  if (!crawl.ParseFromString(value)) return Status::Ok();  // Load reports it
  const auto order = ParseOrder(crawl.params().order());
  if (order.ok() && *order == OrderKind::kStructure) return Status::Ok();  // its own page queue
  const bool tiered = order.ok() && *order == OrderKind::kHostBudget;
  PageMove move;
  Status s = FindOldPages(store, p, tiered, &move);
  if (move.undecodable) return Status::Ok();  // Load reports the record
  if (!s.ok() || move.moved.empty()) return s;
  s = AddTierCounts(store, p, &move);
  if (!s.ok()) return s;
  return FromRocks(store.db->Write(store.write_options, &move.batch), "moving the page queue to tiers");
}

}  // namespace

Status MigrateOldLayouts(StoreDb& store, const std::vector<uint64_t>& crawl_ids) {
  for (uint64_t id : crawl_ids) {
    if (Status s = MoveOldPageQueue(store, id); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace crawl::queueserver::store_internal
