// Queue store (queueserver/store/queue_store.h) and durable CrawlShard: what one
// process wrote comes back in the next one, a failed commit leaves nothing
// behind, and an older store's records load. The order's state and the
// crawl log: queue_store_order_test.cc.
#include "queueserver/store/queue_store.h"

#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/utilities/options_util.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <set>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "tests/unit/queueserver/queue_store_test_util.h"
#include "tests/unit/support/temp_dir.h"

using Catch::Detail::Approx;
using crawl::ManualClock;
using crawl::queueserver::CrawlShard;
using crawl::queueserver::QueueStore;

using crawl::test_support::TempDir;
using namespace crawl::queueserver::store_test;  // NOLINT: the tests' helpers

TEST_CASE("queue store: a shard comes back whole after the store is closed and reopened", "[unit]") {
  g_order = GENERATE(std::string("bfs"), std::string("host_budget"), std::string("opic"));
  INFO("order " << g_order);
  TempDir dir;
  ManualClock clock;
  // A twin kept in memory the whole time: the reloaded shard must behave
  // exactly like it.
  auto twin = NewShard(nullptr, &clock);
  const uint64_t open_twin = Drive(*twin);
  uint64_t open = 0;
  crawl::v1::QueueServerStats before;
  std::vector<std::string> log_before;
  {
    auto store = OpenStore(dir);
    auto shard = NewShard(store.get(), &clock);
    open = Drive(*shard);
    before = Stats(*shard);
    log_before = Log(*shard);
  }  // store closed, as after a crash everything is in the log files
  REQUIRE(open == open_twin);

  auto store = OpenStore(dir);
  auto ids = store->ListCrawls();
  REQUIRE(ids.ok());
  CHECK(*ids == std::vector<uint64_t>{42});
  auto shard = Reload(store.get(), &clock);

  // Counters, seen set, queue, waiting pages, leases, log.
  const auto after = Stats(*shard);
  CHECK(after.DebugString() == before.DebugString());
  CHECK(after.urls_seen() == 9);
  CHECK(after.leased_urls() == 2);
  CHECK(after.outstanding_schedules() == 1);
  CHECK(after.robots_disallowed() == 2);  // a.test/private/x and /private/y
  CHECK(Log(*shard) == log_before);
  CHECK(Log(*shard) == Log(*twin));
  // Pages of the log, read from disk, match the in-memory twin's, and the
  // last one says it is the end.
  for (uint64_t offset = 0; offset <= log_before.size(); ++offset) {
    crawl::v1::CrawlLogChunk disk, memory;
    REQUIRE(shard->ReadLog(offset, 2, &disk).ok());
    REQUIRE(twin->ReadLog(offset, 2, &memory).ok());
    CHECK(disk.DebugString() == memory.DebugString());
    CHECK(disk.records_size() == static_cast<int>(std::min<uint64_t>(2, log_before.size() - offset)));
    CHECK(disk.end() == (offset + 2 >= log_before.size()));
  }

  // The URL-seen set: links already seen are not accepted again.
  crawl::v1::AddUrlsRequest add;
  add.set_crawl_id(42);
  add.set_fetcher_id("g");
  add.set_batch_id("1");
  for (const char* u : {"http://a.test/2", "http://c.test/", "http://a.test/private/z", "http://a.test/5"}) {
    auto* l = add.add_links();
    l->set_url(u);
  }
  crawl::v1::AddUrlsResponse added, added_twin;
  REQUIRE(shard->AddUrls(add, &added).ok());
  REQUIRE(twin->AddUrls(add, &added_twin).ok());
  CHECK(added.accepted() == 2);
  // Robots rules: a.test's Disallow still applies.
  CHECK(Stats(*shard).robots_disallowed() == 3);

  // Applied batches: a retry of a batch applied before the restart is a duplicate.
  auto retry = Results(open, 0, false);
  AddRecord(&retry, "http://a.test/", 200);
  crawl::v1::SubmitResultsResponse dup;
  REQUIRE(shard->SubmitResults(retry, &dup).ok());
  CHECK(dup.duplicate());

  // The open lease: its fetcher finishes it after the restart.
  auto fin = Results(open, 1, true);
  AddRecord(&fin, "http://b.test/robots.txt", 404);
  AddRecord(&fin, "http://a.test/1", 200);
  crawl::v1::SubmitResultsResponse done;
  REQUIRE(shard->SubmitResults(fin, &done).ok());
  REQUIRE(twin->SubmitResults(fin, &done).ok());
  CHECK(Stats(*shard).leased_urls() == 0);

  // Queue order (pages and the released waiting pages of b.test and c.test's
  // robots.txt): the same schedules, in the same order, as the twin's.
  for (int i = 0; i < 4; ++i) {
    auto a = Lease(*shard, "f");
    auto b = Lease(*twin, "f");
    CHECK(Urls(a) == Urls(b));
    CHECK(a.schedule_id() == b.schedule_id());
  }
  CHECK(Stats(*shard).DebugString() == Stats(*twin).DebugString());
  g_order.clear();
}

