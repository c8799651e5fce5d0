// The search index's partitions and durability (queueserver/index/
// search_index.h, docs/DESIGN.md §7): partitions closing and merging, an index
// restored from its journal or its queue store, prepared searches beside
// writes, and the indexer boost across a reload.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <thread>

#include "common/base/clock.h"
#include "common/base/hash.h"
#include "common/text/stemmer.h"
#include "common/text/tokenizer.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/index/doc_summary.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/search_hit.h"
#include "queueserver/index/search_index.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/queueserver/search_index_test_util.h"

using namespace crawl::queueserver;
namespace v1 = crawl::v1;
using namespace crawl::queueserver::index_test;  // NOLINT: the tests' helpers

TEST_CASE("partitions close at the setting and stay searchable", "[unit]") {
  IndexOptions o;
  o.partition_docs = 2;
  MemoryIndexJournal journal;
  SearchIndex index(o, &journal);
  for (int i = 0; i < 5; ++i) {
    REQUIRE(index.AddPage(
        Page("http://p.test/" + std::to_string(i), "Heron", "heron number " + std::to_string(i))));
    index.Flush();
  }
  CHECK(index.partitions() == 3);
  // Closed partitions not merged yet are searched from their chunks ...
  CHECK(index.merge_pending());
  const auto before = Urls(index, "heron");
  CHECK(before.size() == 5);
  // ... and after the merge from one blocked list per term, which replaces
  // the chunks; the answer is the same.
  REQUIRE(index.MergeClosed().ok());
  CHECK_FALSE(index.merge_pending());
  CHECK(Urls(index, "heron") == before);
  size_t ranked = 0, chunks = 0, merged = 0;
  for (const auto& [k, v] : journal.families[1]) ranked += k[0] == 'r';
  for (const auto& [k, v] : journal.families[2]) (k[0] == 'c' ? chunks : merged) += 1;
  // The closed partitions have their ranked doc map stored ('r' keys).
  CHECK(ranked == 4);
  // The active partition's one document: one segment (its request's
  // postings); each closed partition one merged list for "heron", "number"
  // and each of its two digits, and the title list of "heron".
  CHECK(chunks == 1);
  CHECK(merged == 2 * 5);
}

TEST_CASE("an index restored from its journal answers the same", "[unit]") {
  IndexOptions o;
  o.partition_docs = 3;
  MemoryIndexJournal journal;
  SearchIndex index(o, &journal);
  AddCorpus(index);
  v1::DiscoveredLink link;
  link.set_url("http://b.test/4");
  link.set_anchor_text("red apple boats");
  REQUIRE(index.AddLink(link, "en"));
  index.Flush();
  REQUIRE(index.MergeClosed().ok());
  SearchIndex restored(o, &journal);
  REQUIRE(restored.Load().ok());
  CHECK(restored.documents() == index.documents());
  CHECK(restored.partitions() == 2);
  for (const char* q : {"red apple", "\"red car\"", "boats", "pie | float", "apple site:b.test"}) {
    INFO(q);
    CHECK(Urls(restored, q) == Urls(index, q));
  }
  CHECK(Urls(restored, "red apple").size() == 4);
  // Corrupt merged postings (partition 0) are an error of the query that
  // reads them; a corrupt segment of the active partition one at load, as
  // is a corrupt totals record.
  crawl::text::Stemmer en("en");
  crawl::ManualClock clock;
  {
    MemoryIndexJournal bad = journal;
    for (auto& [k, v] : bad.families[2]) {
      if (k[0] == 'm') v = std::string(5, '\xff');
    }
    SearchIndex broken(o, &bad);
    REQUIRE(broken.Load().ok());
    auto out = broken.Search(*ParseQuery("red | apple | boats", en), {}, clock, en);
    CHECK_FALSE(out.ok());
  }
  {
    MemoryIndexJournal bad = journal;
    for (auto& [k, v] : bad.families[2]) {
      if (k[0] == 'c') v = std::string(5, '\xff');
    }
    SearchIndex broken(o, &bad);
    CHECK_FALSE(broken.Load().ok());
  }
  MemoryIndexJournal bad = journal;
  bad.families[1]["s"] = "\xff";
  SearchIndex broken(o, &bad);
  CHECK_FALSE(broken.Load().ok());
}

