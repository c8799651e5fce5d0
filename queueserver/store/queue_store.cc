#include "queueserver/store/queue_store.h"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>
#include <rocksdb/memtablerep.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/utilities/write_batch_with_index.h>
#include <rocksdb/write_batch.h>

#include <atomic>
#include <bit>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <string_view>

namespace crawl::queueserver {
namespace {

// Column family names, in the order of the handles kept in Impl::cf.
enum Cf { kMeta, kSeen, kQueue, kWaiting, kOrigins, kLeases, kLog, kBatches, kClds, kOpic,
          kDocs, kDocMap, kPostings, kTerms, kStructure, kTiers, kCfCount };
const char* const kCfNames[kCfCount] = {"meta", "seen",  "queue", "waiting", "origins", "leases",  "log",
                                        "batches", "clds", "opic",  "docs",    "doc_map", "postings", "terms",
                                        "structure", "tiers"};
// The index families' block cache (postings, doc map, summaries, terms); the
// other families share Options::block_cache_bytes.
constexpr size_t kIndexBlockCacheBytes = 128u << 20;
Cf IndexCf(IndexFamily f) {
  switch (f) {
    case IndexFamily::kDocs: return kDocs;
    case IndexFamily::kDocMap: return kDocMap;
    case IndexFamily::kPostings: return kPostings;
    case IndexFamily::kTerms: return kTerms;
  }
  return kDocs;
}

Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::Ok();
  return Status::IoError(what + ": " + s.ToString());
}

// ---- encoding: fixed-width big-endian numbers, u32-length-prefixed strings.

void PutU64(std::string* out, uint64_t v) {
  for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutU32(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutStr(std::string* out, std::string_view s) {
  PutU32(out, static_cast<uint32_t>(s.size()));
  out->append(s);
}

class Reader {
 public:
  explicit Reader(std::string_view d) : d_(d) {}
  bool U64(uint64_t* v) {
    if (d_.size() < 8) return false;
    *v = 0;
    for (int i = 0; i < 8; ++i) *v = (*v << 8) | static_cast<uint8_t>(d_[i]);
    d_.remove_prefix(8);
    return true;
  }
  bool U32(uint32_t* v) {
    if (d_.size() < 4) return false;
    *v = 0;
    for (int i = 0; i < 4; ++i) *v = (*v << 8) | static_cast<uint8_t>(d_[i]);
    d_.remove_prefix(4);
    return true;
  }
  bool Str(std::string* s) {
    uint32_t n = 0;
    if (!U32(&n) || d_.size() < n) return false;
    s->assign(d_.substr(0, n));
    d_.remove_prefix(n);
    return true;
  }
  [[nodiscard]] bool done() const { return d_.empty(); }

 private:
  std::string_view d_;
};

uint64_t ReadU64(std::string_view d) {
  uint64_t v = 0;
  Reader r(d);
  (void)r.U64(&v);
  return v;
}

void PutF64(std::string* out, double v) { PutU64(out, std::bit_cast<uint64_t>(v)); }

// Order-preserving bits of a double, descending: the best (highest) sort
// value has the smallest key.
uint64_t DescendingBits(double d) {
  const uint64_t sign = uint64_t{1} << 63;
  const uint64_t b = std::bit_cast<uint64_t>(d);
  const uint64_t ascending = (b & sign) ? ~b : (b | sign);
  return ~ascending;
}
double FromDescendingBits(uint64_t desc) {
  const uint64_t sign = uint64_t{1} << 63;
  const uint64_t ascending = ~desc;
  return std::bit_cast<double>((ascending & sign) ? (ascending & ~sign) : ~ascending);
}

// url, referrer, depth, weight, tier, cash, retries, then the kind byte.
void AppendEntry(std::string* out, const FrontierEntry& e) {
  PutStr(out, e.url);
  PutStr(out, e.referrer);
  PutU32(out, e.depth);
  PutU32(out, e.weight);
  PutU32(out, static_cast<uint32_t>(e.tier));
  PutF64(out, e.cash);
  PutU32(out, e.retries);
  out->push_back(e.kind == UrlKind::kRobots ? 'R' : 'P');
}
std::string EncodeEntry(const FrontierEntry& e) {
  std::string out;
  out.reserve(e.url.size() + e.referrer.size() + 33);
  AppendEntry(&out, e);
  return out;
}
// AppendEntry with its length first (PutStr of the encoded entry, without
// the intermediate string).
void AppendSizedEntry(std::string* out, const FrontierEntry& e) {
  const size_t at = out->size();
  PutU32(out, 0);
  AppendEntry(out, e);
  const auto n = static_cast<uint32_t>(out->size() - at - 4);
  for (int i = 0; i < 4; ++i) (*out)[at + static_cast<size_t>(i)] = static_cast<char>((n >> (8 * (3 - i))) & 0xff);
}

bool DecodeEntry(std::string_view d, FrontierEntry* e) {
  Reader r(d.substr(0, d.empty() ? 0 : d.size() - 1));
  uint32_t tier = 0;
  uint64_t cash = 0;
  if (d.empty() || !r.Str(&e->url) || !r.Str(&e->referrer) || !r.U32(&e->depth)) return false;
  // Entries written before the crawl orders end here (no order data).
  if (!r.done() && (!r.U32(&e->weight) || !r.U32(&tier) || !r.U64(&cash) || !r.U32(&e->retries) || !r.done()))
    return false;
  e->tier = static_cast<int32_t>(tier);
  e->cash = std::bit_cast<double>(cash);
  e->kind = d.back() == 'R' ? UrlKind::kRobots : UrlKind::kPage;
  return true;
}

std::string EncodeCld(const CldStats& c) {
  std::string out;
  PutU64(&out, c.seen);
  PutF64(&out, c.wseen);
  PutF64(&out, c.win);
  return out;
}

bool DecodeCld(std::string_view d, CldStats* c) {
  Reader r(d);
  uint64_t wseen = 0, win = 0;
  if (!r.U64(&c->seen) || !r.U64(&wseen) || !r.U64(&win) || !r.done()) return false;
  c->wseen = std::bit_cast<double>(wseen);
  c->win = std::bit_cast<double>(win);
  return true;
}

std::string EncodeOrigin(const OriginRecord& o) {
  std::string out;
  PutU32(&out, static_cast<uint32_t>(o.robots));
  PutU32(&out, static_cast<uint32_t>(o.robots_failures));
  PutU64(&out, static_cast<uint64_t>(o.robots_retry_at_ms));
  PutU32(&out, o.retry_pending ? 1 : 0);
  PutStr(&out, o.rules.Serialize());
  PutU32(&out, o.failures);
  PutU64(&out, static_cast<uint64_t>(o.backoff_until_ms));
  PutU32(&out, (o.parked ? 1u : 0u) | (o.error_delayed ? 2u : 0u));
  return out;
}

bool DecodeOrigin(std::string_view d, OriginRecord* o) {
  Reader r(d);
  uint32_t state = 0, failures = 0, pending = 0, host_failures = 0, flags = 0;
  uint64_t retry_at = 0, backoff_until = 0;
  std::string rules;
  if (!r.U32(&state) || !r.U32(&failures) || !r.U64(&retry_at) || !r.U32(&pending) || !r.Str(&rules) || state > 2)
    return false;
  // Records written before host back-off end here.
  if (!r.done() && (!r.U32(&host_failures) || !r.U64(&backoff_until) || !r.U32(&flags) || !r.done())) return false;
  o->failures = host_failures;
  o->backoff_until_ms = static_cast<int64_t>(backoff_until);
  o->parked = (flags & 1u) != 0;
  o->error_delayed = (flags & 2u) != 0;
  auto parsed = robots::RobotsRules::Deserialize(rules);
  if (!parsed.ok()) return false;
  o->robots = static_cast<RobotsState>(state);
  o->robots_failures = static_cast<int>(failures);
  o->robots_retry_at_ms = static_cast<int64_t>(retry_at);
  o->retry_pending = pending != 0;
  o->rules = std::move(*parsed);
  return true;
}

std::string EncodeLease(const LeaseRecord& l) {
  std::string out;
  PutStr(&out, l.fetcher_id);
  PutU64(&out, static_cast<uint64_t>(l.deadline_ms));
  PutU32(&out, static_cast<uint32_t>(l.origins.size()));
  for (const auto& o : l.origins) PutStr(&out, o);
  return out;
}

bool DecodeLease(std::string_view d, LeaseRecord* l) {
  Reader r(d);
  uint64_t deadline = 0;
  uint32_t n = 0;
  if (!r.Str(&l->fetcher_id) || !r.U64(&deadline) || !r.U32(&n)) return false;
  l->deadline_ms = static_cast<int64_t>(deadline);
  for (uint32_t i = 0; i < n; ++i) {
    if (!r.Str(&l->origins.emplace_back())) return false;
  }
  return r.done();
}

// Tier numbers sort as signed integers.
void PutTier(std::string* out, int32_t tier) { PutU32(out, static_cast<uint32_t>(tier) ^ 0x80000000u); }
int32_t ReadTier(std::string_view d) {
  uint32_t v = 0;
  Reader r(d);
  (void)r.U32(&v);
  return static_cast<int32_t>(v ^ 0x80000000u);
}

// Records of one lease under id schedule(8): the header, its entries (one
// key per URL in older stores; one record of them all now), and a mark per
// URL reported done while the lease stays open.
constexpr char kLeaseHeader = '\0';
constexpr char kLeaseUrl = '\1';
constexpr char kLeaseEntries = '\2';
constexpr char kLeaseDone = '\3';

// Appends the records of the write batch `src` (its representation) to the
// representation `rep` and fixes the record count in rep's header (RocksDB's
// WriteBatch layout: sequence number (8 bytes), count (4, little-endian),
// then the records; what WriteBatchInternal::Append does).
void AppendBatch(std::string* rep, const rocksdb::WriteBatch& src) {
  constexpr size_t kHeader = 12;
  if (src.Count() == 0) return;
  uint32_t count = 0;
  for (int i = 0; i < 4; ++i) count |= uint32_t{static_cast<uint8_t>((*rep)[8 + i])} << (8 * i);
  count += src.Count();
  for (int i = 0; i < 4; ++i) (*rep)[8 + i] = static_cast<char>((count >> (8 * i)) & 0xff);
  rep->append(src.Data(), kHeader, std::string::npos);
}

std::string Prefix(uint64_t crawl_id) {
  std::string p;
  PutU64(&p, crawl_id);
  return p;
}

Status Corrupt(const char* what, std::string_view key) {
  return Status::Internal(std::string("corrupt ") + what + " record (key of " + std::to_string(key.size()) +
                          " bytes)");
}

}  // namespace

// ---------------------------------------------------------------------------

struct QueueStore::Impl {
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> cf;  // owned; destroyed before db
  rocksdb::WriteOptions write_options;
  std::atomic<bool> fail_writes{false};

  ~Impl() {
    for (auto* h : cf) {
      if (h && db) (void)db->DestroyColumnFamilyHandle(h);
    }
    if (db) (void)db->Close();
  }

  // Visits every key of `family` that starts with `prefix`, in key order.
  template <typename F>
  Status Scan(Cf family, const std::string& prefix, F&& visit) const {
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), cf[family]));
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      const rocksdb::Slice k = it->key();
      const rocksdb::Slice v = it->value();
      Status s = visit(std::string_view(k.data(), k.size()), std::string_view(v.data(), v.size()));
      if (!s.ok()) return s;
    }
    return FromRocks(it->status(), std::string("reading ") + kCfNames[family]);
  }
};