TEST_CASE("queue store: order state (CLD statistics, tiers, opic cash) survives a restart", "[unit]") {
  using crawl::queueserver::OpicOrder;
  using crawl::queueserver::TieredOrder;
  g_order = GENERATE(std::string("host_budget"), std::string("opic"));
  INFO("order " << g_order);
  TempDir dir;
  ManualClock clock;
  auto twin = NewShard(nullptr, &clock);
  const uint64_t open_twin = Drive(*twin);
  {
    auto store = OpenStore(dir);
    auto shard = NewShard(store.get(), &clock);
    REQUIRE(Drive(*shard) == open_twin);
  }
  auto store = OpenStore(dir);
  auto shard = Reload(store.get(), &clock);
  if (g_order == "host_budget") {
    auto& a = dynamic_cast<const TieredOrder&>(shard->frontier().order());
    auto& b = dynamic_cast<const TieredOrder&>(twin->frontier().order());
    // a.test: seeds /, /1, /private/x and links /2 /3 /4 /private/y (ranks 0): SEEN 7.
    CHECK(a.Stats("a.test").seen == 7);
    CHECK(a.Stats("a.test") == b.Stats("a.test"));
    CHECK(a.Stats("c.test") == b.Stats("c.test"));
    CHECK(a.Stats("c.test").win > 0);  // linked from a.test
    for (int t = 0; t < 3; ++t) CHECK(a.TierSize(t) == b.TierSize(t));
  } else {
    auto& a = dynamic_cast<OpicOrder&>(shard->frontier().order());
    auto& b = dynamic_cast<OpicOrder&>(twin->frontier().order());
    CHECK(a.size() == b.size());
    CHECK(a.in_memory() == 0);  // filled on the first Pop
    CHECK(a.bonus() == b.bonus());
    CHECK(a.total_history() == b.total_history());
    CHECK(a.injected_total() == Approx(0.8));  // 4 of the 5 seeds (one is not a URL) at 1/5
    for (const char* u : {"http://a.test/2", "http://a.test/3", "http://a.test/4"}) {
      REQUIRE(a.CashOf(u));
      CHECK(*a.CashOf(u) == *b.CashOf(u));
    }
  }
  g_order.clear();
}

TEST_CASE("queue store: host back-off and error delay survive a restart", "[unit][policy]") {
  TempDir dir;
  ManualClock clock;
  uint64_t open = 0;
  crawl::queueserver::OriginRecord before;
  {
    auto store = OpenStore(dir);
    auto shard = NewShard(store.get(), &clock);
    open = Drive(*shard);
    auto fin = Results(open, 1, true);
    AddRecord(&fin, "http://b.test/robots.txt", 404);
    AddRecord(&fin, "http://a.test/1", 503);
    fin.mutable_records(1)->set_retry_after_seconds(9);
    auto* errors = fin.add_host_errors();
    errors->set_origin("http://a.test");
    errors->set_errors(51);
    crawl::v1::SubmitResultsResponse resp;
    REQUIRE(shard->SubmitResults(fin, &resp).ok());
    auto rec = shard->frontier().Origin("http://a.test");
    REQUIRE(rec);
    CHECK(rec->failures == 1);
    CHECK(rec->backoff_until_ms == clock.NowUnixMs() + 9000);
    CHECK(rec->error_delayed);
    before = *rec;
  }
  auto store = OpenStore(dir);
  auto shard = Reload(store.get(), &clock);
  auto rec = shard->frontier().Origin("http://a.test");
  REQUIRE(rec);
  CHECK(*rec == before);
  // The 503 page went back to the queue with its retry count: a.test waits
  // out its back-off, so the next schedule has only other hosts' URLs.
  auto next = Lease(*shard, "f");
  for (const auto& u : Urls(next)) CHECK(u.find("a.test") == std::string::npos);
  clock.Advance(std::chrono::seconds(9));
  bool found = false;
  for (int i = 0; i < 3 && !found; ++i) {
    auto s = Lease(*shard, "f");
    for (const auto& u : s.urls()) found = found || u.url() == "http://a.test/1";
  }
  CHECK(found);
}

