// Queue store (queueserver/store/queue_store.h) and durable CrawlShard: what one
// process wrote comes back in the next one, and a failed commit leaves
// nothing behind.
#include "queueserver/store/queue_store.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <filesystem>
#include <map>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>
#include <random>
#include <set>

#include "common/clock.h"
#include "queueserver/crawl_shard.h"
#include "tests/unit/support/temp_dir.h"

using crawl::ManualClock;
using crawl::queueserver::CrawlShard;
using crawl::queueserver::QueueStore;
using Catch::Detail::Approx;

using crawl::test_support::TempDir;

namespace {

// A fresh directory, removed at the end of the test.
std::unique_ptr<QueueStore> OpenStore(const TempDir& dir) {
  auto s = QueueStore::Open(dir.path.string(), {});
  REQUIRE(s.ok());
  return std::move(*s);
}

// The crawl order the shards of a test use ("" is host_budget).
std::string g_order;

crawl::v1::CrawlInfo Crawl() {
  crawl::v1::CrawlInfo c;
  c.mutable_params()->set_order(g_order);
  // opic: a RAM budget of two URLs, so most of its queue lives in the store.
  c.mutable_params()->set_ram_budget_urls(2);
  // bfs, host_budget: tier windows of two URLs, refilled from the store.
  c.mutable_params()->set_tier_window_urls(2);
  c.set_crawl_id(42);
  c.set_state(crawl::v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_schedule_size(3);
  c.mutable_params()->set_lease_seconds(60);
  return c;
}

std::unique_ptr<CrawlShard> NewShard(QueueStore* store, const ManualClock* clock) {
  auto shard = std::make_unique<CrawlShard>(Crawl(), clock, store ? store->NewWriter(42) : nullptr);
  REQUIRE(shard->Create().ok());
  return shard;
}

std::unique_ptr<CrawlShard> Reload(QueueStore* store, const ManualClock* clock) {
  auto shard = CrawlShard::Load(store, 42, clock);
  REQUIRE(shard.ok());
  return std::move(*shard);
}

crawl::v1::GetScheduleResponse Lease(CrawlShard& shard, const std::string& fetcher) {
  crawl::v1::GetScheduleRequest req;
  req.set_crawl_id(42);
  req.set_fetcher_id(fetcher);
  crawl::v1::GetScheduleResponse resp;
  REQUIRE(shard.GetSchedule(req, &resp).ok());
  return resp;
}

std::vector<std::string> Urls(const crawl::v1::GetScheduleResponse& s) {
  std::vector<std::string> out;
  for (const auto& u : s.urls()) out.push_back(u.url());
  return out;
}

crawl::v1::SubmitResultsRequest Results(uint64_t schedule, uint64_t sequence, bool final) {
  crawl::v1::SubmitResultsRequest req;
  req.set_crawl_id(42);
  req.set_fetcher_id("f");
  req.set_schedule_id(schedule);
  req.set_sequence(sequence);
  req.set_final(final);
  return req;
}

void AddRecord(crawl::v1::SubmitResultsRequest* req, const std::string& url, int status,
               const std::string& robots_body = "") {
  auto* r = req->add_records();
  r->set_url(url);
  r->set_status(status);
  r->set_bytes(100);
  r->set_kind(url.ends_with("/robots.txt") ? crawl::v1::URL_KIND_ROBOTS : crawl::v1::URL_KIND_PAGE);
  r->set_robots_body(robots_body);
}

// Injects `urls` (all of a.test) as seeds and answers a.test's robots.txt
// with allow-all, so the pages can be leased next.
void SeedAndAllow(CrawlShard& shard, const std::vector<std::string>& urls) {
  crawl::v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = Crawl();
  for (const auto& u : urls) seeds.add_urls(u);
  crawl::v1::InjectSeedsResponse injected;
  REQUIRE(shard.InjectSeeds(seeds, &injected).ok());
  auto robots = Lease(shard, "f");
  auto r = Results(robots.schedule_id(), 0, true);
  AddRecord(&r, "http://a.test/robots.txt", 200, "User-agent: *\nDisallow:\n");
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(r, &resp).ok());
}

void AddLink(crawl::v1::SubmitResultsRequest* req, const std::string& url) {
  auto* l = req->add_links();
  l->set_url(url);
  l->set_referrer("http://a.test/");
  l->set_depth(1);
}

crawl::v1::QueueServerStats Stats(const CrawlShard& shard) {
  crawl::v1::QueueServerStats s;
  shard.FillStats(&s);
  return s;
}

std::vector<std::string> Log(const CrawlShard& shard) {
  crawl::v1::CrawlLogChunk chunk;
  REQUIRE(shard.ReadLog(0, 0, &chunk).ok());
  std::vector<std::string> out;
  for (const auto& r : chunk.records())
    out.push_back(r.url() + " " + std::to_string(r.status()) + " tier " + std::to_string(r.order_tier()) +
                  " cash " + std::to_string(r.order_cash()) + " importance " + std::to_string(r.order_importance()));
  return out;
}

// Drives a shard through every kind of state: seeds, robots rules (one
// origin known, one still waiting), a page queue, an open lease with one URL
// reported, applied batches and the log. Returns the open schedule's id.
uint64_t Drive(CrawlShard& shard) {
  crawl::v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = Crawl();
  for (const char* u : {"http://a.test/", "http://a.test/1", "http://a.test/private/x", "http://b.test/"})
    seeds.add_urls(u);
  seeds.add_urls("not a url");
  crawl::v1::InjectSeedsResponse injected;
  REQUIRE(shard.InjectSeeds(seeds, &injected).ok());
  REQUIRE(injected.accepted() == 4);

  auto robots = Lease(shard, "f");
  REQUIRE(Urls(robots) == std::vector<std::string>{"http://a.test/robots.txt", "http://b.test/robots.txt"});
  auto r = Results(robots.schedule_id(), 0, true);
  AddRecord(&r, "http://a.test/robots.txt", 200, "User-agent: *\nDisallow: /private/\n");
  // b.test's robots.txt is not reported: it comes back at the queue front.
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(r, &resp).ok());

