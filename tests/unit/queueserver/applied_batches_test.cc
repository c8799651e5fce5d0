// The bounded record of applied batches (queueserver/applied_batches.h): it
// keeps what deduplication of retried batches needs (the recent keys) and
// forgets the rest, in memory and in the store's `batches` family, in the
// same commit as the batch.
#include "queueserver/applied_batches.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <random>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

using crawl::ManualClock;
using crawl::queueserver::AppliedBatch;
using crawl::queueserver::AppliedBatches;
using crawl::queueserver::CrawlShard;
using crawl::queueserver::QueueStore;

using crawl::test_support::TempDir;

namespace {

crawl::v1::CrawlInfo Crawl() {
  crawl::v1::CrawlInfo c;
  c.set_crawl_id(7);
  c.set_state(crawl::v1::CRAWL_STATE_RUNNING);
  return c;
}

crawl::v1::SubmitResultsRequest Batch(uint64_t schedule, uint64_t sequence) {
  crawl::v1::SubmitResultsRequest req;
  req.set_crawl_id(7);
  req.set_fetcher_id("f");
  req.set_schedule_id(schedule);
  req.set_sequence(sequence);
  auto* r = req.add_records();
  r->set_url("http://a.test/" + std::to_string(schedule) + "/" + std::to_string(sequence));
  r->set_status(200);
  r->set_kind(crawl::v1::URL_KIND_PAGE);
  return req;
}

// Applies `req`; true when it was a duplicate.
bool Submit(CrawlShard& shard, const crawl::v1::SubmitResultsRequest& req) {
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(req, &resp).ok());
  return resp.duplicate();
}

uint64_t PagesFetched(const CrawlShard& shard) {
  crawl::v1::QueueServerStats s;
  shard.FillStats(&s);
  return s.pages_fetched();
}

}  // namespace

TEST_CASE("applied batches: keys older than the window go once more than min_kept are held", "[unit]") {
  AppliedBatches record({.window_ms = 1000, .min_kept = 3, .max_kept = 100, .max_drops_per_add = 64});
  std::vector<std::string> dropped;
  for (int i = 0; i < 10; ++i) (void)record.Add("k" + std::to_string(i), i * 500, &dropped);
  // At t=4500 the keys applied before t=3500 are out of the window.
  CHECK(record.size() == 3);
  CHECK(record.Contains("k9"));
  CHECK(record.Contains("k7"));
  CHECK_FALSE(record.Contains("k6"));
  CHECK(dropped == std::vector<std::string>{"k0", "k1", "k2", "k3", "k4", "k5", "k6"});
}

TEST_CASE("applied batches: max_kept bounds the record whatever the keys' age", "[unit]") {
  AppliedBatches record({.window_ms = 1'000'000, .min_kept = 1, .max_kept = 5, .max_drops_per_add = 64});
  std::vector<std::string> dropped;
  for (int i = 0; i < 1000; ++i) (void)record.Add("k" + std::to_string(i), 0, &dropped);
  CHECK(record.size() == 5);
  CHECK(dropped.size() == 995);
  CHECK(record.Contains("k999"));
  CHECK_FALSE(record.Contains("k994"));
}

TEST_CASE("applied batches: forgetting is paced, and a restored backlog shrinks to the bound", "[unit]") {
  AppliedBatches record({.window_ms = 10, .min_kept = 2, .max_kept = 4, .max_drops_per_add = 3});
  std::vector<AppliedBatch> stored;
  // An older store: every key of the crawl, with no time (empty values).
  for (int i = 0; i < 20; ++i) {
    AppliedBatch b;
    b.key = "old" + std::to_string(i);
    REQUIRE(AppliedBatches::DecodeValue("", &b));
    stored.push_back(b);
  }
  record.Restore(stored);
  CHECK(record.size() == 20);
  std::vector<std::string> dropped;
  (void)record.Add("new0", 1000, &dropped);
  CHECK(dropped.size() == 3);  // paced
  for (int i = 1; i < 20; ++i) (void)record.Add("new" + std::to_string(i), 1000, &dropped);
  CHECK(record.size() == 4);
  CHECK(record.Contains("new19"));
}