TEST_CASE("host errors counted from the records: broken links do not crawl-delay a host, failures do",
          "[unit][policy]") {
  ManualClock clock;
  auto shard = NewShard(nullptr, &clock);
  std::vector<std::string> urls;
  for (int i = 0; i < 140; ++i) urls.push_back("http://a.test/" + std::to_string(i));
  SeedAndAllow(*shard, urls);
  auto submit = [&](int status, int first, int count) {
    auto s = Lease(*shard, "f");
    REQUIRE(s.urls_size() > 0);
    auto r = Results(s.schedule_id(), 0, true);  // no host_errors: the shard counts
    for (int i = first; i < first + count; ++i) AddRecord(&r, "http://a.test/" + std::to_string(i), status);
    crawl::v1::SubmitResultsResponse resp;
    REQUIRE(shard->SubmitResults(r, &resp).ok());
  };
  submit(404, 0, 60);  // 60 dead links in one schedule
  auto rec = shard->frontier().Origin("http://a.test");
  REQUIRE(rec);
  CHECK_FALSE(rec->error_delayed);
  submit(500, 60, 51);  // 51 server errors in one schedule
  rec = shard->frontier().Origin("http://a.test");
  REQUIRE(rec);
  CHECK(rec->error_delayed);
}

TEST_CASE("queue store: schedule ids are never reused after a restart", "[unit]") {
  TempDir dir;
  ManualClock clock;
  uint64_t last = 0;
  {
    auto store = OpenStore(dir);
    auto shard = NewShard(store.get(), &clock);
    last = Drive(*shard);
    // Expire the open lease so no lease names the last id any more.
    clock.Advance(std::chrono::seconds(61));
    REQUIRE(shard->Tick().ok());
    REQUIRE(Stats(*shard).outstanding_schedules() == 0);
  }
  auto store = OpenStore(dir);
  auto shard = Reload(store.get(), &clock);
  CHECK(Lease(*shard, "f").schedule_id() > last);
}

TEST_CASE("queue store: a failed commit leaves no partial state", "[unit]") {
  TempDir dir;
  ManualClock clock;
  auto store = OpenStore(dir);
  uint64_t open = 0;
  crawl::v1::QueueServerStats before;
  std::vector<std::string> log_before;
  {
    auto shard = NewShard(store.get(), &clock);
    open = Drive(*shard);
    before = Stats(*shard);
    log_before = Log(*shard);

    // A batch with records, new links and the end of the lease; the write fails.
    auto fin = Results(open, 1, true);
    AddRecord(&fin, "http://b.test/robots.txt", 404);
    AddRecord(&fin, "http://a.test/1", 200);
    AddLink(&fin, "http://d.test/");
    AddLink(&fin, "http://a.test/9");
    store->FailWritesForTest(true);
    crawl::v1::SubmitResultsResponse resp;
    CHECK_FALSE(shard->SubmitResults(fin, &resp).ok());
    store->FailWritesForTest(false);
  }
  // What the store holds is the state before the failed call, whole.
  auto shard = Reload(store.get(), &clock);
  CHECK(Stats(*shard).DebugString() == before.DebugString());
  CHECK(Log(*shard) == log_before);

  // And the batch can be applied again (it was not recorded as applied).
  auto fin = Results(open, 1, true);
  AddRecord(&fin, "http://b.test/robots.txt", 404);
  AddRecord(&fin, "http://a.test/1", 200);
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard->SubmitResults(fin, &resp).ok());
  CHECK_FALSE(resp.duplicate());
  CHECK(Stats(*shard).leased_urls() == 0);
}