  auto pages = Lease(shard, "f");
  REQUIRE(Urls(pages) ==
          std::vector<std::string>{"http://b.test/robots.txt", "http://a.test/", "http://a.test/1"});
  auto p = Results(pages.schedule_id(), 0, false);
  AddRecord(&p, "http://a.test/", 200);
  for (const char* u : {"http://a.test/2", "http://a.test/3", "http://a.test/4", "http://a.test/private/y",
                        "http://c.test/"})
    AddLink(&p, u);
  REQUIRE(shard.SubmitResults(p, &resp).ok());
  REQUIRE_FALSE(resp.duplicate());
  return pages.schedule_id();
}

}  // namespace

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
  for (int i = 0; i <= crawl::queueserver::kMaxRecordsPerRequest; ++i) AddRecord(&big, "http://a.test/1", 200);
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

TEST_CASE("crawl log records carry the order's data: host_budget tier, opic cash and importance", "[unit]") {
  g_order = GENERATE(std::string("host_budget"), std::string("opic"));
  INFO("order " << g_order);
  ManualClock clock;
  auto shard = NewShard(nullptr, &clock);
  crawl::v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = Crawl();
  seeds.add_urls("http://a.test/");
  seeds.add_urls("http://b.test/");
  crawl::v1::InjectSeedsResponse injected;
  REQUIRE(shard->InjectSeeds(seeds, &injected).ok());
  auto robots = Lease(*shard, "f");
  auto r = Results(robots.schedule_id(), 0, true);
  AddRecord(&r, "http://a.test/robots.txt", 404);
  AddRecord(&r, "http://b.test/robots.txt", 404);
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard->SubmitResults(r, &resp).ok());
  auto pages = Lease(*shard, "f");
  REQUIRE(pages.urls_size() == 2);
  auto p = Results(pages.schedule_id(), 0, true);
  AddRecord(&p, "http://a.test/", 200);
  AddRecord(&p, "http://b.test/", 200);
  REQUIRE(shard->SubmitResults(p, &resp).ok());
  crawl::v1::CrawlLogChunk chunk;
  REQUIRE(shard->ReadLog(0, 0, &chunk).ok());
  REQUIRE(chunk.records_size() == 4);
  const auto& a = chunk.records(2);
  const auto& b = chunk.records(3);
  if (g_order == "host_budget") {
    CHECK(a.order_tier() == 0);
    CHECK(a.order_cash() == 0);
  } else {
    // Two seeds of 1/2; after a: history 1/2 of 1/2; after b: 1/2 of 1.
    CHECK(a.order_tier() == -1);
    CHECK(a.order_cash() == Approx(0.5));
    CHECK(a.order_importance() == Approx(1.0));
    CHECK(b.order_cash() == Approx(0.5));
    CHECK(b.order_importance() == Approx(0.5));
  }
  g_order.clear();
}

