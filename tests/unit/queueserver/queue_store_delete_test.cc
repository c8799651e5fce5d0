// Deleting a crawl from the queue store (QueueStore::DeleteCrawl) and its
// WARC files (RemoveWarcFiles): nothing of the crawl is left in any column
// family, and other crawls are untouched (`crawlctl delete`).
#include <grpcpp/grpcpp.h>
#include <rocksdb/db.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/service.h"
#include "queueserver/store/queue_store.h"
#include "queueserver/store/warc_writer.h"
#include "tests/unit/support/temp_dir.h"

using crawl::ManualClock;
using crawl::queueserver::CrawlShard;
using crawl::queueserver::QueueStore;

using crawl::test_support::TempDir;

namespace {

crawl::v1::CrawlInfo Crawl(uint64_t id, const std::string& order) {
  crawl::v1::CrawlInfo c;
  c.set_crawl_id(id);
  c.set_state(crawl::v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_order(order);
  c.mutable_params()->set_schedule_size(3);
  c.mutable_params()->set_lease_seconds(60);
  return c;
}

// Fills most families for crawl `id`: seeds, robots rules, a lease, the
// log, applied batches, the seen set, queues and the index.
void Drive(CrawlShard& shard, uint64_t id, const std::string& order) {
  crawl::v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = Crawl(id, order);
  for (const char* u : {"http://a.test/", "http://a.test/1", "http://b.test/"}) seeds.add_urls(u);
  crawl::v1::InjectSeedsResponse injected;
  REQUIRE(shard.InjectSeeds(seeds, &injected).ok());
  for (int round = 0; round < 2; ++round) {
    crawl::v1::GetScheduleRequest lease;
    lease.set_crawl_id(id);
    lease.set_fetcher_id("f");
    crawl::v1::GetScheduleResponse schedule;
    REQUIRE(shard.GetSchedule(lease, &schedule).ok());
    REQUIRE(schedule.schedule_id() != 0);
    crawl::v1::SubmitResultsRequest results;
    results.set_crawl_id(id);
    results.set_fetcher_id("f");
    results.set_schedule_id(schedule.schedule_id());
    results.set_final(round == 0);
    for (const auto& u : schedule.urls()) {
      auto* r = results.add_records();
      r->set_url(u.url());
      r->set_kind(u.kind());
      r->set_status(200);
      r->set_title("a page about crawling");
      if (u.kind() == crawl::v1::URL_KIND_ROBOTS) r->set_robots_body("User-agent: *\nDisallow: /private/\n");
    }
    for (const char* u : {"http://a.test/2", "http://c.test/", "http://a.test/private/x"}) {
      auto* l = results.add_links();
      l->set_url(u);
      l->set_referrer("http://a.test/");
      l->set_depth(1);
      l->set_anchor_text("crawling");
    }
    crawl::v1::SubmitResultsResponse resp;
    REQUIRE(shard.SubmitResults(results, &resp).ok());
  }
}

std::string Prefix(uint64_t id) {
  std::string p;
  for (int shift = 56; shift >= 0; shift -= 8) p.push_back(static_cast<char>((id >> shift) & 0xff));
  return p;
}

// Keys per column family that start with crawl `id`'s prefix, read with
// RocksDB directly (the store closed).
std::map<std::string, size_t> KeysOf(const std::filesystem::path& dir, uint64_t id) {
  std::vector<std::string> names;
  REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir.string(), &names).ok());
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const auto& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(), dir.string(), families, &handles, &raw).ok());
  std::map<std::string, size_t> out;
  const std::string p = Prefix(id);
  for (size_t i = 0; i < handles.size(); ++i) {
    std::unique_ptr<rocksdb::Iterator> it(raw->NewIterator(rocksdb::ReadOptions(), handles[i]));
    for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) ++out[names[i]];
  }
  for (auto* h : handles) (void)raw->DestroyColumnFamilyHandle(h);
  delete raw;
  return out;
}

std::string StatsText(const CrawlShard& shard) {
  crawl::v1::QueueServerStats s;
  shard.FillStats(&s);
  return s.DebugString();
}

}  // namespace

TEST_CASE("queue store: deleting a crawl leaves nothing of it and the other crawls whole", "[unit]") {
  const std::string order = GENERATE(std::string("bfs"), std::string("host_budget"), std::string("opic"));
  INFO("order " << order);
  TempDir dir;
  ManualClock clock;
  std::string kept_before;
  {
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    for (uint64_t id : {41, 42, 43}) {
      auto shard = std::make_unique<CrawlShard>(Crawl(id, order), &clock, (*store)->NewWriter(id));
      REQUIRE(shard->Create().ok());
      Drive(*shard, id, order);
      if (id == 43) kept_before = StatsText(*shard);
    }
  }
  // Every crawl fills many families; 42 sits between two others.
  const auto before = KeysOf(dir.path, 42);
  CHECK(before.size() >= 8);
  const auto neighbour_before = KeysOf(dir.path, 43);
  const auto lower_before = KeysOf(dir.path, 41);
  {
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    REQUIRE((*store)->DeleteCrawl(42).ok());
    (*store)->CompactCrawl(42);
    REQUIRE((*store)->DeleteCrawl(42).ok());  // idempotent
    auto ids = (*store)->ListCrawls();
    REQUIRE(ids.ok());
    CHECK(*ids == std::vector<uint64_t>{41, 43});
    CHECK((*store)->Load(42).status().code() == crawl::StatusCode::kNotFound);
    auto kept = CrawlShard::Load(store->get(), 43, &clock);
    REQUIRE(kept.ok());
    CHECK(StatsText(**kept) == kept_before);
    CHECK((*store)->DeleteCrawl(0).code() == crawl::StatusCode::kInvalidArgument);
  }
  CHECK(KeysOf(dir.path, 42).empty());
  CHECK(KeysOf(dir.path, 43) == neighbour_before);
  CHECK(KeysOf(dir.path, 41) == lower_before);
}

