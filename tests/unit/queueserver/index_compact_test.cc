// Compaction of dead documents (search_index.h SearchIndex::Compact,
// queueserver/index/index_compact.cc): many versions of one URL over
// several partitions leave, after their merges and a compaction, only the
// records the live pages need; searches answer the same before and after,
// from a snapshot taken before, and after a reload; a version seen again
// after its compaction is found once.
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
#include "queueserver/index/search_index.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/indexed_page.h"
#include "tests/unit/support/temp_dir.h"

using namespace crawl::queueserver;
namespace v1 = crawl::v1;

namespace {

v1::FetchRecord Page(const std::string& url, const std::string& body) {
  return crawl::test_support::IndexedPage(url, body);
}

std::vector<std::string> Urls(const SearchOutcome& out) {
  std::vector<std::string> urls;
  for (const SearchHit& h : out.hits) urls.push_back(h.url);
  return urls;
}

std::vector<std::string> Hits(SearchIndex& index, const std::string& text) {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery(text, en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  auto out = index.Search(*q, {}, clock, en);
  REQUIRE(out.ok());
  return Urls(*out);
}

// The stored records a compaction shrinks: summaries, doc map entries,
// their places, and postings of merged partitions.
struct Counts {
  size_t docs = 0, entries = 0, places = 0, postings = 0;
  bool operator==(const Counts&) const = default;
};
Counts Stored(IndexJournal* journal) {
  Counts c;
  auto count = [&](IndexFamily f, const std::string& prefix, size_t* n) {
    REQUIRE(journal->ScanIndex(f, prefix, [&](std::string_view, std::string_view) { return ++*n > 0; }).ok());
  };
  count(IndexFamily::kDocs, "", &c.docs);
  count(IndexFamily::kDocMap, "a", &c.entries);
  count(IndexFamily::kDocMap, "r", &c.places);
  REQUIRE(journal
              ->ScanIndex(IndexFamily::kPostings, "m",
                          [&](std::string_view, std::string_view v) {
                            BlockedReader r;
                            for (bool any = r.Open(v) && r.Seek(0); any; any = r.Next()) ++c.postings;
                            return !r.corrupt();
                          })
              .ok());
  return c;
}

const std::vector<std::string> kQueries = {"common",  "harbour", "alpha",  "charlie",        "echo",
                                           "foxtrot", "otter",   "ripple", "common harbour", "bravo"};
const std::vector<std::string> kVersions = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"};

std::map<std::string, std::vector<std::string>> Answers(SearchIndex& index) {
  std::map<std::string, std::vector<std::string>> out;
  for (const std::string& q : kQueries) out[q] = Hits(index, q);
  return out;
}

void CheckCompaction(IndexJournal* journal, const std::function<void()>& commit) {
  IndexOptions o;
  o.partition_docs = 2;
  IndexOptions never = o;
  never.compact_share = 1e9;  // merges only: their drop is seen alone
  SearchIndex index(never, journal);
  // Partitions: {q, p1} {p2, p3} {p4, p5} {p6, r}, each merged after the
  // request that closed it, as the crawl shard does.
  auto add = [&](const std::string& url, const std::string& body) {
    REQUIRE(index.AddPage(Page(url, body)));
    index.Flush();
    commit();
    if (index.merge_pending()) REQUIRE(index.MergeClosed().ok());
  };
  add("http://a.test/q", "common otter quay");
  for (const std::string& w : kVersions) add("http://a.test/p", "common harbour " + w);
  add("http://a.test/r", "common ripple");
  REQUIRE(index.partitions() == 5);
  CHECK_FALSE(index.merge_pending());
  // At their merges p2 and p4 were dead (p3, p5 live then): dropped. p1,
  // p3 and p5 died after theirs.
  CHECK(Stored(journal) == Counts{6, 6, 6, 3 + 3 * 3 + 3 + 2});
  CHECK(index.compacted() == 2);
  CHECK(index.garbage() == 3);
  const auto before = Answers(index);
  CHECK(before.at("harbour") == std::vector<std::string>{"http://a.test/p"});
  CHECK(before.at("foxtrot") == std::vector<std::string>{"http://a.test/p"});
  CHECK(before.at("alpha").empty());
  CHECK(before.at("common").size() == 3);
  crawl::text::Stemmer en("en");
  auto early = index.Prepare(*ParseQuery("common harbour", en));
  REQUIRE(early.ok());

  // A reload with the default share: 3 dead of 6 live is due; the merge
  // call compacts every merged partition to the live pages q, p6, r.
  SearchIndex compacting(o, journal);
  REQUIRE(compacting.Load().ok());
  CHECK(compacting.garbage() == 3);
  REQUIRE(compacting.merge_pending());
  REQUIRE(compacting.MergeClosed().ok());
  CHECK_FALSE(compacting.merge_pending());
  CHECK(Stored(journal) == Counts{3, 3, 3, 3 + 3 + 2});
  CHECK(compacting.compacted() == 5);
  CHECK(Answers(compacting) == before);
  crawl::ManualClock clock;
  auto old = SearchIndex::Run(**early, {}, clock, en);
  REQUIRE(old.ok());
  CHECK(Urls(*old) == before.at("common harbour"));
  {
    SearchIndex reloaded(o, journal);
    REQUIRE(reloaded.Load().ok());
    CHECK_FALSE(reloaded.merge_pending());
    CHECK(Answers(reloaded) == before);
  }

  // p1's text again: its document was compacted, so it is indexed anew,
  // and found once.
  REQUIRE(compacting.AddPage(Page("http://a.test/p", "common harbour alpha")));
  compacting.Flush();
  commit();
  CHECK(Hits(compacting, "alpha") == std::vector<std::string>{"http://a.test/p"});
  CHECK(Hits(compacting, "foxtrot").empty());
  auto common = Hits(compacting, "common");
  CHECK(std::count(common.begin(), common.end(), "http://a.test/p") == 1);
  SearchIndex reloaded(o, journal);
  REQUIRE(reloaded.Load().ok());
  CHECK(Hits(reloaded, "alpha") == std::vector<std::string>{"http://a.test/p"});
  CHECK(Hits(reloaded, "harbour") == std::vector<std::string>{"http://a.test/p"});
}

}  // namespace

TEST_CASE("dead documents are compacted at merges and again once enough wait", "[unit]") {
  SECTION("in memory") {
    MemoryIndexJournal journal;
    CheckCompaction(&journal, [] {});
  }
  SECTION("in the queue store") {
    crawl::test_support::TempDir dir;
    auto store = QueueStore::Open(dir.path.string(), {});
    REQUIRE(store.ok());
    auto writer = (*store)->NewWriter(5);
    CheckCompaction(writer.get(), [&] { REQUIRE(writer->Commit().ok()); });
    writer.reset();
    store->reset();
  }
}

TEST_CASE("compaction keeps a removed page's last version for its revival", "[unit]") {
  IndexOptions o;
  o.partition_docs = 1;
  o.compact_share = 0;  // compact at every merge call with garbage
  MemoryIndexJournal journal;
  SearchIndex index(o, &journal);
  REQUIRE(index.AddPage(Page("http://a.test/p", "kestrel moor")));
  REQUIRE(index.AddPage(Page("http://a.test/p", "kestrel fen")));
  index.Flush();
  REQUIRE(index.RemovePage("http://a.test/p"));
  index.Flush();
  REQUIRE(index.MergeClosed().ok());
  CHECK(Stored(&journal).docs == 1);  // "moor" compacted, "fen" kept
  CHECK(Hits(index, "kestrel").empty());
  REQUIRE(index.RevivePage("http://a.test/p"));
  index.Flush();
  CHECK(Hits(index, "fen") == std::vector<std::string>{"http://a.test/p"});
  CHECK(Hits(index, "moor").empty());
}

TEST_CASE("a crawl shard compacts its replaced versions after its commits, across a reopen", "[unit]") {
  crawl::test_support::TempDir dir;
  crawl::ManualClock clock;
  v1::CrawlInfo crawl;
  crawl.set_crawl_id(9);
  crawl.set_state(v1::CRAWL_STATE_RUNNING);
  crawl.mutable_params()->set_index_partition_docs(2);
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
  auto search = [](CrawlShard& shard, const std::string& text) {
    v1::SearchRequest sr;
    sr.set_query(text);
    v1::SearchResponse out;
    REQUIRE(shard.Search(sr, &out).ok());
    std::vector<std::string> urls;
    for (const auto& r : out.results()) urls.push_back(r.url());
    std::sort(urls.begin(), urls.end());
    return urls;
  };
  const std::vector<std::string> both{"http://a.test/p", "http://a.test/q"};
  auto store = QueueStore::Open(dir.path.string(), {});
  REQUIRE(store.ok());
  {
    CrawlShard shard(crawl, &clock, (*store)->NewWriter(9));
    REQUIRE(shard.Create().ok());
    submit(shard, Page("http://a.test/q", "common otter"));
    // Eight versions: each replaced one is compacted at its partition's
    // merge, or at the next commit (one dead of three live passes 25%).
    for (int v = 1; v <= 8; ++v) submit(shard, Page("http://a.test/p", "common version" + std::to_string(v)));
    v1::QueueServerStats stats;
    shard.FillStats(&stats);
    CHECK(stats.index_documents() == 9);
    CHECK(stats.index_documents_compacted() == 7);
    CHECK(search(shard, "common") == both);
  }
  {
    auto writer = (*store)->NewWriter(9);
    CHECK(Stored(writer.get()).docs == 2);
    CHECK(Stored(writer.get()).entries == 2);
  }
  auto shard = CrawlShard::Load(store->get(), 9, &clock);
  REQUIRE(shard.ok());
  v1::QueueServerStats stats;
  (*shard)->FillStats(&stats);
  CHECK(stats.index_documents_compacted() == 7);
  CHECK(search(**shard, "common") == both);
  CHECK(search(**shard, "version8") == std::vector<std::string>{"http://a.test/p"});
  CHECK(search(**shard, "version7").empty());
}
