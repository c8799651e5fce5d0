// QueueStore::Load: one crawl's ShardImage read back from every column
// family, one loader per family (the layout: queue_store.h). Load only
// reads: older layouts were brought up to date at open (queue_store_migrate.h).
#include <rocksdb/db.h>

#include <bit>
#include <functional>
#include <unordered_set>

#include "queueserver/store/queue_store.h"
#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"

namespace crawl::queueserver {
namespace {

// Reads meta id `tag`; false if it is absent.
Result<bool> GetMeta(const StoreDb& store, const std::string& p, char tag, const char* what,
                     std::string* value) {
  const rocksdb::Status rs = store.db->Get(rocksdb::ReadOptions(), store.cf[kMeta], p + tag, value);
  if (rs.IsNotFound()) return false;
  if (!rs.ok()) return FromRocks(rs, what);
  return true;
}

// meta id 'i': the CrawlInfo, without which there is no crawl.
Status LoadCrawlInfo(const StoreDb& store, const std::string& p, uint64_t crawl_id, ShardImage* image) {
  std::string value;
  auto found = GetMeta(store, p, 'i', "reading crawl info", &value);
  if (!found.ok()) return found.status();
  if (!*found) return Status::NotFound("no crawl " + std::to_string(crawl_id) + " in the store");
  if (!image->crawl.ParseFromString(value)) return Corrupt("crawl info", p);
  return Status::Ok();
}

// meta id 'c': the counters and the frontier's scalars; meta id 'o': the
// order's state.
Status LoadScalars(const StoreDb& store, const std::string& p, ShardImage* image) {
  std::string value;
  auto found = GetMeta(store, p, 'c', "reading counters", &value);
  if (!found.ok()) return found.status();
  if (*found) {
    Reader r(value);
    uint64_t ended = 0;
    FrontierScalars& sc = image->frontier.scalars;
    ShardCounters& c = image->counters;
    if (!r.U64(&c.pages_fetched) || !r.U64(&c.fetch_attempts) || !r.U64(&c.bytes_fetched) ||
        !r.U64(&c.fetch_errors) || !r.U64(&ended) || !r.U64(&sc.next_schedule_id) ||
        !r.U64(&sc.robots_disallowed) || !r.U64(&sc.activity) || !r.done())
      return Corrupt("counters", p);
    c.ended = ended != 0;
  }
  found = GetMeta(store, p, 'o', "reading order state", &value);
  if (!found.ok()) return found.status();
  if (*found) image->frontier.order_state = value;
  return Status::Ok();
}

// seen: the URL-seen set, built in place: two passes over the family (both
// on one snapshot) instead of a vector of every hash beside the set.
Status LoadSeenSet(const StoreDb& store, const std::string& p, ShardImage* image) {
  const size_t n = p.size();
  rocksdb::DB& db = *store.db;
  Status s;
  const rocksdb::Snapshot* snapshot = db.GetSnapshot();
  rocksdb::ReadOptions at_snapshot;
  at_snapshot.snapshot = snapshot;
  auto scan = [&](const std::function<void(uint64_t)>& visit) {
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(at_snapshot, store.cf[kSeen]));
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
  FrontierImage& f = image->frontier;
  f.seen_set = std::make_unique<UrlSeenSet>();
  if (!f.seen_set->RestoreFromScan(scan) && s.ok())
    s = Status::Internal("the URL-seen set changed while loading");
  db.ReleaseSnapshot(snapshot);
  return s;
}

// queue: the robots.txt FIFO, and the structure order's page queue.
Status LoadQueues(const StoreDb& store, const std::string& p, ShardImage* image) {
  const size_t n = p.size();
  FrontierImage& f = image->frontier;
  // Pages of the single FIFO of older stores moved to the tier queues when
  // the store opened (queue_store_migrate.h); only the structure order
  // still journals its pages here: they are its queue and load into `ready`.
  const auto order = ParseOrder(image->crawl.params().order());
  const bool structure = order.ok() && *order == OrderKind::kStructure;
  return store.Scan(kQueue, p, [&](std::string_view k, std::string_view v) {
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

// waiting: pages waiting for robots.txt, grouped by origin.
Status LoadWaiting(const StoreDb& store, const std::string& p, ShardImage* image) {
  const size_t n = p.size();
  FrontierImage& f = image->frontier;
  return store.Scan(kWaiting, p, [&](std::string_view k, std::string_view v) {
    SeqEntry e;
    if (k.size() < n + 9 || k[k.size() - 9] != '\0' || !DecodeEntry(v, &e.entry))
      return Corrupt("waiting", k);
    e.seq = ReadU64(k.substr(k.size() - 8));
    std::string origin(k.substr(n, k.size() - 9 - n));
    if (f.waiting.empty() || f.waiting.back().first != origin)
      f.waiting.emplace_back(origin, std::vector<SeqEntry>{});
    f.waiting.back().second.push_back(std::move(e));
    return Status::Ok();
  });
}

// origins: robots.txt state and host back-off per origin.
Status LoadOrigins(const StoreDb& store, const std::string& p, ShardImage* image) {
  const size_t n = p.size();
  FrontierImage& f = image->frontier;
  return store.Scan(kOrigins, p, [&](std::string_view k, std::string_view v) {
    OriginRecord o;
    if (!DecodeOrigin(v, &o)) return Corrupt("origin", k);
    f.origins.emplace_back(std::string(k.substr(n)), std::move(o));
    return Status::Ok();
  });
}

// clds: host_budget's statistics per CLD.
Status LoadClds(const StoreDb& store, const std::string& p, ShardImage* image) {
  const size_t n = p.size();
  FrontierImage& f = image->frontier;
  return store.Scan(kClds, p, [&](std::string_view k, std::string_view v) {
    CldStats c;
    if (!DecodeCld(v, &c)) return Corrupt("cld", k);
    f.clds.emplace_back(std::string(k.substr(n)), c);
    return Status::Ok();
  });
}

// Builds FrontierImage::leases from the leases family read in key order:
// per lease its header, entries (one key each, or one record of them all),
// then the URLs reported done, which are not outstanding.
class LeaseLoader {
 public:
  LeaseLoader(size_t prefix_size, FrontierImage* f) : n_(prefix_size), f_(*f) {}

  // One record, key `k` (the crawl prefix, schedule id(8), tag, ...).
  Status Add(std::string_view k, std::string_view v) {
    if (k.size() < n_ + 9) return Corrupt("lease", k);
    const uint64_t id = ReadU64(k.substr(n_));
    const char tag = k[n_ + 8];
    if (tag == kLeaseHeader) {
      DropDone();
      FrontierImage::Lease& l = f_.leases.emplace_back();
      l.id = id;
      if (!DecodeLease(v, &l.record)) return Corrupt("lease", k);
      return Status::Ok();
    }
    if (f_.leases.empty() || f_.leases.back().id != id) return Corrupt("lease entry", k);
    auto& entries = f_.leases.back().entries;
    if (tag == kLeaseUrl) {
      if (!DecodeEntry(v, &entries.emplace_back())) return Corrupt("lease entry", k);
    } else if (tag == kLeaseEntries) {
      Reader r(v);
      std::string one;
      while (!r.done()) {
        if (!r.Str(&one) || !DecodeEntry(one, &entries.emplace_back())) return Corrupt("lease entries", k);
      }
    } else if (tag == kLeaseDone) {
      done_.emplace(k.substr(n_ + 9));
    } else {
      return Corrupt("lease", k);
    }
    return Status::Ok();
  }

  // Drops the URLs reported done from the last lease's entries.
  void DropDone() {
    if (done_.empty() || f_.leases.empty()) return;
    std::erase_if(f_.leases.back().entries, [&](const FrontierEntry& e) { return done_.count(e.url) > 0; });
    done_.clear();
  }

 private:
  size_t n_;
  FrontierImage& f_;
  std::unordered_set<std::string> done_;  // of the last lease
};

// leases: the open leases with their outstanding entries.
Status LoadLeases(const StoreDb& store, const std::string& p, ShardImage* image) {
  LeaseLoader leases(p.size(), &image->frontier);
  Status s = store.Scan(kLeases, p, [&](std::string_view k, std::string_view v) { return leases.Add(k, v); });
  leases.DropDone();
  return s;
}

// structure: id origin 0x00 graph(1) node -> value (8-byte double).
Status LoadStructure(const StoreDb& store, const std::string& p, ShardImage* image) {
  const size_t n = p.size();
  FrontierImage& f = image->frontier;
  return store.Scan(kStructure, p, [&](std::string_view k, std::string_view v) {
    const std::string_view rest = k.substr(n);
    const size_t zero = rest.find('\0');
    if (zero == std::string_view::npos || zero + 1 >= rest.size() || v.size() != 8)
      return Corrupt("structure", k);
    StructureNodeRecord r;
    r.origin = std::string(rest.substr(0, zero));
    r.graph = rest[zero + 1];
    r.node = std::string(rest.substr(zero + 2));
    r.value = std::bit_cast<double>(ReadU64(v));
    f.structure.push_back(std::move(r));
    return Status::Ok();
  });
}

// batches: the keys of the batches applied recently, with when.
Status LoadAppliedBatches(const StoreDb& store, const std::string& p, ShardImage* image) {
  const size_t n = p.size();
  return store.Scan(kBatches, p, [&](std::string_view k, std::string_view v) {
    AppliedBatch b;
    b.key = std::string(k.substr(n));
    if (!AppliedBatches::DecodeValue(v, &b)) return Corrupt("batches", k);
    image->applied_batches.push_back(std::move(b));
    return Status::Ok();
  });
}

}  // namespace

Result<ShardImage> QueueStore::Load(uint64_t crawl_id) const {
  const std::string p = Prefix(crawl_id);
  ShardImage image;
  if (Status s = LoadCrawlInfo(*impl_, p, crawl_id, &image); !s.ok()) return s;
  // In this order (the queue loader reads the crawl's order from its info).
  using Loader = Status (*)(const StoreDb&, const std::string&, ShardImage*);
  for (Loader load : {LoadScalars, LoadSeenSet, LoadQueues, LoadWaiting, LoadOrigins, LoadClds, LoadLeases,
                      LoadStructure, LoadAppliedBatches}) {
    if (Status s = load(*impl_, p, &image); !s.ok()) return s;
  }
  return image;
}

}  // namespace crawl::queueserver