TEST_CASE("a queue server's index survives a reopen of its store", "[unit]") {
  std::random_device rd;
  const auto dir = std::filesystem::temp_directory_path() / ("search_index_test." + std::to_string(rd()));
  crawl::ManualClock clock;
  v1::CrawlInfo crawl;
  crawl.set_crawl_id(7);
  crawl.set_state(v1::CRAWL_STATE_RUNNING);
  crawl.mutable_params()->set_index_partition_docs(2);
  {
    auto store = QueueStore::Open(dir.string(), {});
    REQUIRE(store.ok());
    CrawlShard shard(crawl, &clock, (*store)->NewWriter(7));
    REQUIRE(shard.Create().ok());
    v1::SubmitResultsRequest req;
    req.set_crawl_id(7);
    req.set_fetcher_id("f");
    req.set_schedule_id(1);
    *req.add_records() = Page("http://a.test/1", "Red apples", "the red apple pie");
    *req.add_records() = Page("http://a.test/2", "Green", "green apple and a red car");
    *req.add_records() = Page("http://b.test/3", "Cars", "a red car");
    v1::DiscoveredLink* l = req.add_links();
    l->set_url("http://a.test/9");
    l->set_referrer("http://a.test/1");
    l->set_anchor_text("apple orchard");
    v1::SubmitResultsResponse resp;
    REQUIRE(shard.SubmitResults(req, &resp).ok());
    // A retried batch is not indexed twice.
    REQUIRE(shard.SubmitResults(req, &resp).ok());
    CHECK(resp.duplicate());
    CHECK(shard.index().documents() == 4);
  }
  auto store = QueueStore::Open(dir.string(), {});
  REQUIRE(store.ok());
  auto shard = CrawlShard::Load(store->get(), 7, &clock);
  REQUIRE(shard.ok());
  v1::QueueServerStats stats;
  (*shard)->FillStats(&stats);
  CHECK(stats.index_documents() == 4);
  v1::SearchRequest sr;
  sr.set_query("apple");
  v1::SearchResponse out;
  REQUIRE((*shard)->Search(sr, &out).ok());
  CHECK(out.results_size() == 3);
  for (const auto& r : out.results()) {
    CHECK(r.score().total() ==
          Approx(r.score().doc_rank() + r.score().bonus() + r.score().relevance() + r.score().proximity()));
  }
  sr.set_query("\"");
  CHECK_FALSE((*shard)->Search(sr, &out).ok());
  shard->reset();
  store->reset();
  std::filesystem::remove_all(dir);
}

TEST_CASE("closed partitions not merged yet survive a reload and merge then", "[unit]") {
  IndexOptions o;
  o.partition_docs = 2;
  MemoryIndexJournal journal;
  SearchIndex index(o, &journal);
  for (int i = 0; i < 7; ++i) {
    REQUIRE(index.AddPage(
        Page("http://p.test/" + std::to_string(i), "Egret", "egret wader " + std::to_string(i))));
    index.Flush();
  }
  // As after a kill between the commit that closed partitions and their merge.
  const auto before = Urls(index, "egret wader");
  CHECK(before.size() == 7);
  SearchIndex reloaded(o, &journal);
  REQUIRE(reloaded.Load().ok());
  CHECK(reloaded.documents() == 7);
  CHECK(reloaded.merge_pending());
  CHECK(Urls(reloaded, "egret wader") == before);
  REQUIRE(reloaded.MergeClosed().ok());
  CHECK(Urls(reloaded, "egret wader") == before);
  // Term statistics stored by the merge plus the active partition's segment
  // give the same scores after another reload.
  SearchIndex again(o, &journal);
  REQUIRE(again.Load().ok());
  CHECK_FALSE(again.merge_pending());
  crawl::text::Stemmer en("en");
  crawl::ManualClock clock;
  auto a = reloaded.Search(*ParseQuery("egret", en), {}, clock, en);
  auto b = again.Search(*ParseQuery("egret", en), {}, clock, en);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  REQUIRE(a->hits.size() == b->hits.size());
  for (size_t i = 0; i < a->hits.size(); ++i) {
    CHECK(a->hits[i].url == b->hits[i].url);
    CHECK(a->hits[i].relevance == Approx(b->hits[i].relevance));
  }
}