TEST_CASE("queue store: oversized and malformed requests are refused whole", "[unit]") {
  TempDir dir;
  ManualClock clock;
  auto store = OpenStore(dir);
  auto shard = NewShard(store.get(), &clock);
  const uint64_t open = Drive(*shard);
  const auto before = Stats(*shard);

  auto big = Results(open, 1, false);
  for (int i = 0; i <= crawl::queueserver::kMaxRecordsPerRequest; ++i)
    AddRecord(&big, "http://a.test/1", 200);
  crawl::v1::SubmitResultsResponse resp;
  auto s = shard->SubmitResults(big, &resp);
  CHECK(s.code() == crawl::StatusCode::kInvalidArgument);

  auto long_id = Results(open, 1, false);
  long_id.set_fetcher_id(std::string(1000, 'x'));
  CHECK(shard->SubmitResults(long_id, &resp).code() == crawl::StatusCode::kInvalidArgument);

  // Invalid links are skipped and counted; the valid ones are taken.
  crawl::v1::AddUrlsRequest add;
  add.set_crawl_id(42);
  add.set_fetcher_id("g");
  add.set_batch_id("x");
  for (const char* u : {"::nonsense", "ftp://a.test/x", "http://a.test/ok"}) add.add_links()->set_url(u);
  crawl::v1::AddUrlsResponse added;
  REQUIRE(shard->AddUrls(add, &added).ok());
  CHECK(added.accepted() == 1);
  CHECK(shard->invalid_urls() == 3);  // two links and the seed "not a url"
  CHECK(Stats(*shard).urls_seen() == before.urls_seen() + 1);
}

namespace {

TEST_CASE("queue store: a lease survives a clock stepped across a restart, then expires on time", "[unit]") {
  TempDir dir;
  ManualClock clock;
  {
    auto store = OpenStore(dir);
    auto shard = NewShard(store.get(), &clock);
    REQUIRE(Drive(*shard) > 0);
    REQUIRE(Stats(*shard).outstanding_schedules() == 1);
  }
  // The queue server comes back on a machine whose clock is an hour ahead
  // of the one that granted the 60 s lease: the lease is still held, since
  // its fetcher may still be fetching (two fetchers on one host otherwise).
  clock.Advance(std::chrono::hours(1));
  auto store = OpenStore(dir);
  auto shard = Reload(store.get(), &clock);
  REQUIRE(shard->Tick().ok());
  CHECK(Stats(*shard).outstanding_schedules() == 1);
  // A lease period after the restart it expires as any lease does.
  clock.Advance(std::chrono::seconds(59));
  REQUIRE(shard->Tick().ok());
  CHECK(Stats(*shard).outstanding_schedules() == 1);
  clock.Advance(std::chrono::seconds(2));
  REQUIRE(shard->Tick().ok());
  CHECK(Stats(*shard).outstanding_schedules() == 0);
}

// The leases family opened directly, as a store of an older version left it.
struct RawLeases {
  explicit RawLeases(const TempDir& dir) {
    std::vector<std::string> names;
    REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir.path.string(), &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    for (const auto& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(rocksdb::DBOptions(), dir.path.string(), families, &handles, &raw).ok());
    db.reset(raw);
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == "leases") leases = handles[i];
    REQUIRE(leases != nullptr);
  }
  ~RawLeases() {
    for (auto* h : handles) (void)db->DestroyColumnFamilyHandle(h);
  }
  std::map<std::string, std::string> All() {
    std::map<std::string, std::string> out;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), leases));
    for (it->SeekToFirst(); it->Valid(); it->Next()) out[it->key().ToString()] = it->value().ToString();
    return out;
  }
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::ColumnFamilyHandle* leases = nullptr;
};

uint32_t BigEndian32(std::string_view d) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(d[static_cast<size_t>(i)]);
  return v;
}

}  // namespace