QueueStore::QueueStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
QueueStore::~QueueStore() = default;

Result<std::unique_ptr<QueueStore>> QueueStore::Open(const std::string& dir, Options options) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError("cannot create " + dir + ": " + ec.message());
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  db_options.max_background_jobs = 2;
  // The vector memtables below do not take concurrent writers (we have one
  // writer per request anyway).
  db_options.allow_concurrent_memtable_write = false;
  db_options.db_write_buffer_size = options.memtable_bytes;
  rocksdb::BlockBasedTableOptions table_options;
  table_options.block_cache = rocksdb::NewLRUCache(options.block_cache_bytes);
  std::shared_ptr<rocksdb::TableFactory> table_factory(rocksdb::NewBlockBasedTableFactory(table_options));
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  const std::shared_ptr<rocksdb::Cache> index_cache = rocksdb::NewLRUCache(kIndexBlockCacheBytes);
  families.emplace_back(rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions());
  for (int cf = 0; cf < kCfCount; ++cf) {
    rocksdb::ColumnFamilyOptions cf_options;
    cf_options.table_factory = table_factory;
    // Write-mostly families (the URL-seen set, the queues, the crawl log):
    // nothing reads them by key while the process runs (the in-memory
    // frontier answers), only a full scan at start-up. A vector memtable
    // appends in O(1) and sorts once at flush; the default skip list spent
    // a third of link ingest finding insert positions.
    if (cf == kSeen || cf == kQueue || cf == kLog) cf_options.memtable_factory.reset(new rocksdb::VectorRepFactory());
    // The tier queues are read by range, so they keep the skip list; but
    // each tier is written in ascending sequence numbers (pushes at the
    // back, erases at the head), so a per-tier insert hint (prefix: crawl
    // id, 'T', tier) saves most of the search for each insert position.
    if (cf == kTiers)
      cf_options.memtable_insert_with_hint_prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(8 + 1 + 4));
    // The index families are read at query time (and doc ids probed at
    // indexing): bloom filters make misses cheap, and one bounded block
    // cache serves them all.
    if (cf == kDocs || cf == kDocMap || cf == kPostings || cf == kTerms) {
      rocksdb::BlockBasedTableOptions table;
      table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
      table.block_cache = index_cache;
      cf_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    }
    families.emplace_back(kCfNames[cf], cf_options);
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, dir, families, &handles, &raw);
  if (!s.ok()) return FromRocks(s, "opening queue store " + dir);
  auto impl = std::make_unique<Impl>();
  impl->db.reset(raw);
  // handles[0] is the default family, which we do not use.
  (void)raw->DestroyColumnFamilyHandle(handles[0]);
  impl->cf.assign(handles.begin() + 1, handles.end());
  impl->write_options.sync = options.sync;
  impl->write_options.disableWAL = false;
  return std::unique_ptr<QueueStore>(new QueueStore(std::move(impl)));
}

