// The index follows the web (search_index.h, index_records.h
// PageLiveness): a changed page's new version replaces its old one in search,
// a page gone 404/410 twice in a row (or moved 301/308) leaves search and a
// later 200 brings it back, across a reopen of the store, and a search
// prepared before a replacement answers with the old version only.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "common/base/hash.h"
#include "common/text/stemmer.h"
#include "common/text/tokenizer.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/fetch_state.h"
#include "queueserver/index/search_index.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/indexed_page.h"
#include "tests/unit/support/temp_dir.h"

using namespace crawl::queueserver;
namespace v1 = crawl::v1;

namespace {

v1::FetchRecord Page(const std::string& url, const std::string& body, int status = 200) {
  return crawl::test_support::IndexedPage(url, body, status);
}

// URLs of the hits, in answer order (duplicates kept).
std::vector<std::string> Hits(SearchIndex& index, const std::string& text) {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery(text, en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  auto out = index.Search(*q, {}, clock, en);
  REQUIRE(out.ok());
  std::vector<std::string> urls;
  for (const SearchHit& h : out->hits) urls.push_back(h.url);
  return urls;
}

std::vector<std::string> Hits(CrawlShard& shard, const std::string& text) {
  v1::SearchRequest sr;
  sr.set_query(text);
  v1::SearchResponse out;
  REQUIRE(shard.Search(sr, &out).ok());
  std::vector<std::string> urls;
  for (const auto& r : out.results()) urls.push_back(r.url());
  return urls;
}

const std::vector<std::string> kNone;
const std::vector<std::string> kPage{"http://a.test/p"};

}  // namespace

TEST_CASE("a changed page's new version replaces its old one in search", "[unit]") {
  IndexOptions o;
  o.partition_docs = 2;  // the versions in different partitions, one merged
  MemoryIndexJournal journal;
  SearchIndex index(o, &journal);
  REQUIRE(index.AddPage(Page("http://a.test/p", "common walrus harbour")));
  REQUIRE(index.AddPage(Page("http://a.test/q", "common otter")));
  index.Flush();
  REQUIRE(index.MergeClosed().ok());
  CHECK(Hits(index, "walrus") == kPage);
  REQUIRE(index.AddPage(Page("http://a.test/p", "common pelican harbour")));
  index.Flush();
  CHECK(Hits(index, "walrus") == kNone);
  CHECK(Hits(index, "pelican") == kPage);
  auto common = Hits(index, "common");
  std::sort(common.begin(), common.end());
  CHECK(common == std::vector<std::string>{"http://a.test/p", "http://a.test/q"});  // once
  CHECK(Hits(index, "harbour") == kPage);
  CHECK(index.pages_replaced() == 1);
  // Changed back: the first version answers again, without a third document.
  CHECK_FALSE(index.AddPage(Page("http://a.test/p", "common walrus harbour")));
  CHECK(Hits(index, "walrus") == kPage);
  CHECK(Hits(index, "pelican") == kNone);
  CHECK(index.documents() == 3);
  // A reload answers the same (the records are the state).
  SearchIndex restored(o, &journal);
  REQUIRE(restored.Load().ok());
  CHECK(Hits(restored, "walrus") == kPage);
  CHECK(Hits(restored, "pelican") == kNone);
}

// The replacement is committed in one request (`commit`) after the
// searches were prepared.
static void CheckPreparedSeesOldVersion(IndexJournal* journal, const std::function<void()>& commit) {
  SearchIndex index({}, journal);
  REQUIRE(index.AddPage(Page("http://a.test/p", "heron marsh")));
  index.Flush();
  commit();
  crawl::text::Stemmer en("en");
  crawl::ManualClock clock;
  auto old_word = index.Prepare(*ParseQuery("heron", en));
  auto shared_word = index.Prepare(*ParseQuery("marsh", en));
  REQUIRE(old_word.ok());
  REQUIRE(shared_word.ok());
  REQUIRE(index.AddPage(Page("http://a.test/p", "egret marsh")));
  index.Flush();
  commit();
  auto run = [&](const std::shared_ptr<const PreparedSearch>& p) {
    auto out = SearchIndex::Run(*p, {}, clock, en);
    REQUIRE(out.ok());
    std::vector<std::string> urls;
    for (const SearchHit& h : out->hits) urls.push_back(h.url);
    return urls;
  };
  CHECK(run(*old_word) == kPage);     // not "neither"
  CHECK(run(*shared_word) == kPage);  // not "both"
  CHECK(Hits(index, "heron") == kNone);
  CHECK(Hits(index, "egret") == kPage);
  CHECK(Hits(index, "marsh") == kPage);
}

TEST_CASE("a search prepared before a replacement answers with the old version only", "[unit]") {
  SECTION("in memory") {
    MemoryIndexJournal journal;
    CheckPreparedSeesOldVersion(&journal, [] {});
  }
  SECTION("in the queue store") {
    crawl::test_support::TempDir dir;
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    auto writer = (*store)->NewWriter(5);
    CheckPreparedSeesOldVersion(writer.get(), [&] { REQUIRE(writer->Commit().ok()); });
    writer.reset();
    store->reset();
  }
}

TEST_CASE("only a second 404/410 in a row or a permanent redirect takes a page out of search", "[unit]") {
  CHECK_FALSE(LeavesSearch(200, 404));
  CHECK_FALSE(LeavesSearch(0, 410));
  CHECK_FALSE(LeavesSearch(500, 404));
  CHECK(LeavesSearch(404, 404));
  CHECK(LeavesSearch(404, 410));
  CHECK(LeavesSearch(410, 404));
  CHECK(LeavesSearch(200, 301));
  CHECK(LeavesSearch(200, 308));
  CHECK_FALSE(LeavesSearch(200, 302));
  CHECK_FALSE(LeavesSearch(200, 307));
  CHECK_FALSE(LeavesSearch(404, 200));
}

TEST_CASE("a crawl's page gone twice leaves search, comes back with a 200, across a reopen", "[unit]") {
  crawl::test_support::TempDir dir;
  crawl::ManualClock clock;
  v1::CrawlInfo crawl;
  crawl.set_crawl_id(9);
  crawl.set_state(v1::CRAWL_STATE_RUNNING);
  uint64_t sequence = 0;
  auto submit = [&](CrawlShard& shard, const v1::FetchRecord& r) {
    v1::SubmitResultsRequest req;
    req.set_crawl_id(9);
    req.set_fetcher_id("f");
    req.set_schedule_id(1);
    req.set_sequence(sequence++);
    *req.add_records() = r;
    v1::SubmitResultsResponse resp;
    REQUIRE(shard.SubmitResults(req, &resp).ok());
  };
  auto store = QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  {
    CrawlShard shard(crawl, &clock, (*store)->NewWriter(9));
    REQUIRE(shard.Create().ok());
    submit(shard, Page("http://a.test/p", "puffin cliff"));
    submit(shard, Page("http://a.test/p", "", 404));
    CHECK(Hits(shard, "puffin") == kPage);            // one 404 may be a slip
    submit(shard, Page("http://a.test/p", "", 200));  // a 200 between: counting starts again
    submit(shard, Page("http://a.test/p", "puffin cliff"));
    submit(shard, Page("http://a.test/p", "", 404));
    CHECK(Hits(shard, "puffin") == kPage);
    submit(shard, Page("http://a.test/p", "", 410));
    CHECK(Hits(shard, "puffin") == kNone);
    v1::QueueServerStats stats;
    shard.FillStats(&stats);
    CHECK(stats.index_pages_removed() == 1);
  }
  store->reset();
  store = QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  auto shard = CrawlShard::Load(store->get(), 9, &clock);
  REQUIRE(shard.ok());
  CHECK(Hits(**shard, "puffin") == kNone);
  submit(**shard, Page("http://a.test/p", "puffin cliff"));  // same content: an unchanged revisit
  CHECK(Hits(**shard, "puffin") == kPage);
  CHECK(Hits(**shard, "cliff") == kPage);
  // Moved for good: out at once.
  v1::FetchRecord moved = Page("http://a.test/p", "", 301);
  submit(**shard, moved);
  CHECK(Hits(**shard, "puffin") == kNone);
  // A changed page comes back with its new words only.
  submit(**shard, Page("http://a.test/p", "gannet cliff"));
  CHECK(Hits(**shard, "gannet") == kPage);
  CHECK(Hits(**shard, "puffin") == kNone);
  CHECK(Hits(**shard, "cliff") == kPage);
  // Now noindex: out.
  v1::FetchRecord noindex = Page("http://a.test/p", "gannet cliff");
  noindex.set_noindex(true);
  submit(**shard, noindex);
  CHECK(Hits(**shard, "gannet") == kNone);
  shard->reset();
  store->reset();
}

TEST_CASE("RemovePage and RevivePage change only a page indexed and in the other state", "[unit]") {
  SearchIndex index({}, nullptr);
  REQUIRE(index.AddPage(Page("http://a.test/p", "lapwing field")));
  CHECK(Hits(index, "lapwing") == kPage);
  CHECK(index.RemovePage("http://a.test/p"));
  CHECK_FALSE(index.RemovePage("http://a.test/p"));
  CHECK_FALSE(index.RemovePage("http://a.test/never-indexed"));
  CHECK(Hits(index, "lapwing") == kNone);
  CHECK(index.RevivePage("http://a.test/p"));
  CHECK(Hits(index, "lapwing") == kPage);
}