TEST_CASE(
    "queue store: a lease of an older store (one key per URL) loads, and its URLs are reported and closed",
    "[unit]") {
  TempDir dir;
  ManualClock clock;
  uint64_t open = 0;
  {
    auto store = OpenStore(dir);
    auto shard = NewShard(store.get(), &clock);
    open = Drive(*shard);  // 3 URLs leased, http://a.test/ reported
  }
  {
    // Rewrite the open lease in the old layout: id 0x01 url -> entry for the
    // URLs still outstanding, no entries record, no done marks.
    RawLeases raw(dir);
    rocksdb::WriteBatch b;
    int converted = 0;
    for (const auto& [k, v] : raw.All()) {
      const char tag = k[16];
      if (tag == '\2') {
        for (size_t at = 0; at < v.size();) {
          const uint32_t len = BigEndian32(std::string_view(v).substr(at));
          const std::string entry = v.substr(at + 4, len);
          const std::string url = entry.substr(4, BigEndian32(entry));
          at += 4 + len;
          if (url == "http://a.test/") continue;  // reported: the old store deleted its key
          (void)b.Put(raw.leases, k.substr(0, 16) + '\1' + url, entry);
          ++converted;
        }
      }
      if (tag == '\2' || tag == '\3') (void)b.Delete(raw.leases, k);
    }
    REQUIRE(converted == 2);
    REQUIRE(raw.db->Write(rocksdb::WriteOptions(), &b).ok());
  }
  {
    auto store = OpenStore(dir);
    auto shard = Reload(store.get(), &clock);
    CHECK(Stats(*shard).leased_urls() == 2);
    auto more = Results(open, 1, false);
    AddRecord(&more, "http://b.test/robots.txt", 404);
    crawl::v1::SubmitResultsResponse resp;
    REQUIRE(shard->SubmitResults(more, &resp).ok());
  }
  {
    auto store = OpenStore(dir);
    auto shard = Reload(store.get(), &clock);
    CHECK(Stats(*shard).leased_urls() == 1);  // the done mark covers the old-layout key
    auto fin = Results(open, 2, true);
    AddRecord(&fin, "http://a.test/1", 200);
    crawl::v1::SubmitResultsResponse resp;
    REQUIRE(shard->SubmitResults(fin, &resp).ok());
    CHECK(Stats(*shard).leased_urls() == 0);
  }
  {
    auto store = OpenStore(dir);
    auto shard = Reload(store.get(), &clock);
    CHECK(Stats(*shard).leased_urls() == 0);
    CHECK(Stats(*shard).outstanding_schedules() == 0);
  }
  RawLeases raw(dir);
  CHECK(raw.All().empty());  // closing deleted every record of the lease
}

TEST_CASE("a page budget set mid-crawl caps leases at once, before the name server shares it out", "[unit]") {
  // The name server re-shares the budget every poll round; until then (and
  // for as long as a name server restart takes) the new budget must hold.
  ManualClock clock;
  auto shard = NewShard(nullptr, &clock);
  std::vector<std::string> urls;
  for (int i = 1; i <= 6; ++i) urls.push_back("http://a.test/" + std::to_string(i));
  SeedAndAllow(*shard, urls);
  crawl::v1::SubmitResultsResponse resp;

  crawl::v1::CrawlInfo budgeted = Crawl();
  budgeted.mutable_params()->set_max_pages(2);
  budgeted.set_params_version(2);
  REQUIRE(shard->Update(budgeted).ok());
  auto first = Lease(*shard, "f");
  CHECK(first.urls_size() == 2);  // the schedule size is 3
  auto done = Results(first.schedule_id(), 0, true);
  for (const auto& u : first.urls()) AddRecord(&done, u.url(), 200);
  REQUIRE(shard->SubmitResults(done, &resp).ok());
  CHECK(Lease(*shard, "f").urls_size() == 0);  // budget spent

  // The budget lifted: leasing goes on.
  crawl::v1::CrawlInfo unlimited = Crawl();
  unlimited.set_params_version(3);
  REQUIRE(shard->Update(unlimited).ok());
  CHECK(Lease(*shard, "f").urls_size() == 3);
}