void QueueStore::FailWritesForTest(bool fail) { impl_->fail_writes = fail; }

Result<std::vector<uint64_t>> QueueStore::ListCrawls() const {
  std::vector<uint64_t> ids;
  Status s = impl_->Scan(kMeta, "", [&](std::string_view k, std::string_view) {
    if (k.size() == 9 && k[8] == 'i') ids.push_back(ReadU64(k));
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return ids;
}

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
  // Pages in the single FIFO of older stores ('P' keys) move to the tier
  // queues, counts included, in one atomic write; the rest of Load then
  // reads the new layout. The structure order still journals its pages
  // there: they are its queue and load into `ready`.
  rocksdb::WriteBatch migrate;
  std::map<int32_t, uint64_t> moved;
  const auto order = ParseOrder(image.crawl.params().order());
  const bool tiered = order.ok() && *order == OrderKind::kHostBudget;
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
      if (structure) {  // the structure order keeps its page queue here
        f.ready.push_back(std::move(e));
        return Status::Ok();
      }
      const int32_t tier = tiered ? e.entry.tier : 0;
      std::string tk = p + "T";
      PutTier(&tk, tier);
      PutU64(&tk, e.seq);
      (void)migrate.Put(impl_->cf[kTiers], tk, std::string(v));
      (void)migrate.Delete(impl_->cf[kQueue], std::string(k));
      ++moved[tier];
      return Status::Ok();
    });
  }
  if (s.ok() && !moved.empty()) {
    for (const auto& [tier, count] : moved) {
      std::string ck = p + "C";
      PutTier(&ck, tier);
      std::string old;
      uint64_t base = 0;
      rs = db.Get(rocksdb::ReadOptions(), impl_->cf[kTiers], ck, &old);
      if (!rs.ok() && !rs.IsNotFound()) return FromRocks(rs, "reading tier counts");
      if (rs.ok()) base = ReadU64(old);
      std::string v;
      PutU64(&v, base + count);
      (void)migrate.Put(impl_->cf[kTiers], ck, v);
    }
    s = FromRocks(db.Write(impl_->write_options, &migrate), "moving the page queue to tiers");
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

// ---------------------------------------------------------------------------

struct ShardWriter::Impl {
  QueueStore::Impl* store = nullptr;
  std::string prefix;
  // Indexed so the opic order and the search index read their own
  // uncommitted writes (a point lookup per link for opic).
  rocksdb::WriteBatchWithIndex batch{rocksdb::BytewiseComparator(), 0, /*overwrite_key=*/true};
  // Every other family: nothing reads it back before Commit, so its writes
  // skip the index (a skip-list insert per key was most of the cost of a
  // lease: one tier erase and one lease entry per URL).
  rocksdb::WriteBatch plain;
  // The tier queues, also unindexed: they are read back (TierRead) only
  // when a window runs dry, so the index of this batch's tier writes is
  // built then, from the records not yet in it (IndexTierOps).
  rocksdb::WriteBatch tier_ops;
  rocksdb::WriteBatchWithIndex tier_index{rocksdb::BytewiseComparator(), 0, /*overwrite_key=*/true};
  uint32_t tier_ops_indexed = 0;
  // URLs reported done per open lease, written at Commit unless the lease
  // closes first (its range delete covers them).
  std::map<uint64_t, std::vector<std::string>> lease_done;
  // A failed read (opic) fails the next Commit, so the request is refused
  // whole and the shard reloaded.
  Status read_error;
  // The order's scalars and the CLD statistics, written once at Commit
  // (orders note them often).
  std::unordered_map<std::string, CldStats> clds;
  std::string order_state;
  // New URL-seen hashes of this batch (8 bytes each), one record at Commit
  // under the next seen-record number (read from the store on first use).
  std::string seen;
  std::optional<uint64_t> next_seen_record;
  bool order_state_set = false;
  // Tier entry counts: committed (loaded on first use) and this batch's changes.
  std::map<int32_t, uint64_t> tier_counts;
  bool tier_counts_loaded = false;
  std::map<int32_t, int64_t> tier_delta;

  rocksdb::ColumnFamilyHandle* cf(Cf c) const { return store->cf[c]; }
  std::string Key(std::string_view rest) const { return prefix + std::string(rest); }
  std::string QueueKey(QueueKind q, uint64_t seq) const {
    std::string k = prefix;
    k.push_back(q == QueueKind::kRobots ? 'R' : 'P');
    PutU64(&k, seq);
    return k;
  }
  std::string WaitKey(const std::string& origin, uint64_t seq) const {
    std::string k = prefix + origin;
    k.push_back('\0');
    PutU64(&k, seq);
    return k;
  }
  std::string LeaseKey(uint64_t id, char tag, std::string_view url = {}) const {
    std::string k = prefix;
    PutU64(&k, id);
    k.push_back(tag);
    k.append(url);
    return k;
  }
  static bool Indexed(Cf c) { return c == kOpic || c == kDocs || c == kDocMap || c == kPostings || c == kTerms; }
  void Put(Cf c, const std::string& k, const std::string& v) {
    if (Indexed(c)) {
      (void)batch.Put(cf(c), k, v);
    } else if (c == kTiers) {
      (void)tier_ops.Put(cf(c), k, v);
    } else {
      (void)plain.Put(cf(c), k, v);
    }
  }
  void Delete(Cf c, const std::string& k) {
    if (Indexed(c)) {
      (void)batch.Delete(cf(c), k);
    } else if (c == kTiers) {
      (void)tier_ops.Delete(cf(c), k);
    } else {
      (void)plain.Delete(cf(c), k);
    }
  }
  // Records in the three batches together.
  [[nodiscard]] uint32_t Count() { return batch.GetWriteBatch()->Count() + plain.Count() + tier_ops.Count(); }
  void Clear() {
    batch.Clear();
    plain.Clear();
    tier_ops.Clear();
    tier_index.Clear();
    tier_ops_indexed = 0;
    lease_done.clear();
  }
  // Brings tier_index up to date with tier_ops, so reads see this batch's
  // tier writes. Returns the iterator a reader merges over the store.
  rocksdb::Iterator* TierIterator() {
    rocksdb::ColumnFamilyHandle* tiers = cf(kTiers);
    if (tier_ops.Count() > tier_ops_indexed) {
      struct Indexer : rocksdb::WriteBatch::Handler {
        rocksdb::WriteBatchWithIndex* index;
        rocksdb::ColumnFamilyHandle* family;
        uint32_t skip;
        rocksdb::Status PutCF(uint32_t, const rocksdb::Slice& k, const rocksdb::Slice& v) override {
          if (skip > 0) {
            --skip;
          } else {
            (void)index->Put(family, k, v);
          }
          return rocksdb::Status::OK();
        }
        rocksdb::Status DeleteCF(uint32_t, const rocksdb::Slice& k) override {
          if (skip > 0) {
            --skip;
          } else {
            (void)index->Delete(family, k);
          }
          return rocksdb::Status::OK();
        }
      } indexer;
      indexer.index = &tier_index;
      indexer.family = tiers;
      indexer.skip = tier_ops_indexed;
      NoteRead(tier_ops.Iterate(&indexer), "indexing tier writes");
      tier_ops_indexed = tier_ops.Count();
    }
    return tier_index.NewIteratorWithBase(tiers, store->db->NewIterator(rocksdb::ReadOptions(), tiers));
  }
  // opic: prefix 'Q' sort(8, descending) seq(8) -> entry; prefix 'H' hash(8) -> sort(8) seq(8).
  std::string OpicQueueKey(const OpicKey& key) const {
    std::string k = prefix;
    k.push_back('Q');
    PutU64(&k, DescendingBits(key.sort));
    PutU64(&k, key.seq);
    return k;
  }
  std::string OpicHashKey(uint64_t hash) const {
    std::string k = prefix;
    k.push_back('H');
    PutU64(&k, hash);
    return k;
  }
  std::string TierKey(char kind, int32_t tier) const {
    std::string k = prefix;
    k.push_back(kind);
    PutTier(&k, tier);
    return k;
  }
  std::string TierEntryKey(int32_t tier, uint64_t seq) const {
    std::string k = TierKey('T', tier);
    PutU64(&k, seq);
    return k;
  }
  void LoadTierCounts() {
    if (tier_counts_loaded) return;
    const std::string p = prefix + "C";
    std::unique_ptr<rocksdb::Iterator> it(store->db->NewIterator(rocksdb::ReadOptions(), cf(kTiers)));
    for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
      const std::string_view k(it->key().data(), it->key().size());
      if (k.size() != p.size() + 4 || it->value().size() != 8) {
        if (read_error.ok()) read_error = Corrupt("tier count", k);
        continue;
      }
      tier_counts[ReadTier(k.substr(p.size()))] = ReadU64(std::string_view(it->value().data(), 8));
    }
    NoteRead(it->status(), "reading tier counts");
    tier_counts_loaded = true;
  }
  void NoteRead(const rocksdb::Status& s, const char* what) {
    if (!s.ok() && !s.IsNotFound() && read_error.ok()) read_error = FromRocks(s, what);
  }
};

