// Migrations of older queue store layouts at open
// (queueserver/store/queue_store_migrate.h): the structure order keeps its
// page queue, and a crawl whose old queue cannot be decoded is left whole
// for Load to report. (The move itself: queue_store_test.cc.)
#include <rocksdb/db.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

namespace qs = crawl::queueserver;

using crawl::test_support::TempDir;

namespace {

// A fresh directory, removed at the end of the test.
std::unique_ptr<qs::QueueStore> OpenStore(const TempDir& dir) {
  auto s = qs::QueueStore::Open(dir.path.string(), {});
  REQUIRE(s.ok());
  return std::move(*s);
}

// Crawl 42 with `order` and three pages in the page FIFO of older stores.
void WriteOldPageQueue(const TempDir& dir, const std::string& order) {
  auto store = OpenStore(dir);
  auto writer = store->NewWriter(42);
  crawl::v1::CrawlInfo crawl;
  crawl.set_crawl_id(42);
  crawl.mutable_params()->set_order(order);
  writer->PutCrawl(crawl);
  for (int k = 0; k < 3; ++k) {
    qs::SeqEntry e;
    e.seq = static_cast<uint64_t>(k + 1);
    e.entry.url = "http://old.test/" + std::to_string(k);
    writer->Queued(qs::QueueKind::kPages, e);
  }
  REQUIRE(writer->Commit().ok());
}

// Puts one record into the "queue" family of the closed store in `dir`.
void PutRawQueueRecord(const TempDir& dir, const std::string& key, const std::string& value) {
  std::vector<std::string> names;
  REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir.path.string(), &names).ok());
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const auto& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::Open(rocksdb::DBOptions(), dir.path.string(), families, &handles, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == "queue") CHECK(db->Put(rocksdb::WriteOptions(), handles[i], key, value).ok());
  }
  for (auto* h : handles) (void)db->DestroyColumnFamilyHandle(h);
}

}  // namespace

TEST_CASE("store migration: the structure order keeps its page queue when the store opens", "[unit]") {
  TempDir dir;
  WriteOldPageQueue(dir, "structure");
  auto store = OpenStore(dir);
  auto image = store->Load(42);
  REQUIRE(image.ok());
  REQUIRE(image->frontier.ready.size() == 3);
  CHECK(image->frontier.ready[0].entry.url == "http://old.test/0");
  CHECK(store->NewWriter(42)->TierSummary().empty());
}

TEST_CASE("store migration: an old page queue with a damaged record stays whole and Load reports it",
          "[unit]") {
  TempDir dir;
  WriteOldPageQueue(dir, "");  // host_budget
  // Crawl 42's prefix, 'P', sequence number 9: a record no entry decodes from.
  std::string key(
      "\0\0\0\0\0\0\0\x2a"
      "P"
      "\0\0\0\0\0\0\0\x09",
      17);
  PutRawQueueRecord(dir, key, "junk");
  auto store = OpenStore(dir);  // opens: the crawl is left for Load
  auto image = store->Load(42);
  REQUIRE_FALSE(image.ok());
  CHECK(image.status().code() == crawl::StatusCode::kInternal);
  CHECK(image.status().message().find("corrupt queue") != std::string::npos);
  CHECK(store->NewWriter(42)->TierSummary().empty());  // nothing moved
}