TEST_CASE("applied batches: stored values round-trip and order survives a restore", "[unit]") {
  AppliedBatches record;
  std::vector<std::string> dropped;
  std::vector<AppliedBatch> stored;
  for (int i = 0; i < 5; ++i) {
    AppliedBatch b = record.Add("k" + std::to_string(i), 100 + i, &dropped);
    AppliedBatch back;
    back.key = b.key;
    REQUIRE(AppliedBatches::DecodeValue(AppliedBatches::EncodeValue(b), &back));
    CHECK(back.applied_ms == b.applied_ms);
    CHECK(back.order == b.order);
    stored.insert(stored.begin(), back);  // reversed: Restore sorts
  }
  AppliedBatch bad;
  CHECK_FALSE(AppliedBatches::DecodeValue("short", &bad));
  AppliedBatches restored({.window_ms = 0, .min_kept = 2, .max_kept = 100, .max_drops_per_add = 64});
  restored.Restore(stored);
  (void)restored.Add("k5", 10'000, &dropped);
  // The oldest by application order went first.
  CHECK(restored.Contains("k4"));
  CHECK(restored.Contains("k5"));
  CHECK_FALSE(restored.Contains("k3"));
}

TEST_CASE("applied batches: a shard's record stays bounded over many batches, in memory and in the store",
          "[unit]") {
  TempDir dir;
  ManualClock clock;
  constexpr int kBatches = 3000;
  {
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    auto shard = std::make_unique<CrawlShard>(Crawl(), &clock, (*store)->NewWriter(7));
    REQUIRE(shard->Create().ok());
    for (int i = 0; i < kBatches; ++i) {
      REQUIRE_FALSE(Submit(*shard, Batch(1 + i / 10, i % 10)));
      clock.Advance(std::chrono::seconds(10));
    }
    // 3000 batches 10 s apart: the last 30 min hold 180, fewer than the
    // 1024 always kept.
    CHECK(shard->applied_batches() == 1024);
    // A replay of a recent batch is refused as before, and changes nothing.
    const uint64_t pages = PagesFetched(*shard);
    CHECK(Submit(*shard, Batch(1 + (kBatches - 1) / 10, (kBatches - 1) % 10)));
    CHECK(Submit(*shard, Batch(1 + (kBatches - 1000) / 10, (kBatches - 1000) % 10)));
    CHECK(PagesFetched(*shard) == pages);
  }
  // After a restart: the store holds the same bounded record.
  auto store = QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto image = (*store)->Load(7);
  REQUIRE(image.ok());
  CHECK(image->applied_batches.size() == 1024);
  auto shard = CrawlShard::Load(store->get(), 7, &clock);
  REQUIRE(shard.ok());
  CHECK((*shard)->applied_batches() == 1024);
  CHECK(Submit(**shard, Batch(1 + (kBatches - 1) / 10, (kBatches - 1) % 10)));
  // A new batch is applied, and the record keeps its size.
  CHECK_FALSE(Submit(**shard, Batch(100'000, 0)));
  CHECK((*shard)->applied_batches() == 1024);
}

TEST_CASE("applied batches: within the window every key is kept", "[unit]") {
  ManualClock clock;
  CrawlShard shard(Crawl(), &clock, nullptr);
  REQUIRE(shard.Create().ok());
  for (int i = 0; i < 2000; ++i) {
    REQUIRE_FALSE(Submit(shard, Batch(1 + i / 10, i % 10)));
    clock.Advance(std::chrono::milliseconds(100));  // 200 s in all: inside 30 min
  }
  CHECK(shard.applied_batches() == 2000);
  CHECK(Submit(shard, Batch(1, 0)));  // the very first batch is still a duplicate
}