ShardWriter::ShardWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ShardWriter::~ShardWriter() = default;

std::unique_ptr<ShardWriter> QueueStore::NewWriter(uint64_t crawl_id) {
  auto impl = std::make_unique<ShardWriter::Impl>();
  impl->store = impl_.get();
  impl->prefix = Prefix(crawl_id);
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

void ShardWriter::AddAppliedBatch(const std::string& key) { impl_->Put(kBatches, impl_->Key(key), ""); }
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

void ShardWriter::PutIndex(IndexFamily family, const std::string& key, const std::string& value) {
  impl_->Put(IndexCf(family), impl_->Key(key), value);
}

Status ShardWriter::GetIndex(IndexFamily family, const std::string& key, std::string* value) {
  auto s = impl_->batch.GetFromBatchAndDB(impl_->store->db.get(), rocksdb::ReadOptions(), impl_->cf(IndexCf(family)),
                                          impl_->Key(key), value);
  if (s.IsNotFound()) return Status::NotFound("no index record");
  return FromRocks(s, std::string("reading ") + kCfNames[IndexCf(family)]);
}

Status ShardWriter::ScanIndex(IndexFamily family, const std::string& prefix,
                              const std::function<bool(std::string_view, std::string_view)>& visit) {
  rocksdb::ColumnFamilyHandle* cf = impl_->cf(IndexCf(family));
  const std::string p = impl_->Key(prefix);
  std::unique_ptr<rocksdb::Iterator> it(
      impl_->batch.NewIteratorWithBase(cf, impl_->store->db->NewIterator(rocksdb::ReadOptions(), cf)));
  const size_t n = impl_->prefix.size();
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
    const rocksdb::Slice k = it->key();
    const rocksdb::Slice v = it->value();
    if (!visit(std::string_view(k.data() + n, k.size() - n), std::string_view(v.data(), v.size()))) break;
  }
  return FromRocks(it->status(), std::string("reading ") + kCfNames[IndexCf(family)]);
}