// issue 22 item 2: the lease carries the chain's PassScoreBeforeProcessing
// value (ScheduledUrl.scoring_datum), the record brings it back, and what it
// brings back is the fetched page's score; a bad chain setting fails the
// crawl's start.
TEST_CASE("the scoring datum goes out on the lease and back on the record; bad settings fail", "[unit]") {
  g_order = "opic";
  ManualClock clock;
  auto shard = NewShard(nullptr, &clock);
  SeedAndAllow(*shard, {"http://a.test/", "http://a.test/x"});
  auto pages = Lease(*shard, "f");
  REQUIRE(pages.urls_size() == 2);
  for (const auto& u : pages.urls()) {
    REQUIRE(u.has_scoring_datum());
    CHECK(u.scoring_datum() == Approx(0.5));  // opic passes the cash
  }
  auto p = Results(pages.schedule_id(), 0, true);
  AddRecord(&p, "http://a.test/", 200);
  p.mutable_records(0)->set_scoring_datum(0.125);
  AddRecord(&p, "http://a.test/x", 200);  // an older fetcher: no echo, the lease's value
  crawl::v1::SubmitResultsResponse resp;
  REQUIRE(shard->SubmitResults(p, &resp).ok());
  crawl::v1::CrawlLogChunk chunk;
  REQUIRE(shard->ReadLog(0, 0, &chunk).ok());
  REQUIRE(chunk.records_size() == 3);
  CHECK(chunk.records(1).order_cash() == Approx(0.125));
  CHECK(chunk.records(2).order_cash() == Approx(0.5));
  g_order.clear();
  crawl::v1::CrawlParams params;
  params.set_order("bfs");
  params.set_scoring_filters("depth");
  params.add_scoring_params("depth.weight=0.5");
  CHECK(CrawlShard::FrontierOptionsFor(params).ok());
  params.add_scoring_params("depth.colour=red");
  auto bad = CrawlShard::FrontierOptionsFor(params);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("depth.colour") != std::string::npos);
  params.set_scoring_filters("depth,pagerank");
  CHECK_FALSE(CrawlShard::FrontierOptionsFor(params).ok());
}

