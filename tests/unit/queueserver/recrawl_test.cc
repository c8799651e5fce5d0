// Recrawl at the shard: a fetched page is leased again when its
// revisit policy says, with its validators; a 304 lengthens the adaptive
// interval and a changed 200 shortens it; due pages take at most the
// recrawl share of a schedule; a crawl without recrawl never leases a
// fetched page again; the due pages survive a store restart.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <random>
#include <set>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/store/queue_store.h"

namespace qs = crawl::queueserver;
namespace v1 = crawl::v1;
using std::chrono::seconds;

namespace {

struct TempDir {
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("recrawl_test." + std::to_string(rd()) + std::to_string(rd()));
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::filesystem::path path;
};

v1::CrawlInfo Crawl(bool recrawl) {
  v1::CrawlInfo c;
  c.set_crawl_id(9);
  c.set_state(v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_schedule_size(10);
  c.mutable_params()->set_lease_seconds(600);
  c.mutable_params()->set_order("bfs");
  c.mutable_params()->set_recrawl(recrawl);
  c.mutable_params()->set_revisit_policy("adaptive");
  c.mutable_params()->set_revisit_interval_s(100);
  c.mutable_params()->set_revisit_bounds("10:1000");
  c.mutable_params()->set_recrawl_share_percent(50);
  return c;
}

// Drives one shard as a fetcher would.
struct Driver {
  qs::CrawlShard& shard;
  crawl::ManualClock& clock;
  uint64_t sequence = 0;

  void Seed(const std::vector<std::string>& urls) {
    v1::InjectSeedsRequest seeds;
    *seeds.mutable_crawl() = Crawl(true);
    for (const auto& u : urls) seeds.add_urls(u);
    v1::InjectSeedsResponse out;
    REQUIRE(shard.InjectSeeds(seeds, &out).ok());
  }
  v1::GetScheduleResponse Lease() {
    v1::GetScheduleRequest req;
    req.set_crawl_id(9);
    req.set_fetcher_id("f");
    v1::GetScheduleResponse out;
    REQUIRE(shard.GetSchedule(req, &out).ok());
    return out;
  }
  // Answers every URL of `s`: robots.txt 404; pages `status` with `digest`.
  void Answer(const v1::GetScheduleResponse& s, int status, const std::string& digest) {
    v1::SubmitResultsRequest req;
    req.set_crawl_id(9);
    req.set_fetcher_id("f");
    req.set_schedule_id(s.schedule_id());
    req.set_sequence(sequence++);
    req.set_final(true);
    for (const v1::ScheduledUrl& u : s.urls()) {
      v1::FetchRecord* r = req.add_records();
      r->set_url(u.url());
      r->set_kind(u.kind());
      r->set_timestamp_unix_us(clock.NowUnixMs() * 1000);
      if (u.kind() == v1::URL_KIND_ROBOTS) {
        r->set_status(404);
        continue;
      }
      r->set_status(status);
      r->set_conditional(!u.if_none_match().empty());
      r->set_etag("\"e\"");
      r->set_content_digest(digest);
    }
    v1::SubmitResultsResponse out;
    REQUIRE(shard.SubmitResults(req, &out).ok());
  }
  // Seeds `urls` of one host and fetches them once (robots.txt first).
  void FetchOnce(const std::vector<std::string>& urls) {
    Seed(urls);
    const auto robots = Lease();
    REQUIRE(robots.urls_size() == 1);
    Answer(robots, 404, "");
    const auto pages = Lease();
    REQUIRE(pages.urls_size() == static_cast<int>(urls.size()));
    Answer(pages, 200, "d1");
  }
  int64_t Interval(const std::string& url) {
    auto st = shard.FetchStateOf(url);
    REQUIRE(st.ok());
    REQUIRE(st->has_value());
    return (*st)->revisit_interval_s;
  }
};

}  // namespace

TEST_CASE("recrawl: a page is leased again after its interval, with its validators, and adaptive adapts",
          "[unit]") {
  crawl::ManualClock clock;
  qs::CrawlShard shard(Crawl(true), &clock, nullptr);
  Driver d{shard, clock};
  const std::string url = "http://a.test/p";
  d.FetchOnce({url});
  CHECK(d.Interval(url) == 100);  // a first fetch starts at the interval
  CHECK(shard.due_pages() == 1);
  CHECK(d.Lease().schedule_id() == 0);  // not due yet
  clock.Advance(seconds(99));
  CHECK(d.Lease().schedule_id() == 0);
  clock.Advance(seconds(1));
  auto again = d.Lease();
  REQUIRE(again.urls_size() == 1);
  CHECK(again.urls(0).url() == url);
  CHECK(again.urls(0).if_none_match() == "\"e\"");
  CHECK(again.urls(0).previous_digest() == "d1");
  d.Answer(again, 304, "");
  CHECK(d.Interval(url) == 140);  // not modified: x (1 + 0.4)
  clock.Advance(seconds(140));
  auto third = d.Lease();
  REQUIRE(third.urls_size() == 1);
  d.Answer(third, 200, "d2");
  CHECK(d.Interval(url) == 112);  // changed: x (1 - 0.2)
}

TEST_CASE("recrawl: due pages take at most the recrawl share of a schedule", "[unit]") {
  crawl::ManualClock clock;
  qs::CrawlShard shard(Crawl(true), &clock, nullptr);
  Driver d{shard, clock};
  std::vector<std::string> urls;
  for (int i = 0; i < 8; ++i) urls.push_back("http://a.test/" + std::to_string(i));
  d.FetchOnce(urls);
  clock.Advance(seconds(100));
  // Schedule size 10, share 50%: five of the eight due pages.
  auto first = d.Lease();
  CHECK(first.urls_size() == 5);
  CHECK(shard.due_pages() == 3);
  d.Answer(first, 304, "");
  auto rest = d.Lease();
  CHECK(rest.urls_size() == 3);
  CHECK(shard.due_pages() == 5);  // the first five are due again later
}

TEST_CASE("recrawl off: a fetched page is never leased again", "[unit]") {
  crawl::ManualClock clock;
  qs::CrawlShard shard(Crawl(false), &clock, nullptr);
  Driver d{shard, clock};
  d.FetchOnce({"http://a.test/p"});
  CHECK(shard.due_pages() == 0);
  clock.Advance(seconds(100'000));
  CHECK(d.Lease().schedule_id() == 0);
  CHECK(d.Interval("http://a.test/p") == 0);
}

TEST_CASE("recrawl: due pages survive a store restart and are re-entered once", "[unit]") {
  TempDir dir;
  crawl::ManualClock clock;
  const std::string url = "http://a.test/p";
  {
    auto store = qs::QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    qs::CrawlShard shard(Crawl(true), &clock, (*store)->NewWriter(9));
    REQUIRE(shard.Create().ok());
    Driver d{shard, clock};
    d.FetchOnce({url});
  }
  clock.Advance(seconds(100));
  {
    auto store = qs::QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    auto shard = qs::CrawlShard::Load(store->get(), 9, &clock);
    REQUIRE(shard.ok());
    CHECK((*shard)->due_pages() == 1);
    Driver d{**shard, clock};
    auto again = d.Lease();
    REQUIRE(again.urls_size() == 1);
    CHECK(again.urls(0).if_none_match() == "\"e\"");
    // Leased, not answered: a restart now must not enter it a second time.
  }
  auto store = qs::QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto shard = qs::CrawlShard::Load(store->get(), 9, &clock);
  REQUIRE(shard.ok());
  CHECK((*shard)->due_pages() == 0);
  CHECK((*shard)->frontier_counters().leased_urls == 1);
}

TEST_CASE("recrawl: a due window smaller than the due pages re-enters each once, across a restart",
          "[unit]") {
  TempDir dir;
  crawl::ManualClock clock;
  std::vector<std::string> urls;
  for (int i = 0; i < 6; ++i) urls.push_back("http://a.test/p" + std::to_string(i));
  {
    auto store = qs::QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    qs::CrawlShard shard(Crawl(true), &clock, (*store)->NewWriter(9));
    shard.set_due_window(2);
    REQUIRE(shard.Create().ok());
    Driver d{shard, clock};
    d.FetchOnce(urls);
    CHECK(shard.due_pages() == 2);  // the other four only in the store
  }
  clock.Advance(seconds(100));
  std::multiset<std::string> leased;
  {
    auto store = qs::QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    auto shard = qs::CrawlShard::Load(store->get(), 9, &clock);
    REQUIRE(shard.ok());
    (*shard)->set_due_window(2);
    Driver d{**shard, clock};
    const auto first = d.Lease();
    for (const auto& u : first.urls()) leased.insert(u.url());
    CHECK(first.urls_size() == 2);
    d.Answer(first, 304, "d1");
    // The process dies here, with four due pages only in the store.
  }
  auto store = qs::QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto shard = qs::CrawlShard::Load(store->get(), 9, &clock);
  REQUIRE(shard.ok());
  (*shard)->set_due_window(2);
  Driver d{**shard, clock};
  for (int round = 0; round < 8; ++round) {
    const auto s = d.Lease();
    if (s.urls_size() == 0) break;
    for (const auto& u : s.urls()) leased.insert(u.url());
    d.Answer(s, 304, "d1");
  }
  // Every due page once: none lost beyond the window, none entered twice.
  CHECK(leased.size() == 6);
  CHECK(std::set<std::string>(leased.begin(), leased.end()).size() == 6);
  CHECK((*shard)->due_refills() >= 1);
  // The stats count this process's part: four re-entered and found unchanged.
  v1::QueueServerStats st;
  (*shard)->FillStats(&st);
  CHECK(st.revisits_entered() == 4);
  CHECK(st.revisits_unchanged() == 4);
  CHECK(st.revisits_changed() == 0);
  CHECK(st.due_refills() == (*shard)->due_refills());
}
