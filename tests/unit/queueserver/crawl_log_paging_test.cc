// CrawlShard::ReadLogPage: the crawl log paged by cursor
// with the filters applied at the queue server, read from a real store.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

using crawl::ManualClock;
using crawl::queueserver::CrawlShard;
using crawl::queueserver::QueueStore;
using crawl::test_support::TempDir;

namespace {

crawl::v1::FetchRecord Record(const std::string& url, int status, int64_t ts) {
  crawl::v1::FetchRecord r;
  r.set_url(url);
  r.set_status(status);
  r.set_timestamp_unix_us(ts);
  return r;
}

// A stored crawl 42 whose log holds `records`, loaded as a queue server
// loads it at start-up.
struct LoggedShard {
  TempDir dir;
  ManualClock clock;
  std::unique_ptr<QueueStore> store;
  std::unique_ptr<CrawlShard> shard;

  explicit LoggedShard(const std::vector<crawl::v1::FetchRecord>& records) {
    auto opened = QueueStore::Open(dir.path.string(), {});
    REQUIRE(opened.ok());
    store = std::move(*opened);
    crawl::v1::CrawlInfo crawl;
    crawl.set_crawl_id(42);
    crawl.set_state(crawl::v1::CRAWL_STATE_RUNNING);
    {
      CrawlShard created(crawl, &clock, store->NewWriter(42));
      REQUIRE(created.Create().ok());
    }
    auto writer = store->NewWriter(42);
    for (size_t i = 0; i < records.size(); ++i) writer->AppendLog(i, records[i]);
    REQUIRE(writer->Commit().ok());
    auto loaded = CrawlShard::Load(store.get(), 42, &clock);
    REQUIRE(loaded.ok());
    shard = std::move(*loaded);
  }
};

// Reads the whole log page by page; every page at most `limit` records.
std::vector<std::string> ReadAll(const CrawlShard& shard, crawl::v1::GetCrawlLogRequest req, uint32_t limit,
                                 int* pages = nullptr) {
  std::vector<std::string> urls;
  req.set_limit(limit);
  for (int n = 1;; ++n) {
    crawl::v1::CrawlLogChunk chunk;
    REQUIRE(shard.ReadLogPage(req, &chunk).ok());
    REQUIRE(chunk.records_size() <= static_cast<int>(limit));
    for (const auto& r : chunk.records()) urls.push_back(r.url());
    if (pages) *pages = n;
    if (chunk.end()) break;
    REQUIRE(chunk.cursor().size() == 8);
    req.set_cursor(chunk.cursor());
  }
  return urls;
}

}  // namespace

TEST_CASE("crawl log pages by cursor neither skip nor repeat records of equal timestamps", "[unit]") {
  // Seven records share one timestamp; pages of 3 cut through them twice.
  std::vector<crawl::v1::FetchRecord> records;
  for (int i = 0; i < 10; ++i)
    records.push_back(Record("http://a.test/" + std::to_string(i), 200, i < 2 ? i : 1'000));
  LoggedShard logged(records);
  int pages = 0;
  const auto urls = ReadAll(*logged.shard, {}, 3, &pages);
  REQUIRE(urls.size() == 10);
  for (int i = 0; i < 10; ++i) CHECK(urls[static_cast<size_t>(i)] == "http://a.test/" + std::to_string(i));
  CHECK(pages == 4);
}

TEST_CASE("crawl log filters apply at the queue server across pages", "[unit]") {
  std::vector<crawl::v1::FetchRecord> records;
  const int statuses[] = {200, 404, 500, -3, 200, 410, 301, -1, 404, 200};
  for (int i = 0; i < 10; ++i) {
    const std::string host = i % 2 ? "www.b.test" : "a.test";
    records.push_back(Record("http://" + host + "/" + std::to_string(i), statuses[i], 100 * i));
  }
  LoggedShard logged(records);
  crawl::v1::GetCrawlLogRequest req;
  SECTION("status classes, codes and error kinds") {
    req.set_status("4xx, timeout");
    CHECK(ReadAll(*logged.shard, req, 2) ==
          std::vector<std::string>{"http://www.b.test/1", "http://www.b.test/3", "http://www.b.test/5",
                                   "http://a.test/8"});
    req.set_status("error");
    CHECK(ReadAll(*logged.shard, req, 2) ==
          std::vector<std::string>{"http://www.b.test/3", "http://www.b.test/7"});
  }
  SECTION("host globs and exact hosts") {
    req.set_host("*.B.test");
    CHECK(ReadAll(*logged.shard, req, 2).size() == 5);
    req.set_host("a.test");
    CHECK(ReadAll(*logged.shard, req, 1).size() == 5);
    req.set_host("b.test");
    CHECK(ReadAll(*logged.shard, req, 4).empty());
  }
  SECTION("time range [since, until)") {
    req.set_since_unix_us(300);
    req.set_until_unix_us(600);
    CHECK(ReadAll(*logged.shard, req, 2) ==
          std::vector<std::string>{"http://www.b.test/3", "http://a.test/4", "http://www.b.test/5"});
  }
}

TEST_CASE("crawl log paging rejects bad cursors and filters; old offset paging still works", "[unit]") {
  LoggedShard logged({Record("http://a.test/0", 200, 1), Record("http://a.test/1", 200, 2)});
  crawl::v1::GetCrawlLogRequest req;
  crawl::v1::CrawlLogChunk chunk;
  req.set_cursor("abc");
  CHECK(logged.shard->ReadLogPage(req, &chunk).code() == crawl::StatusCode::kInvalidArgument);
  req.clear_cursor();
  req.set_status("6xx");
  CHECK(logged.shard->ReadLogPage(req, &chunk).code() == crawl::StatusCode::kInvalidArgument);
  req.set_status("");
  req.set_host("a b");
  CHECK(logged.shard->ReadLogPage(req, &chunk).code() == crawl::StatusCode::kInvalidArgument);
  chunk.Clear();
  REQUIRE(logged.shard->ReadLog(1, 5, &chunk).ok());
  REQUIRE(chunk.records_size() == 1);
  CHECK(chunk.records(0).url() == "http://a.test/1");
  CHECK(chunk.end());
}