namespace {
// Reads the index families at a RocksDB snapshot (released with it), the
// writer's pending index writes at the time laid over it.
class StoreIndexSnapshot final : public IndexSnapshot {
 public:
  StoreIndexSnapshot(rocksdb::DB* db, std::vector<rocksdb::ColumnFamilyHandle*> cfs, std::string prefix,
                     std::map<std::pair<int, std::string>, std::optional<std::string>> overlay)
      : db_(db), snapshot_(db->GetSnapshot()), cfs_(std::move(cfs)), prefix_(std::move(prefix)),
        overlay_(std::move(overlay)) {}
  ~StoreIndexSnapshot() override { db_->ReleaseSnapshot(snapshot_); }
  StoreIndexSnapshot(const StoreIndexSnapshot&) = delete;
  StoreIndexSnapshot& operator=(const StoreIndexSnapshot&) = delete;

  Status GetIndex(IndexFamily family, const std::string& key, std::string* value) const override {
    if (!overlay_.empty()) {
      auto it = overlay_.find({static_cast<int>(family), key});
      if (it != overlay_.end()) {
        if (!it->second) return Status::NotFound("no index record");
        *value = *it->second;
        return Status::Ok();
      }
    }
    rocksdb::ReadOptions ro;
    ro.snapshot = snapshot_;
    auto s = db_->Get(ro, cfs_[static_cast<int>(family)], prefix_ + key, value);
    if (s.IsNotFound()) return Status::NotFound("no index record");
    return FromRocks(s, "reading the index");
  }