TEST_CASE("crawl log entries keep the log fields and drop the page's mini index and description and body", "[unit]") {
  ManualClock clock;
  TempDir dir;
  auto store = OpenStore(dir);
  auto shard = NewShard(store.get(), &clock);
  SeedAndAllow(*shard, {"http://a.test/"});
  crawl::v1::SubmitResultsResponse resp;
  auto pages = Lease(*shard, "f");
  REQUIRE(pages.urls_size() == 1);
  auto p = Results(pages.schedule_id(), 0, true);
  AddRecord(&p, "http://a.test/", 200);
  auto* page = p.mutable_records(0);
  page->set_mime_type("text/html");
  page->set_title("A title");
  page->set_language("en");
  page->add_description()->set_text(std::string(5000, 'd'));
  page->mutable_mini_index()->set_token_count(3);
  page->mutable_mini_index()->add_terms()->set_term("crawler");
  page->set_body(std::string(20000, 'b'));
  // Every other field is kept as sent.
  page->set_referrer("http://a.test/from");
  page->set_bytes(20000);
  page->set_fetch_ms(12);
  page->set_content_digest("0123456789abcdef");
  page->set_timestamp_unix_us(1'700'000'000'000'000);
  page->set_error("none really");
  page->set_truncated(true);
  page->set_redirect_url("http://a.test/next");
  page->set_links_found(7);
  page->set_retry_after_seconds(3);
  page->set_language_source("html-lang");
  page->set_noindex(true);
  page->set_nofollow(true);
  page->set_noarchive(true);
  page->set_nosnippet(true);
  page->set_text_hash(0xfeedfacecafebeefULL);
  page->set_charset("utf-8");
  page->set_invalid_bytes(2);
  crawl::v1::FetchRecord expected = *page;
  expected.clear_description();
  expected.clear_mini_index();
  expected.clear_body();
  REQUIRE(shard->SubmitResults(p, &resp).ok());
  auto check = [&expected](const CrawlShard& s) {
    crawl::v1::CrawlLogChunk chunk;
    REQUIRE(s.ReadLog(0, 0, &chunk).ok());
    REQUIRE(chunk.records_size() == 2);
    // robots.txt keeps its body (the console's host page shows it).
    CHECK(chunk.records(0).robots_body() == "User-agent: *\nDisallow:\n");
    const auto& logged = chunk.records(1);
    CHECK(logged.url() == "http://a.test/");
    CHECK(logged.status() == 200);
    CHECK(logged.mime_type() == "text/html");
    CHECK(logged.title() == "A title");
    CHECK(logged.language() == "en");
    CHECK(logged.description_size() == 0);
    CHECK_FALSE(logged.has_mini_index());
    CHECK(logged.body().empty());
    crawl::v1::FetchRecord want = expected;  // plus what the shard adds: the order's score
    want.set_order_tier(logged.order_tier());
    want.set_order_cash(logged.order_cash());
    want.set_order_importance(logged.order_importance());
    CHECK(logged.SerializeAsString() == want.SerializeAsString());
  };
  check(*shard);
  // The stored log (what a restart reads) is as small.
  shard.reset();
  check(*Reload(store.get(), &clock));
}

TEST_CASE("queue store as the opic queue: past the RAM budget, committed or not, pops in cash order", "[unit]") {
  using namespace crawl::queueserver;
  TempDir dir;
  auto store = OpenStore(dir);
  auto writer = store->NewWriter(42);
  OrderOptions o;
  o.kind = OrderKind::kOpic;
  o.ram_budget_urls = 3;
  std::map<std::string, double> cash;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> d(0.0, 1.0);
  {
    OpicOrder order(o, *ScoringChain::Make("opic", {"opic.split=plain"}), writer.get());
    order.SetJournal(writer.get());
    for (int k = 0; k < 40; ++k) {
      FrontierEntry e;
      e.url = "http://h.test/" + std::to_string(k);
      e.cash = d(rng);
      cash[e.url] = e.cash;
      order.Push(e, false);
      if (k == 20) REQUIRE(writer->Commit().ok());  // half committed, half in the batch
    }
    // Cash for spilled URLs, read back from the uncommitted batch.
    FrontierEntry fetched;
    fetched.url = "http://p.test/";
    fetched.cash = 2.0;
    (void)order.OnFetched(fetched);
    std::vector<LinkInput> links;
    for (int k = 0; k < 8; ++k) {
      LinkInput l;
      l.entry.url = "http://h.test/" + std::to_string(k * 5);
      l.entry.referrer = fetched.url;
      l.links_on_page = 8;
      links.push_back(l);
      cash[l.entry.url] += 0.25;
    }
    PageContext page;
    page.url = fetched.url;
    page.fetched_here = true;
    page.cash = 2.0;
    order.OnLinks(page, links, std::vector<bool>(links.size(), false));
    order.EndRequest();
    REQUIRE(writer->Commit().ok());
    CHECK(order.in_memory() <= 3);
  }
  // Restored from the store, as after a restart: every URL, in cash order.
  writer->PutCrawl(Crawl());
  REQUIRE(writer->Commit().ok());
  auto image = store->Load(42);
  REQUIRE(image.ok());
  auto reader = store->NewWriter(42);
  OpicOrder order(o, *ScoringChain::Make("opic", {"opic.split=plain"}), reader.get());
  order.Restore({}, {}, image->frontier.order_state);
  CHECK(order.size() == cash.size());
  std::vector<std::pair<double, std::string>> expected;
  for (const auto& [u, c] : cash) expected.emplace_back(c, u);
  std::sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  size_t k = 0;
  while (auto e = order.Pop()) {
    REQUIRE(k < expected.size());
    CHECK(e->entry.url == expected[k].second);
    CHECK(e->entry.cash == Approx(expected[k].first).epsilon(1e-12));
    order.Taken(*e);
    ++k;
  }
  CHECK(k == expected.size());
  CHECK(reader->OpicTop(10).empty());  // the batch erased them all
}

TEST_CASE("queue store as the tier queues: small windows, committed or not, restore mid-window", "[unit]") {
  using namespace crawl::queueserver;
  TempDir dir;
  auto store = OpenStore(dir);
  auto writer = store->NewWriter(42);
  writer->PutCrawl(Crawl());  // host_budget
  OrderOptions big;
  big.kind = OrderKind::kHostBudget;
  big.tier_window_urls = 1'000'000;
  OrderOptions small = big;
  small.tier_window_urls = 2;
  TieredOrder ref(big);
  std::mt19937 rng(3);
  auto push = [&](TieredOrder& order, int k, bool front) {
    FrontierEntry e;
    e.url = "http://h.test/" + std::to_string(k);
    e.referrer = "http://h.test/";
    e.tier = static_cast<int32_t>(k % 4);
    e.depth = static_cast<uint32_t>(k);
    ref.Push(e, front);
    order.Push(e, front);
  };
  auto pop_take = [&](TieredOrder& order, int n) {
    std::vector<std::string> urls;
    for (int k = 0; k < n; ++k) {
      auto x = ref.Pop();
      auto y = order.Pop();
      REQUIRE(x.has_value() == y.has_value());
      if (!x) break;
      urls.push_back(x->entry.url);
      REQUIRE(y->entry.url == x->entry.url);
      CHECK(y->entry.depth == x->entry.depth);
      ref.Taken(*x);
      order.Taken(*y);
    }
    return urls;
  };
  int next = 0;
  std::vector<std::string> discarded;
  {
    TieredOrder order(small, writer.get());
    order.SetJournal(writer.get());
    for (; next < 30; ++next) push(order, next, false);
    REQUIRE(writer->Commit().ok());
    pop_take(order, 7);            // refills from committed entries
    for (; next < 45; ++next) push(order, next, false);
    pop_take(order, 9);            // and from the uncommitted batch
    push(order, 1000, true);       // put back at the front
    REQUIRE(writer->Commit().ok());
    CHECK(order.in_memory() <= 4 * 2);
    discarded = pop_take(order, 3);
    writer->Discard();             // a request that failed: not written
  }
  {
    auto image = store->Load(42);
    REQUIRE(image.ok());
    CHECK(image->frontier.ready.empty());  // the queue is read lazily
    auto reader = store->NewWriter(42);
    TieredOrder order(small, reader.get());
    order.Restore({}, {}, image->frontier.order_state);
    CHECK(order.in_memory() == 0);
    // 45 + 1 pushed, 16 taken before the last commit.
    CHECK(order.size() == 30);
    CHECK(order.size() == ref.size() + 3);
    std::vector<std::string> got;
    while (auto e = order.Pop()) {
      got.push_back(e->entry.url);
      order.Taken(*e);
      CHECK(order.in_memory() <= 4 * 2);
    }
    // The discarded pops never happened: they come first again, then the
    // reference's order.
    std::vector<std::string> expected = discarded;
    while (auto x = ref.Pop()) {
      expected.push_back(x->entry.url);
      ref.Taken(*x);
    }
    CHECK(got == expected);
    REQUIRE(reader->Commit().ok());
    CHECK(reader->TierSummary().empty());
    CHECK(reader->TierRead(0, 0, 10).empty());
  }
}

TEST_CASE("queue store: a page queue of an older store moves to the tier queues when the store opens", "[unit]") {
  using namespace crawl::queueserver;
  TempDir dir;
  auto store = OpenStore(dir);
  auto writer = store->NewWriter(42);
  writer->PutCrawl(Crawl());  // host_budget
  // The old layout: one FIFO of pages by sequence number.
  for (int k = 0; k < 6; ++k) {
    SeqEntry e;
    e.seq = (uint64_t{1} << 62) + static_cast<uint64_t>(k);
    e.entry.url = "http://old.test/" + std::to_string(k);
    e.entry.tier = k % 2;
    writer->Queued(QueueKind::kPages, e);
  }
  REQUIRE(writer->Commit().ok());
  writer.reset();
  for (int pass = 0; pass < 2; ++pass) {  // the second open finds nothing left to move
    store.reset();
    store = OpenStore(dir);
    auto image = store->Load(42);
    REQUIRE(image.ok());
    auto reader = store->NewWriter(42);
    auto summary = reader->TierSummary();
    REQUIRE(summary.size() == 2);
    CHECK(summary[0].count == 3);
    CHECK(summary[1].count == 3);
    CHECK(summary[1].first_seq == (uint64_t{1} << 62) + 1);
    CHECK(summary[1].last_seq == (uint64_t{1} << 62) + 5);
    OrderOptions o;
    o.kind = OrderKind::kHostBudget;
    o.tier_window_urls = 1;
    TieredOrder order(o, reader.get());
    order.Restore(std::move(image->frontier.ready), {}, image->frontier.order_state);
    std::vector<std::string> got;
    while (auto e = order.Pop()) got.push_back(e->entry.url);  // not taken: nothing changes
    // One schedule: its tier (0) first, then tier 1, each in arrival order.
    CHECK(got == std::vector<std::string>{"http://old.test/0", "http://old.test/2", "http://old.test/4",
                                          "http://old.test/1", "http://old.test/3", "http://old.test/5"});
  }
}

namespace {

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

TEST_CASE("queue store: a lease of an older store (one key per URL) loads, and its URLs are reported and closed",
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
  const auto good = crawl::queueserver::LinkFromWire(link, "http://b.test/x");
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
    CHECK_FALSE(crawl::queueserver::LinkFromWire(bad, "http://b.test/x").referrer_known);
  }
  for (int32_t tier : {-1, 1001}) {
    crawl::v1::DiscoveredLink bad = link;
    bad.set_referrer_tier(tier);
    CHECK_FALSE(crawl::queueserver::LinkFromWire(bad, "http://b.test/x").referrer_known);
  }
  link.set_referrer_order_known(false);
  CHECK_FALSE(crawl::queueserver::LinkFromWire(link, "http://b.test/x").referrer_known);
}