// The service runs a search's walk outside its lock (queueserver/service.cc):
// a prepared search must read nothing of the index, only its own copies and
// a snapshot of the store.
TEST_CASE("a prepared search answers as of Prepare while the index takes documents and merges partitions",
          "[unit]") {
  std::random_device rd;
  const auto dir = std::filesystem::temp_directory_path() / ("search_index_test." + std::to_string(rd()));
  auto store = QueueStore::Open(dir.string(), {});
  REQUIRE(store.ok());
  auto writer = (*store)->NewWriter(3);
  IndexOptions o;
  o.partition_docs = 3;
  auto index = std::make_unique<SearchIndex>(o, writer.get());
  auto add = [&](int i) {
    REQUIRE(index->AddPage(Page("http://h.test/" + std::to_string(i), "Heron " + std::to_string(i),
                                "a grey heron fishing " + std::to_string(i))));
    index->Flush();
    REQUIRE(writer->Commit().ok());
    if (index->merge_pending()) REQUIRE(index->MergeClosed().ok());
  };
  for (int i = 0; i < 4; ++i) add(i);  // partition 0 closed and merged, 1 active
  crawl::text::Stemmer en("en");
  crawl::ManualClock clock;
  auto query = ParseQuery("grey heron", en);
  REQUIRE(query.ok());
  auto prepared = index->Prepare(*query);
  REQUIRE(prepared.ok());
  auto summarise = [](const SearchOutcome& out) {
    std::vector<std::pair<std::string, double>> v;
    for (const SearchHit& h : out.hits) v.emplace_back(h.url, h.total());
    return v;
  };
  auto before = SearchIndex::Run(**prepared, {}, clock, en);
  REQUIRE(before.ok());
  REQUIRE(before->hits.size() == 4);
  const auto expected = summarise(*before);

  // Runs concurrently with indexing that reorders the active partition's
  // doc map, closes it, merges it (deleting its segments) and fills another.
  std::atomic<bool> differed = false, failed = false;
  std::thread searcher([&] {
    crawl::text::Stemmer own("en");
    for (int k = 0; k < 200; ++k) {
      auto out = SearchIndex::Run(**prepared, {}, clock, own);
      if (!out.ok()) {
        failed = true;
        return;
      }
      if (summarise(*out) != expected) differed = true;
    }
  });
  for (int i = 4; i < 12; ++i) add(i);
  searcher.join();
  CHECK_FALSE(failed);
  CHECK_FALSE(differed);
  CHECK(index->partitions() == 5);  // 4 closed and merged, an empty active one
  // A search prepared now sees the new documents; the old one still does
  // not, even with the index gone.
  CHECK(Urls(*index, "grey heron").size() == 12);
  index.reset();
  writer.reset();
  auto after = SearchIndex::Run(**prepared, {}, clock, en);
  REQUIRE(after.ok());
  CHECK(summarise(*after) == expected);
  prepared->reset();
  store->reset();
  std::filesystem::remove_all(dir);
}

TEST_CASE("a search sees the request's own uncommitted index writes", "[unit]") {
  std::random_device rd;
  const auto dir = std::filesystem::temp_directory_path() / ("search_index_test." + std::to_string(rd()));
  auto store = QueueStore::Open(dir.string(), {});
  REQUIRE(store.ok());
  auto writer = (*store)->NewWriter(4);
  {
    SearchIndex index({}, writer.get());
    REQUIRE(index.AddPage(Page("http://k.test/1", "Kingfisher", "a blue kingfisher")));
    index.Flush();
    REQUIRE(writer->Commit().ok());
    REQUIRE(index.AddPage(Page("http://k.test/2", "Kingfisher dives", "the kingfisher dives")));
    // Not committed: the snapshot lays the pending batch's index writes
    // over the store (the doc map entry and summary of page 2).
    CHECK(Urls(index, "kingfisher") == std::vector<std::string>{"http://k.test/1", "http://k.test/2"});
  }
  writer.reset();
  store->reset();
  std::filesystem::remove_all(dir);
}

TEST_CASE("a page's indexer boost raises its doc rank and survives a reload", "[unit]") {
  MemoryIndexJournal journal;
  SearchIndex index({}, &journal);
  REQUIRE(index.AddPage(Page("http://a.test/plain", "Heron", "heron marsh")));
  REQUIRE(index.AddPage(Page("http://b.test/boosted", "Heron", "heron marsh"), 1.5));
  REQUIRE(index.AddPage(Page("http://c.test/nan", "Heron", "heron marsh"), std::nan("")));
  index.Flush();
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("heron", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  for (SearchIndex* searched : {&index, static_cast<SearchIndex*>(nullptr)}) {
    SearchIndex restored({}, &journal);
    if (!searched) {
      REQUIRE(restored.Load().ok());
      searched = &restored;
    }
    SearchOutcome out = *searched->Search(*q, {}, clock, en);
    REQUIRE(out.hits.size() == 3);
    std::map<std::string, double> rank;
    for (const auto& h : out.hits) rank[h.url] = h.doc_rank;
    CHECK(out.hits[0].url == "http://b.test/boosted");
    // Without the boost the earlier page has the higher doc rank.
    CHECK(rank["http://a.test/plain"] >= rank["http://c.test/nan"]);
    CHECK(rank["http://b.test/boosted"] > rank["http://a.test/plain"] + 1.0);
  }
}