TEST_CASE("echoed referrer order data is taken only within what a queue server could send", "[unit]") {
  crawl::v1::DiscoveredLink link;
  link.set_url("http://b.test/x");
  link.set_referrer("http://a.test/");
  link.set_link_rank(3);
  link.set_links_on_page(9);
  link.set_referrer_order_known(true);
  link.set_referrer_tier(2);
  link.set_referrer_weight(4);
  link.set_referrer_cash(0.125);
  link.set_same_cld_links_on_page(5);
  const auto good = crawl::queueserver::LinkFromWire(link, "http://b.test/x", link.referrer());
  CHECK(good.referrer_known);
  CHECK(good.referrer_tier == 2);
  CHECK(good.referrer_weight == 4);
  CHECK(good.referrer_cash == 0.125);
  CHECK(good.same_cld_links_on_page == 5);
  CHECK(good.link_rank == 3);
  CHECK(good.links_on_page == 9);
  CHECK_FALSE(good.sent_elsewhere);
  for (double cash : {-1.0, std::nan(""), std::numeric_limits<double>::infinity(), 2e6}) {
    crawl::v1::DiscoveredLink bad = link;
    bad.set_referrer_cash(cash);
    CHECK_FALSE(crawl::queueserver::LinkFromWire(bad, "http://b.test/x", bad.referrer()).referrer_known);
  }
  for (int32_t tier : {-1, 1001}) {
    crawl::v1::DiscoveredLink bad = link;
    bad.set_referrer_tier(tier);
    CHECK_FALSE(crawl::queueserver::LinkFromWire(bad, "http://b.test/x", bad.referrer()).referrer_known);
  }
  link.set_referrer_order_known(false);
  CHECK_FALSE(crawl::queueserver::LinkFromWire(link, "http://b.test/x", link.referrer()).referrer_known);
}

TEST_CASE("queue store: postings tables are not compressed, page summaries are zstd blobs, the rest Snappy",
          "[unit]") {
  // Postings are varint gaps: Snappy barely shrinks them and costs CPU.
  // Page summaries live in blob files, compressed once; the docs tables
  // (link summaries, blob references) take LZ4 (docs/BENCHMARKS.md "Soak").
  // The options the store was opened with are the ones RocksDB wrote to its
  // OPTIONS file.
  TempDir dir;
  { auto store = OpenStore(dir); }
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  rocksdb::ConfigOptions config;
  REQUIRE(rocksdb::LoadLatestOptions(config, dir.path.string(), &db_options, &families).ok());
  std::map<std::string, rocksdb::ColumnFamilyOptions> options;
  for (const auto& f : families) options[f.name] = f.options;
  REQUIRE(options.count("postings") == 1);
  CHECK(options["postings"].compression == rocksdb::kNoCompression);
  CHECK(options["docs"].compression == rocksdb::kLZ4Compression);
  CHECK(options["docs"].enable_blob_files);
  CHECK(options["docs"].min_blob_size == 256);
  CHECK(options["docs"].blob_compression_type == rocksdb::kZSTD);
  CHECK_FALSE(options["docs"].enable_blob_garbage_collection);
  CHECK_FALSE(options["doc_map"].enable_blob_files);
  CHECK(options["doc_map"].compression == rocksdb::kSnappyCompression);
  CHECK(options["log"].compression == rocksdb::kSnappyCompression);
}

namespace {
size_t BlobFiles(const std::filesystem::path& dir) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.path().extension() == ".blob";
  return n;
}
}  // namespace

TEST_CASE("queue store: page summaries go to blob files, read back whole, and a deleted crawl frees them",
          "[unit]") {
  TempDir dir;
  std::map<std::string, std::string> written;
  {
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    auto writer = (*store)->NewWriter(5);
    for (int i = 0; i < 200; ++i) {
      // Long enough for a blob (a page's summary), short (a link's) stays in the tables.
      const std::string value =
          "r summary " + std::to_string(i) + std::string(i % 2 ? 600 : 40, 'a' + i % 26);
      const std::string key = "doc" + std::to_string(1000 + i);
      writer->PutIndex(crawl::queueserver::IndexFamily::kDocs, key, value);
      written[key] = value;
    }
    REQUIRE(writer->Commit().ok());
    (*store)->CompactCrawl(5);  // flushes the memtable: the blobs are written
    CHECK(BlobFiles(dir.path) >= 1);
  }
  {
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    auto writer = (*store)->NewWriter(5);
    for (const auto& [key, value] : written) {
      std::string read;
      REQUIRE(writer->GetIndex(crawl::queueserver::IndexFamily::kDocs, key, &read).ok());
      CHECK(read == value);
    }
    writer.reset();
    REQUIRE((*store)->DeleteCrawl(5).ok());
    (*store)->CompactCrawl(5);
  }
  CHECK(BlobFiles(dir.path) == 0);
}