 private:
  rocksdb::DB* db_;
  const rocksdb::Snapshot* snapshot_;
  std::vector<rocksdb::ColumnFamilyHandle*> cfs_;  // by IndexFamily
  std::string prefix_;
  std::map<std::pair<int, std::string>, std::optional<std::string>> overlay_;
};
}  // namespace

std::shared_ptr<const IndexSnapshot> ShardWriter::SnapshotIndex() {
  constexpr IndexFamily kFamilies[] = {IndexFamily::kDocs, IndexFamily::kDocMap, IndexFamily::kPostings,
                                       IndexFamily::kTerms};
  std::vector<rocksdb::ColumnFamilyHandle*> cfs;
  std::map<std::pair<int, std::string>, std::optional<std::string>> overlay;
  const bool pending = impl_->batch.GetWriteBatch()->Count() > 0;
  for (IndexFamily f : kFamilies) {
    cfs.push_back(impl_->cf(IndexCf(f)));
    if (!pending) continue;
    std::unique_ptr<rocksdb::WBWIIterator> it(impl_->batch.NewIterator(cfs.back()));
    const size_t n = impl_->prefix.size();
    for (it->Seek(impl_->prefix); it->Valid(); it->Next()) {
      const rocksdb::WriteEntry e = it->Entry();
      if (!e.key.starts_with(impl_->prefix)) break;
      std::string key(e.key.data() + n, e.key.size() - n);
      if (e.type == rocksdb::kPutRecord) {
        overlay[{static_cast<int>(f), std::move(key)}] = e.value.ToString();
      } else if (e.type == rocksdb::kDeleteRecord || e.type == rocksdb::kSingleDeleteRecord) {
        overlay[{static_cast<int>(f), std::move(key)}] = std::nullopt;
      }
    }
  }
  return std::make_shared<StoreIndexSnapshot>(impl_->store->db.get(), std::move(cfs), impl_->prefix,
                                              std::move(overlay));
}