TEST_CASE("warc files: a crawl's files are removed, other crawls' stay", "[unit]") {
  TempDir dir;
  for (const char* name : {"crawl-4-00000.warc.gz", "crawl-4-00001.warc.gz", "crawl-42-00000.warc.gz",
                           "crawl-4-notes.txt", "crawl-44-00000.warc.gz"})
    std::ofstream(dir.path / name) << "x";
  auto removed = crawl::queueserver::RemoveWarcFiles(dir.path.string(), 4);
  REQUIRE(removed.ok());
  CHECK(*removed == 2);
  CHECK_FALSE(std::filesystem::exists(dir.path / "crawl-4-00000.warc.gz"));
  CHECK(std::filesystem::exists(dir.path / "crawl-42-00000.warc.gz"));
  CHECK(std::filesystem::exists(dir.path / "crawl-44-00000.warc.gz"));
  CHECK(std::filesystem::exists(dir.path / "crawl-4-notes.txt"));
  auto again = crawl::queueserver::RemoveWarcFiles(dir.path.string(), 4);
  REQUIRE(again.ok());
  CHECK(*again == 0);
  auto missing = crawl::queueserver::RemoveWarcFiles((dir.path / "nope").string(), 4);
  REQUIRE(missing.ok());
  CHECK(*missing == 0);
}

TEST_CASE("queue server DeleteCrawl: shard, store keys, WARC files and site reports go; other crawls stay",
          "[unit]") {
  TempDir dir;
  ManualClock clock;
  auto store = QueueStore::Open((dir.path / "store").string(), {});
  REQUIRE(store.ok());
  const std::filesystem::path warc = dir.path / "warc", reports = dir.path / "reports";
  std::filesystem::create_directories(warc);
  std::filesystem::create_directories(reports);
  crawl::queueserver::QueueServerServiceImpl service("qs0", &clock, store->get());
  service.EnableWarc(warc.string(), 0);
  service.EnableSiteReports(reports.string());
  crawl::v1::CrawlInfo first = Crawl(41, "bfs"), second = Crawl(42, "bfs");
  service.JoinCrawl(first);
  service.JoinCrawl(second);  // ends 41: one crawl runs at a time
  for (const char* name : {"crawl-41-00000.warc.gz", "crawl-42-00000.warc.gz", "crawl-41-sites.jsonl"})
    std::ofstream(warc / name) << "x";
  std::ofstream(reports / "crawl-41-sites.jsonl") << "{}\n";

  grpc::ServerContext ctx;
  crawl::v1::DeleteCrawlRequest req;
  req.set_crawl_id(41);
  crawl::v1::DeleteCrawlResponse resp;
  REQUIRE(service.DeleteCrawl(&ctx, &req, &resp).ok());
  CHECK(resp.existed());
  CHECK(resp.warc_files_removed() == 1);
  CHECK_FALSE(std::filesystem::exists(warc / "crawl-41-00000.warc.gz"));
  CHECK(std::filesystem::exists(warc / "crawl-42-00000.warc.gz"));
  CHECK(std::filesystem::exists(warc /
                                "crawl-41-sites.jsonl"));  // not a WARC file; not in the reports directory
  CHECK_FALSE(std::filesystem::exists(reports / "crawl-41-sites.jsonl"));
  auto ids = (*store)->ListCrawls();
  REQUIRE(ids.ok());
  CHECK(*ids == std::vector<uint64_t>{42});
  crawl::v1::StatsRequest stats_req;
  stats_req.set_crawl_id(41);
  crawl::v1::StatsResponse stats;
  REQUIRE(service.Stats(&ctx, &stats_req, &stats).ok());
  CHECK(stats.stats().crawl_id() == 0);  // no shard of 41 any more

  // Again: fine, nothing left to delete.
  crawl::v1::DeleteCrawlResponse again;
  grpc::ServerContext ctx2;
  REQUIRE(service.DeleteCrawl(&ctx2, &req, &again).ok());
  CHECK_FALSE(again.existed());
  req.set_crawl_id(0);
  crawl::v1::DeleteCrawlResponse none;
  grpc::ServerContext ctx3;
  CHECK(service.DeleteCrawl(&ctx3, &req, &none).error_code() == grpc::StatusCode::INVALID_ARGUMENT);
}
