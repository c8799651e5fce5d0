// Per-URL fetch state (queueserver/fetch_state.h): its update
// rule, its store encoding (queueserver/store/fetch_state_codec.h), the
// store keeping it across a restart, validators attached to a page leased
// again, and unchanged pages (304, same digest) costing no index work.
#include "queueserver/fetch_state.h"

#include <rocksdb/db.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>

#include "common/base/clock.h"
#include "common/base/hash.h"
#include "common/text/stemmer.h"
#include "common/text/tokenizer.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/store/fetch_state_codec.h"
#include "queueserver/store/queue_store.h"

namespace qs = crawl::queueserver;
namespace v1 = crawl::v1;
using qs::FetchState;

namespace {

struct TempDir {
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("fetch_state_test." + std::to_string(rd()) + std::to_string(rd()));
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::filesystem::path path;
};

FetchState Sample() {
  FetchState s;
  s.url = "http://a.test/page";
  s.last_fetch_unix_us = 1'700'000'000'123'456;
  s.last_status = 304;
  s.etag = "W/\"abc\"";
  s.last_modified = "Tue, 01 Jan 2030 00:00:00 GMT";
  s.expires_unix_s = 1'900'000'000;
  s.digest = "0011223344556677";
  s.content_since_unix_us = 1'600'000'000'000'000;
  s.fetches = 5;
  s.times_changed = 2;
  s.times_unchanged = 2;
  return s;
}

v1::FetchRecord Record(const std::string& url, int status, const std::string& digest, int64_t at_us) {
  v1::FetchRecord r;
  r.set_url(url);
  r.set_kind(v1::URL_KIND_PAGE);
  r.set_status(status);
  r.set_content_digest(digest);
  r.set_timestamp_unix_us(at_us);
  return r;
}

// A page record with a mini index of `body`'s words (English stems).
v1::FetchRecord IndexedPage(const std::string& url, const std::string& body, const std::string& digest,
                            int64_t at) {
  crawl::text::Stemmer en("en");
  v1::FetchRecord r = Record(url, 200, digest, at);
  r.set_title("Page");
  r.set_language("en");
  r.set_text_hash(crawl::hash::Hash8(body));
  v1::MiniIndex* mi = r.mutable_mini_index();
  mi->set_stem_language("english");
  uint32_t pos = 0;
  crawl::text::ForEachToken(body, [&](std::string_view w) {
    v1::IndexTerm* t = mi->add_terms();
    t->set_term(std::string(en.Stem(w)));
    t->set_term_id(crawl::hash::Hash8(t->term()));
    t->add_positions(pos++);
    t->set_body_count(1);
  });
  mi->set_token_count(pos);
  return r;
}

v1::CrawlInfo Crawl() {
  v1::CrawlInfo c;
  c.set_crawl_id(9);
  c.set_state(v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_schedule_size(10);
  c.mutable_params()->set_lease_seconds(60);
  return c;
}

v1::SubmitResultsRequest Batch(uint64_t sequence) {
  v1::SubmitResultsRequest req;
  req.set_crawl_id(9);
  req.set_fetcher_id("f");
  req.set_schedule_id(1000);
  req.set_sequence(sequence);
  return req;
}

size_t Hits(qs::CrawlShard& shard, const std::string& query) {
  v1::SearchRequest sr;
  sr.set_query(query);
  v1::SearchResponse out;
  REQUIRE(shard.Search(sr, &out).ok());
  return static_cast<size_t>(out.results_size());
}

v1::FetchRecord LastLogged(const qs::CrawlShard& shard) {
  v1::CrawlLogChunk chunk;
  REQUIRE(shard.ReadLog(0, 0, &chunk).ok());
  REQUIRE(chunk.records_size() > 0);
  return chunk.records(chunk.records_size() - 1);
}

}  // namespace

TEST_CASE("fetch state codec: a state comes back as written", "[unit]") {
  namespace codec = qs::store_internal;
  FetchState back;
  REQUIRE(codec::DecodeFetchState(codec::EncodeFetchState(Sample()), &back));
  CHECK(back == Sample());
  FetchState empty;
  REQUIRE(codec::DecodeFetchState(codec::EncodeFetchState(FetchState{}), &back));
  CHECK(back == empty);
  // Negative values (a network error status) survive the unsigned encoding.
  FetchState failed = Sample();
  failed.last_status = -3;
  REQUIRE(codec::DecodeFetchState(codec::EncodeFetchState(failed), &back));
  CHECK(back.last_status == -3);
}

TEST_CASE("fetch state codec: damaged records are refused, not misread", "[unit]") {
  namespace codec = qs::store_internal;
  const std::string good = codec::EncodeFetchState(Sample());
  FetchState back;
  CHECK_FALSE(codec::DecodeFetchState("", &back));
  CHECK_FALSE(codec::DecodeFetchState(good + "x", &back));  // trailing bytes
  for (size_t n = 0; n < good.size(); ++n) CHECK_FALSE(codec::DecodeFetchState(good.substr(0, n), &back));
  std::string other_version = good;
  other_version[0] = 4;  // versions 1-3 are known
  CHECK_FALSE(codec::DecodeFetchState(other_version, &back));
  // A string length past the end of the record.
  std::string long_url = good;
  long_url[1] = '\x7f';
  CHECK_FALSE(codec::DecodeFetchState(long_url, &back));
}

TEST_CASE("fetch state: first fetch, changed, unchanged (same digest) and 304 revisits are counted",
          "[unit]") {
  const std::string url = "http://a.test/p";
  v1::FetchRecord first = Record(url, 200, "aaaaaaaaaaaaaaaa", 100);
  first.set_etag("\"1\"");
  first.set_last_modified("Mon, 01 Jan 2029 00:00:00 GMT");
  qs::FetchUpdate u = qs::ApplyFetch(std::nullopt, first);
  CHECK(u.revisit == v1::REVISIT_NONE);
  CHECK(u.state.fetches == 1);
  CHECK(u.state.times_changed == 0);
  CHECK(u.state.digest == "aaaaaaaaaaaaaaaa");
  CHECK(u.state.content_since_unix_us == 100);

  u = qs::ApplyFetch(u.state, Record(url, 200, "aaaaaaaaaaaaaaaa", 200));  // same digest
  CHECK(u.revisit == v1::REVISIT_IDENTICAL_DIGEST);
  CHECK(u.state.times_unchanged == 1);
  CHECK(u.state.content_since_unix_us == 100);
  CHECK(u.state.etag.empty());  // a 2xx replaces the validators, even with none

  // An unsolicited 304 (no validators were sent) is no revisit.
  CHECK(qs::ApplyFetch(u.state, Record(url, 304, "", 250)).revisit == v1::REVISIT_NONE);
  v1::FetchRecord not_modified = Record(url, 304, "", 300);
  not_modified.set_conditional(true);
  not_modified.set_etag("\"2\"");
  FetchState with_date = u.state;
  with_date.last_modified = "Mon, 01 Jan 2029 00:00:00 GMT";
  u = qs::ApplyFetch(with_date, not_modified);
  CHECK(u.revisit == v1::REVISIT_NOT_MODIFIED);
  CHECK(u.state.etag == "\"2\"");
  CHECK(u.state.last_modified == "Mon, 01 Jan 2029 00:00:00 GMT");  // kept: the 304 did not replace it
  CHECK(u.state.digest == "aaaaaaaaaaaaaaaa");
  CHECK(u.state.times_unchanged == 2);
  CHECK(u.state.last_fetch_unix_us == 300);

  u = qs::ApplyFetch(u.state, Record(url, 200, "bbbbbbbbbbbbbbbb", 400));
  CHECK(u.revisit == v1::REVISIT_NONE);
  CHECK(u.state.times_changed == 1);
  CHECK(u.state.content_since_unix_us == 400);

  u = qs::ApplyFetch(u.state, Record(url, -2, "", 500));  // a network error: only the attempt is noted
  CHECK(u.state.last_status == -2);
  CHECK(u.state.digest == "bbbbbbbbbbbbbbbb");
  CHECK(u.state.fetches == 4);
}

TEST_CASE("fetch state: the store keeps it across a restart and a page leased again carries its validators",
          "[unit]") {
  TempDir dir;
  crawl::ManualClock clock;
  const std::string url = "http://a.test/p";
  {
    auto store = qs::QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    qs::CrawlShard shard(Crawl(), &clock, (*store)->NewWriter(9));
    REQUIRE(shard.Create().ok());
    auto req = Batch(0);
    v1::FetchRecord r = Record(url, 200, "0123456789abcdef", 1'000);
    r.set_etag("\"e1\"");
    r.set_last_modified("Tue, 01 Jan 2030 00:00:00 GMT");
    r.set_expires_unix_s(1'900'000'000);
    *req.add_records() = r;
    v1::SubmitResultsResponse resp;
    REQUIRE(shard.SubmitResults(req, &resp).ok());
  }
  auto store = qs::QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto shard = qs::CrawlShard::Load(store->get(), 9, &clock);
  REQUIRE(shard.ok());
  auto state = (*shard)->FetchStateOf(url);
  REQUIRE(state.ok());
  REQUIRE(state->has_value());
  CHECK((*state)->etag == "\"e1\"");
  CHECK((*state)->last_modified == "Tue, 01 Jan 2030 00:00:00 GMT");
  CHECK((*state)->expires_unix_s == 1'900'000'000);
  CHECK((*state)->digest == "0123456789abcdef");
  CHECK((*state)->last_fetch_unix_us == 1'000);
  CHECK((*state)->fetches == 1);
  auto other = (*shard)->FetchStateOf("http://a.test/never");
  REQUIRE(other.ok());
  CHECK_FALSE(other->has_value());
  // The whole set, as a recrawl scheduler would read it at start-up.
  {
    auto writer = (*store)->NewWriter(9);
    std::vector<std::string> urls;
    uint64_t damaged = 0;
    REQUIRE(writer
                ->ScanFetchStates(
                    [&](uint64_t hash, const FetchState& s) {
                      CHECK(hash == crawl::hash::Hash8(s.url));
                      urls.push_back(s.url);
                      return true;
                    },
                    &damaged)
                .ok());
    CHECK(urls == std::vector<std::string>{url});
    CHECK(damaged == 0);
    CHECK((*store)->NewWriter(10)->ScanFetchStates([](uint64_t, const FetchState&) { return true; }).ok());
  }

  // The URL comes up for a fetch again (seeded here; the recrawl
  // scheduler's job later): its lease carries the validators.
  v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = Crawl();
  seeds.add_urls(url);
  seeds.add_urls("http://a.test/new");
  v1::InjectSeedsResponse injected;
  REQUIRE((*shard)->InjectSeeds(seeds, &injected).ok());
  v1::GetScheduleRequest lease_req;
  lease_req.set_crawl_id(9);
  lease_req.set_fetcher_id("f");
  v1::GetScheduleResponse robots;
  REQUIRE((*shard)->GetSchedule(lease_req, &robots).ok());
  REQUIRE(robots.urls_size() == 1);
  CHECK(robots.urls(0).if_none_match().empty());  // robots.txt: never conditional
  auto allow = Batch(1);
  allow.set_schedule_id(robots.schedule_id());
  allow.set_final(true);
  v1::FetchRecord* rr = allow.add_records();
  rr->set_url("http://a.test/robots.txt");
  rr->set_kind(v1::URL_KIND_ROBOTS);
  rr->set_status(404);
  v1::SubmitResultsResponse resp;
  REQUIRE((*shard)->SubmitResults(allow, &resp).ok());
  v1::GetScheduleResponse pages;
  REQUIRE((*shard)->GetSchedule(lease_req, &pages).ok());
  REQUIRE(pages.urls_size() == 2);
  for (const v1::ScheduledUrl& u : pages.urls()) {
    if (u.url() == url) {
      CHECK(u.if_none_match() == "\"e1\"");
      CHECK(u.if_modified_since() == "Tue, 01 Jan 2030 00:00:00 GMT");
      CHECK(u.previous_digest() == "0123456789abcdef");
    } else {
      CHECK(u.if_none_match().empty());
      CHECK(u.if_modified_since().empty());
      CHECK(u.previous_digest().empty());
    }
  }
}

TEST_CASE("fetch state: a 304 leaves the page's postings, and the log says not modified", "[unit]") {
  TempDir dir;
  crawl::ManualClock clock;
  auto store = qs::QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  qs::CrawlShard shard(Crawl(), &clock, (*store)->NewWriter(9));
  REQUIRE(shard.Create().ok());
  const std::string url = "http://a.test/p";
  auto first = Batch(0);
  *first.add_records() = IndexedPage(url, "zebra crossing", "1111111111111111", 1'000);
  v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(first, &resp).ok());
  REQUIRE(Hits(shard, "zebra") == 1);
  const uint64_t documents = shard.index().documents();

  auto revisit = Batch(1);
  v1::FetchRecord not_modified = Record(url, 304, "1111111111111111", 2'000);
  not_modified.set_revisit(v1::REVISIT_NOT_MODIFIED);
  not_modified.set_conditional(true);
  *revisit.add_records() = not_modified;
  REQUIRE(shard.SubmitResults(revisit, &resp).ok());
  CHECK(Hits(shard, "zebra") == 1);
  CHECK(shard.index().documents() == documents);
  CHECK(LastLogged(shard).revisit() == v1::REVISIT_NOT_MODIFIED);
  REQUIRE(shard.last_revisits().contains(url));
  CHECK(shard.last_revisits().at(url).kind == v1::REVISIT_NOT_MODIFIED);
  CHECK(shard.last_revisits().at(url).refers_to_unix_us == 1'000);
  auto state = shard.FetchStateOf(url);
  REQUIRE(state.ok());
  REQUIRE(state->has_value());
  CHECK((*state)->times_unchanged == 1);
  CHECK((*state)->last_fetch_unix_us == 2'000);
}

TEST_CASE("fetch state: a 200 with the same digest is unchanged: not indexed again, logged unchanged",
          "[unit]") {
  crawl::ManualClock clock;
  qs::CrawlShard shard(Crawl(), &clock, nullptr);  // in memory: the same rules
  REQUIRE(shard.Create().ok());
  const std::string url = "http://a.test/p";
  auto first = Batch(0);
  *first.add_records() = IndexedPage(url, "zebra crossing", "2222222222222222", 1'000);
  v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(first, &resp).ok());
  REQUIRE(Hits(shard, "zebra") == 1);

  // Same digest, though the record (an older fetcher's) brings new words:
  // the queue server's own comparison decides, and nothing is indexed.
  auto again = Batch(1);
  *again.add_records() = IndexedPage(url, "giraffe", "2222222222222222", 2'000);
  REQUIRE(shard.SubmitResults(again, &resp).ok());
  CHECK(Hits(shard, "giraffe") == 0);
  CHECK(Hits(shard, "zebra") == 1);
  CHECK(LastLogged(shard).revisit() == v1::REVISIT_IDENTICAL_DIGEST);
  auto state = shard.FetchStateOf(url);
  REQUIRE(state.ok());
  REQUIRE(state->has_value());
  CHECK((*state)->times_unchanged == 1);
  CHECK((*state)->times_changed == 0);

  // Another digest is a change: indexed.
  auto changed = Batch(2);
  *changed.add_records() = IndexedPage(url, "giraffe", "3333333333333333", 3'000);
  REQUIRE(shard.SubmitResults(changed, &resp).ok());
  CHECK(Hits(shard, "giraffe") == 1);
  CHECK(LastLogged(shard).revisit() == v1::REVISIT_NONE);
  state = shard.FetchStateOf(url);
  REQUIRE(state.ok());
  CHECK((*state)->times_changed == 1);
}

TEST_CASE("fetch state: a damaged stored record is reported, and the next fetch starts the history again",
          "[unit]") {
  TempDir dir;
  crawl::ManualClock clock;
  const std::string url = "http://a.test/p";
  v1::SubmitResultsResponse resp;
  {
    auto store = qs::QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    qs::CrawlShard shard(Crawl(), &clock, (*store)->NewWriter(9));
    REQUIRE(shard.Create().ok());
    auto req = Batch(0);
    *req.add_records() = Record(url, 200, "4444444444444444", 1'000);
    REQUIRE(shard.SubmitResults(req, &resp).ok());
  }
  {
    // Damage every fetch_state value, as a bad disk or a bug might.
    std::vector<std::string> names;
    REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir.path.string(), &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    for (const auto& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(rocksdb::DBOptions(), dir.path.string(), families, &handles, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    int damaged = 0;
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] != "fetch_state") continue;
      std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), handles[i]));
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        REQUIRE(db->Put(rocksdb::WriteOptions(), handles[i], it->key(), std::string("\x01\x00\x00")).ok());
        ++damaged;
      }
    }
    CHECK(damaged == 1);
    for (auto* h : handles) (void)db->DestroyColumnFamilyHandle(h);
  }
  auto store = qs::QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto shard = qs::CrawlShard::Load(store->get(), 9, &clock);
  REQUIRE(shard.ok());
  auto state = (*shard)->FetchStateOf(url);
  REQUIRE_FALSE(state.ok());
  CHECK(state.status().code() == crawl::StatusCode::kInternal);
  uint64_t damaged = 0;
  int visited = 0;
  REQUIRE((*store)
              ->NewWriter(9)
              ->ScanFetchStates([&](uint64_t, const FetchState&) { return ++visited > 0; }, &damaged)
              .ok());
  CHECK(damaged == 1);
  CHECK(visited == 0);
  // A new fetch is recorded (no crash, no refused request): a first fetch again.
  auto req = Batch(1);
  *req.add_records() = Record(url, 200, "5555555555555555", 2'000);
  REQUIRE((*shard)->SubmitResults(req, &resp).ok());
  state = (*shard)->FetchStateOf(url);
  REQUIRE(state.ok());
  REQUIRE(state->has_value());
  CHECK((*state)->digest == "5555555555555555");
  CHECK((*state)->fetches == 1);
}