Status ShardWriter::WriteIndexNow(const std::vector<Put>& puts, IndexFamily erase_family,
                                  const std::string& erase_from, const std::string& erase_to) {
  if (impl_->store->fail_writes) return Status::IoError("queue store: write failed (injected by a test)");
  rocksdb::WriteBatch batch;
  for (const Put& p : puts) (void)batch.Put(impl_->cf(IndexCf(p.family)), impl_->Key(p.key), p.value);
  if (!erase_from.empty())
    (void)batch.DeleteRange(impl_->cf(IndexCf(erase_family)), impl_->Key(erase_from), impl_->Key(erase_to));
  return FromRocks(impl_->store->db->Write(impl_->store->write_options, &batch), "queue store index write");
}

Status ShardWriter::Commit() {
  Impl& m = *impl_;
  if (m.order_state_set) m.Put(kMeta, m.Key("o"), m.order_state);
  m.order_state_set = false;
  for (const auto& [cld, stats] : m.clds) m.Put(kClds, m.Key(cld), EncodeCld(stats));
  m.clds.clear();
  const bool wrote_seen = !m.seen.empty();
  if (wrote_seen) {
    if (!m.next_seen_record) {
      const std::string p = m.prefix + "B";
      std::string last = p + std::string(8, '\xff');
      std::unique_ptr<rocksdb::Iterator> it(m.store->db->NewIterator(rocksdb::ReadOptions(), m.cf(kSeen)));
      it->SeekForPrev(last);
      m.next_seen_record = 0;
      if (it->Valid() && it->key().starts_with(p) && it->key().size() == p.size() + 8)
        m.next_seen_record = ReadU64(std::string_view(it->key().data() + p.size(), 8)) + 1;
      m.NoteRead(it->status(), "reading the URL-seen set");
    }
    std::string k = m.prefix + "B";
    PutU64(&k, *m.next_seen_record);
    m.Put(kSeen, k, m.seen);
    m.seen.clear();
  }
  std::map<int32_t, uint64_t> counts;  // tier counts after this batch
  if (!m.tier_delta.empty()) {
    m.LoadTierCounts();
    for (const auto& [tier, delta] : m.tier_delta) {
      if (delta == 0) continue;
      const uint64_t c = static_cast<uint64_t>(static_cast<int64_t>(m.tier_counts[tier]) + delta);
      counts[tier] = c;
      std::string v;
      PutU64(&v, c);
      if (c == 0) {
        m.Delete(kTiers, m.TierKey('C', tier));
      } else {
        m.Put(kTiers, m.TierKey('C', tier), v);
      }
    }
    m.tier_delta.clear();
  }
  for (const auto& [id, urls] : m.lease_done) {
    for (const std::string& u : urls) m.Put(kLeases, m.LeaseKey(id, kLeaseDone, u), "");
  }
  m.lease_done.clear();
  Status s = impl_->read_error;
  impl_->read_error = Status::Ok();
  if (m.Count() == 0) return s;
  if (s.ok() && impl_->store->fail_writes) {
    s = Status::IoError("queue store: write failed (injected by a test)");
  } else if (s.ok()) {
    // One atomic write of the three batches (they touch disjoint families,
    // so their order does not matter).
    const rocksdb::WriteBatch* indexed = m.batch.GetWriteBatch();
    rocksdb::Status rs;
    if (m.tier_ops.Count() == 0 && indexed->Count() == 0) {
      rs = m.store->db->Write(m.store->write_options, &m.plain);
    } else if (m.plain.Count() == 0 && indexed->Count() == 0) {
      rs = m.store->db->Write(m.store->write_options, &m.tier_ops);
    } else {
      std::string rep = m.plain.Data();
      AppendBatch(&rep, m.tier_ops);
      AppendBatch(&rep, *indexed);
      rocksdb::WriteBatch all(std::move(rep));
      rs = m.store->db->Write(m.store->write_options, &all);
    }
    s = FromRocks(rs, "queue store write");
  }
  m.Clear();
  if (s.ok()) {
    for (const auto& [tier, c] : counts) m.tier_counts[tier] = c;
    if (m.next_seen_record && wrote_seen) ++*m.next_seen_record;
  }
  return s;
}

void ShardWriter::Discard() {
  impl_->Clear();
  impl_->read_error = Status::Ok();
  impl_->order_state_set = false;
  impl_->tier_delta.clear();
  impl_->clds.clear();
  impl_->seen.clear();
}

size_t ShardWriter::pending() const {
  // A read error counts as a change, so the next Commit reports it.
  return static_cast<size_t>(impl_->Count()) + (impl_->read_error.ok() ? 0 : 1) +
         (impl_->order_state_set ? 1 : 0) + impl_->clds.size() + impl_->seen.size() / 8 + impl_->lease_done.size();
}

}  // namespace crawl::queueserver
