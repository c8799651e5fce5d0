// QueueStore::Load: one crawl's ShardImage read back from every column family.
#include <rocksdb/db.h>

#include <bit>
#include <functional>
#include <map>
#include <unordered_set>

#include "queueserver/store/queue_store.h"
#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"

namespace crawl::queueserver {

Result<ShardImage> QueueStore::Load(uint64_t crawl_id) const {
  const std::string p = Prefix(crawl_id);
  const size_t n = p.size();
  ShardImage image;
  auto& db = *impl_->db;
  std::string value;
  rocksdb::Status rs = db.Get(rocksdb::ReadOptions(), impl_->cf[kMeta], p + "i", &value);
  if (rs.IsNotFound()) return Status::NotFound("no crawl " + std::to_string(crawl_id) + " in the store");
  if (!rs.ok()) return FromRocks(rs, "reading crawl info");
  if (!image.crawl.ParseFromString(value)) return Corrupt("crawl info", p);
  rs = db.Get(rocksdb::ReadOptions(), impl_->cf[kMeta], p + "c", &value);
  if (!rs.ok() && !rs.IsNotFound()) return FromRocks(rs, "reading counters");
  if (rs.ok()) {
    Reader r(value);
    uint64_t ended = 0;
    FrontierScalars& sc = image.frontier.scalars;
    ShardCounters& c = image.counters;
    if (!r.U64(&c.pages_fetched) || !r.U64(&c.fetch_attempts) || !r.U64(&c.bytes_fetched) ||
        !r.U64(&c.fetch_errors) || !r.U64(&ended) || !r.U64(&sc.next_schedule_id) ||
        !r.U64(&sc.robots_disallowed) || !r.U64(&sc.activity) || !r.done())
      return Corrupt("counters", p);
    c.ended = ended != 0;
  }
  FrontierImage& f = image.frontier;
  rs = db.Get(rocksdb::ReadOptions(), impl_->cf[kMeta], p + "o", &value);
  if (!rs.ok() && !rs.IsNotFound()) return FromRocks(rs, "reading order state");
  if (rs.ok()) f.order_state = value;
  // The URL-seen set, built in place: two passes over the family (both on
  // one snapshot) instead of a vector of every hash beside the set.
  Status s;
  {
    const rocksdb::Snapshot* snapshot = db.GetSnapshot();
    rocksdb::ReadOptions at_snapshot;
    at_snapshot.snapshot = snapshot;
    auto scan = [&](const std::function<void(uint64_t)>& visit) {
      std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(at_snapshot, impl_->cf[kSeen]));
      for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
        const std::string_view k(it->key().data(), it->key().size());
        const std::string_view v(it->value().data(), it->value().size());
        if (k.size() == n + 8) {  // one hash per key (older stores)
          visit(ReadU64(k.substr(n)));
          continue;
        }
        // One record per commit: the hashes it added, 8 bytes each.
        if (k.size() != n + 9 || k[n] != 'B' || v.size() % 8 != 0) {
          s = Corrupt("seen", k);
          return false;
        }
        for (size_t i = 0; i < v.size(); i += 8) visit(ReadU64(v.substr(i)));
      }
      s = FromRocks(it->status(), "reading the URL-seen set");
      return s.ok();
    };
    f.seen_set = std::make_unique<UrlSeenSet>();
    if (!f.seen_set->RestoreFromScan(scan) && s.ok()) s = Status::Internal("the URL-seen set changed while loading");
    db.ReleaseSnapshot(snapshot);
  }
  // Pages of the single FIFO of older stores moved to the tier queues when
  // the store opened (queue_store_migrate.h); only the structure order
  // still journals its pages here: they are its queue and load into `ready`.
  const auto order = ParseOrder(image.crawl.params().order());
  const bool structure = order.ok() && *order == OrderKind::kStructure;
  if (s.ok()) {
    s = impl_->Scan(kQueue, p, [&](std::string_view k, std::string_view v) {
      SeqEntry e;
      if (k.size() != n + 9 || !DecodeEntry(v, &e.entry)) return Corrupt("queue", k);
      e.seq = ReadU64(k.substr(n + 1));
      if (k[n] == 'R') {
        f.robots_ready.push_back(std::move(e));
        return Status::Ok();
      }
      // A page left in another order's queue is one the migration could
      // not move: a record of this crawl's old queue could not be decoded.
      if (!structure) return Corrupt("queue", k);
      f.ready.push_back(std::move(e));
      return Status::Ok();
    });
  }
  if (s.ok()) {
    s = impl_->Scan(kWaiting, p, [&](std::string_view k, std::string_view v) {
      SeqEntry e;
      if (k.size() < n + 9 || k[k.size() - 9] != '\0' || !DecodeEntry(v, &e.entry)) return Corrupt("waiting", k);
      e.seq = ReadU64(k.substr(k.size() - 8));
      std::string origin(k.substr(n, k.size() - 9 - n));
      if (f.waiting.empty() || f.waiting.back().first != origin) f.waiting.emplace_back(origin, std::vector<SeqEntry>{});
      f.waiting.back().second.push_back(std::move(e));
      return Status::Ok();
    });
  }
  if (s.ok()) {
    s = impl_->Scan(kOrigins, p, [&](std::string_view k, std::string_view v) {
      OriginRecord o;
      if (!DecodeOrigin(v, &o)) return Corrupt("origin", k);
      f.origins.emplace_back(std::string(k.substr(n)), std::move(o));
      return Status::Ok();
    });
  }
  if (s.ok()) {
    s = impl_->Scan(kClds, p, [&](std::string_view k, std::string_view v) {
      CldStats c;
      if (!DecodeCld(v, &c)) return Corrupt("cld", k);
      f.clds.emplace_back(std::string(k.substr(n)), c);
      return Status::Ok();
    });
  }
  if (s.ok()) {
    // Per lease: header, entries (one key each, or one record of them
    // all), then the URLs reported done, which are not outstanding.
    std::unordered_set<std::string> done;
    auto drop_done = [&] {
      if (done.empty() || f.leases.empty()) return;
      std::erase_if(f.leases.back().entries, [&](const FrontierEntry& e) { return done.count(e.url) > 0; });
      done.clear();
    };
    s = impl_->Scan(kLeases, p, [&](std::string_view k, std::string_view v) {
      if (k.size() < n + 9) return Corrupt("lease", k);
      const uint64_t id = ReadU64(k.substr(n));
      const char tag = k[n + 8];
      if (tag == kLeaseHeader) {
        drop_done();
        FrontierImage::Lease& l = f.leases.emplace_back();
        l.id = id;
        if (!DecodeLease(v, &l.record)) return Corrupt("lease", k);
        return Status::Ok();
      }
      if (f.leases.empty() || f.leases.back().id != id) return Corrupt("lease entry", k);
      auto& entries = f.leases.back().entries;
      if (tag == kLeaseUrl) {
        if (!DecodeEntry(v, &entries.emplace_back())) return Corrupt("lease entry", k);
      } else if (tag == kLeaseEntries) {
        Reader r(v);
        std::string one;
        while (!r.done()) {
          if (!r.Str(&one) || !DecodeEntry(one, &entries.emplace_back())) return Corrupt("lease entries", k);
        }
      } else if (tag == kLeaseDone) {
        done.emplace(k.substr(n + 9));
      } else {
        return Corrupt("lease", k);
      }
      return Status::Ok();
    });
    drop_done();
  }
  if (s.ok()) {
    // structure: id origin 0x00 graph(1) node -> value (8-byte double).
    s = impl_->Scan(kStructure, p, [&](std::string_view k, std::string_view v) {
      const std::string_view rest = k.substr(n);
      const size_t zero = rest.find('\0');
      if (zero == std::string_view::npos || zero + 1 >= rest.size() || v.size() != 8) return Corrupt("structure", k);
      StructureNodeRecord r;
      r.origin = std::string(rest.substr(0, zero));
      r.graph = rest[zero + 1];
      r.node = std::string(rest.substr(zero + 2));
      r.value = std::bit_cast<double>(ReadU64(v));
      f.structure.push_back(std::move(r));
      return Status::Ok();
    });
  }
  if (s.ok()) {
    s = impl_->Scan(kBatches, p, [&](std::string_view k, std::string_view) {
      image.applied_batches.emplace(k.substr(n));
      return Status::Ok();
    });
  }
  if (!s.ok()) return s;
  return image;
}

}  // namespace crawl::queueserver
