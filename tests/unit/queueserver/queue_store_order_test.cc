// Queue store (queueserver/store/queue_store.h) and the crawl orders: the
// order's data in the crawl log and on leases, the opic queue past its RAM
// budget, the tier queues and an older store's page queue moved to them.
#include <rocksdb/db.h>
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
#include "queueserver/store/queue_store.h"
#include "tests/unit/queueserver/queue_store_test_util.h"
#include "tests/unit/support/temp_dir.h"

using Catch::Detail::Approx;
using crawl::ManualClock;
using crawl::queueserver::CrawlShard;
using crawl::queueserver::QueueStore;

using crawl::test_support::TempDir;
using namespace crawl::queueserver::store_test;  // NOLINT: the tests' helpers

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

// The lease carries the chain's PassScoreBeforeProcessing
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

TEST_CASE("crawl log entries keep the log fields and drop the page's mini index and description and body",
          "[unit]") {
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

TEST_CASE("queue store as the opic queue: past the RAM budget, committed or not, pops in cash order",
          "[unit]") {
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
    pop_take(order, 7);  // refills from committed entries
    for (; next < 45; ++next) push(order, next, false);
    pop_take(order, 9);       // and from the uncommitted batch
    push(order, 1000, true);  // put back at the front
    REQUIRE(writer->Commit().ok());
    CHECK(order.in_memory() <= 4 * 2);
    discarded = pop_take(order, 3);
    writer->Discard();  // a request that failed: not written
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

TEST_CASE("queue store: a page queue of an older store moves to the tier queues when the store opens",
          "[unit]") {
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
