// Index and query walk (queueserver/index/search_index.h) and its durability
// through the queue store (DESIGN.md sections 7 and 8).
#include "queueserver/index/search_index.h"

#include <limits>
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include "common/clock.h"
#include "common/hash.h"
#include "common/text/stemmer.h"
#include "common/text/tokenizer.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/index/doc_summary.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/search_hit.h"
#include "queueserver/store/queue_store.h"

using namespace crawl::queueserver;
namespace v1 = crawl::v1;

namespace {

// A page record as the fetcher ships it: title words then body words, stemmed
// with the English stemmer; the body is one description sentence.
v1::FetchRecord Page(const std::string& url, const std::string& title, const std::string& body) {
  crawl::text::Stemmer en("en");
  v1::FetchRecord r;
  r.set_url(url);
  r.set_kind(v1::URL_KIND_PAGE);
  r.set_status(200);
  r.set_title(title);
  r.set_language("en");
  r.set_text_hash(crawl::hash::Hash8(title + " " + body));
  v1::MiniIndex* mi = r.mutable_mini_index();
  mi->set_stem_language("english");
  std::map<std::string, v1::IndexTerm*> terms;
  uint32_t pos = 0;
  auto add = [&](std::string_view w, bool in_title) {
    std::string stem(en.Stem(w));
    v1::IndexTerm*& t = terms[stem];
    if (!t) {
      t = mi->add_terms();
      t->set_term(stem);
      t->set_term_id(crawl::hash::Hash8(stem));
    }
    t->add_positions(pos++);
    if (in_title) {
      t->set_title_count(t->title_count() + 1);
    } else {
      t->set_body_count(t->body_count() + 1);
    }
  };
  crawl::text::ForEachToken(title, [&](std::string_view w) { add(w, true); });
  mi->set_title_tokens(pos);
  const uint32_t body_start = pos;
  crawl::text::ForEachToken(body, [&](std::string_view w) { add(w, false); });
  mi->set_token_count(pos);
  v1::DescriptionSentence* d = r.add_description();
  d->set_text(body);
  d->set_weight(1.0f);
  d->set_first_position(body_start);
  d->set_end_position(pos);
  return r;
}

std::vector<std::string> Urls(SearchIndex& index, const std::string& text, uint32_t n = 200) {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery(text, en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOptions o;
  o.max_matches = n;
  std::vector<std::string> urls;
  auto out = index.Search(*q, o, clock, en);
  REQUIRE(out.ok());
  for (const SearchHit& h : out->hits) urls.push_back(h.url);
  std::sort(urls.begin(), urls.end());
  return urls;
}

void AddCorpus(SearchIndex& index) {
  CHECK(index.AddPage(Page("http://a.test/1", "Red apples", "the red apple pie is sweet and red")));
  CHECK(index.AddPage(Page("http://a.test/2", "Green", "green apple and a red car")));
  CHECK(index.AddPage(Page("http://b.test/3", "Cars", "a fast red car drives by the apple tree")));
  CHECK(index.AddPage(Page("http://b.test/4", "Boats", "boats float on the water")));
}

}  // namespace

TEST_CASE("conjunctive queries return only documents with every term", "[unit]") {
  SearchIndex index({}, nullptr);
  AddCorpus(index);
  CHECK(index.documents() == 4);
  CHECK(Urls(index, "red apple") ==
        std::vector<std::string>{"http://a.test/1", "http://a.test/2", "http://b.test/3"});
  CHECK(Urls(index, "apple pie") == std::vector<std::string>{"http://a.test/1"});
  CHECK(Urls(index, "boats car").empty());
  CHECK(Urls(index, "unknownword").empty());
}

TEST_CASE("a phrase matches only consecutive positions", "[unit]") {
  SearchIndex index({}, nullptr);
  AddCorpus(index);
  CHECK(Urls(index, "\"red car\"") == std::vector<std::string>{"http://a.test/2", "http://b.test/3"});
  CHECK(Urls(index, "\"red apple\"") == std::vector<std::string>{"http://a.test/1"});
  CHECK(Urls(index, "\"apple red\"").empty());
}

TEST_CASE("alternatives with | and site: restrictions", "[unit]") {
  SearchIndex index({}, nullptr);
  AddCorpus(index);
  CHECK(Urls(index, "pie | boats") == std::vector<std::string>{"http://a.test/1", "http://b.test/4"});
  CHECK(Urls(index, "red site:b.test") == std::vector<std::string>{"http://b.test/3"});
  CHECK(Urls(index, "red site:test").size() == 3);  // subdomains of "test"
  CHECK(Urls(index, "red site:c.test").empty());
}

TEST_CASE("results carry score parts that add up, best first, at most n", "[unit]") {
  SearchIndex index({}, nullptr);
  AddCorpus(index);
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("red apple", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOutcome out = *index.Search(*q, {}, clock, en);
  REQUIRE(out.hits.size() == 3);
  CHECK(out.matches == 3);
  for (size_t i = 0; i < out.hits.size(); ++i) {
    const SearchHit& h = out.hits[i];
    CHECK(h.relevance > 0);
    CHECK(h.proximity > 0);
    if (i > 0) CHECK(out.hits[i - 1].total() >= h.total());
  }
  // The page with both words in the title and "red apple" adjacent wins.
  CHECK(out.hits[0].url == "http://a.test/1");
  CHECK(out.hits[0].bonus > 0);  // title words
  CHECK(out.hits[0].title == "Red apples");
  CHECK(out.hits[0].snippet.find("apple pie") != std::string::npos);
  SearchOptions one;
  one.max_matches = 1;
  CHECK(index.Search(*q, one, clock, en)->hits.size() == 1);
}

TEST_CASE("overlapping description sentences add their weights where they overlap", "[unit]") {
  // One page with sentences [b, b+6) weight 1 and [b+3, b+9) weight 2 must
  // score as the same page with the overlap spelled out: [b, b+3) 1,
  // [b+3, b+6) 3, [b+6, b+9) 2. Bad sentences (empty, reversed, not finite)
  // count for nothing.
  const std::string body = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
  auto relevance = [&](const std::vector<std::tuple<uint32_t, uint32_t, float>>& sentences) {
    SearchIndex index({}, nullptr);
    AddCorpus(index);  // other pages, so a term's relevance is not at its bound
    v1::FetchRecord r = Page("http://c.test/1", "Title", body);
    const uint32_t b = r.mini_index().title_tokens();
    r.clear_description();
    for (const auto& [first, end, weight] : sentences) {
      v1::DescriptionSentence* d = r.add_description();
      d->set_text(body);
      d->set_first_position(b + first);
      d->set_end_position(b + end);
      d->set_weight(weight);
    }
    REQUIRE(index.AddPage(r));
    crawl::text::Stemmer en("en");
    std::vector<double> scores;
    for (const char* word : {"alpha", "delta", "zeta", "eta", "iota", "kappa"}) {
      auto q = ParseQuery(word, en);
      REQUIRE(q.ok());
      crawl::ManualClock clock;
      auto out = index.Search(*q, {}, clock, en);
      REQUIRE(out.ok());
      REQUIRE(out->hits.size() == 1);
      scores.push_back(out->hits[0].relevance);
    }
    return scores;
  };
  const auto overlapping = relevance({{0, 6, 1.0f}, {3, 9, 2.0f}});
  const auto spelled_out = relevance({{0, 3, 1.0f}, {3, 6, 3.0f}, {6, 9, 2.0f}});
  const auto with_bad = relevance({{3, 9, 2.0f}, {5, 5, 7.0f}, {8, 2, 7.0f}, {0, 6, 1.0f},
                                   {1, 4, std::numeric_limits<float>::quiet_NaN()},
                                   {1, 4, std::numeric_limits<float>::infinity()}});
  const auto plain = relevance({});
  REQUIRE(overlapping.size() == spelled_out.size());
  for (size_t i = 0; i < overlapping.size(); ++i) {
    INFO(i);
    CHECK(overlapping[i] == Approx(spelled_out[i]));
    CHECK(with_bad[i] == Approx(overlapping[i]));
  }
  CHECK(overlapping[1] > plain[1]);  // "delta" (b+3) is in both sentences
  CHECK(overlapping[5] == Approx(plain[5]));  // "kappa" (b+9) in none
}

// Search walks the pages whose title holds every query term first, then
// fills up to n in doc-rank order: a page last in doc-rank order whose title
// matches is found although n matches come before it in the ordinary walk.
TEST_CASE("title matches are walked first, then the doc-rank walk fills up to n", "[unit]") {
  for (uint32_t partition_docs : {100u, 2u}) {
    IndexOptions o;
    o.partition_docs = partition_docs;
    SearchIndex index(o, nullptr);
    // Arrival order is doc-rank order: /1 first, /4 (the title page) last.
    REQUIRE(index.AddPage(Page("http://a.test/1", "Guide", "python tutorial on page one")));
    REQUIRE(index.AddPage(Page("http://a.test/2", "Guide", "python tutorial on page two")));
    REQUIRE(index.AddPage(Page("http://a.test/3", "Guide", "python tutorial on page three")));
    REQUIRE(index.AddPage(Page("http://a.test/4", "Python tutorial", "the tutorial")));
    // A title holding only one of the terms is not a title match.
    REQUIRE(index.AddPage(Page("http://a.test/5", "Python", "a tutorial")));
    REQUIRE(index.MergeClosed().ok());
    CAPTURE(partition_docs);
    // n = 2: the title page, then the first page in doc-rank order.
    CHECK(Urls(index, "python tutorial", 2) == std::vector<std::string>{"http://a.test/1", "http://a.test/4"});
    // n = 1: the title page alone.
    CHECK(Urls(index, "python tutorial", 1) == std::vector<std::string>{"http://a.test/4"});
    // Every match once (no page twice from the two walks).
    CHECK(Urls(index, "python tutorial", 10) ==
          std::vector<std::string>{"http://a.test/1", "http://a.test/2", "http://a.test/3", "http://a.test/4",
                                   "http://a.test/5"});
    // Without a title match the walk is the doc-rank walk alone.
    CHECK(Urls(index, "page tutorial", 2) == std::vector<std::string>{"http://a.test/1", "http://a.test/2"});
  }
}

TEST_CASE("noindex pages are not indexed; nosnippet pages get no snippet", "[unit]") {
  SearchIndex index({}, nullptr);
  v1::FetchRecord hidden = Page("http://a.test/h", "Secret", "hidden zebra");
  hidden.set_noindex(true);
  CHECK_FALSE(index.AddPage(hidden));
  v1::FetchRecord quiet = Page("http://a.test/q", "Quiet", "quiet zebra grazing");
  quiet.set_nosnippet(true);
  CHECK(index.AddPage(quiet));
  v1::FetchRecord error = Page("http://a.test/e", "Error", "zebra error");
  error.set_status(404);
  CHECK_FALSE(index.AddPage(error));
  // The same page (same URL and text) again is not a new document.
  CHECK_FALSE(index.AddPage(quiet));
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("zebra", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOutcome out = *index.Search(*q, {}, clock, en);
  REQUIRE(out.hits.size() == 1);
  CHECK(out.hits[0].url == "http://a.test/q");
  CHECK(out.hits[0].snippet.empty());
}

TEST_CASE("a link is a small document of its target, without stop words", "[unit]") {
  SearchIndex index({}, nullptr);
  v1::DiscoveredLink link;
  link.set_url("http://c.test/target");
  link.set_referrer("http://a.test/1");
  link.set_anchor_text("Click here for Zebra crossings");
  CHECK(index.AddLink(link, "en"));
  CHECK_FALSE(index.AddLink(link, "en"));  // same target and text: same doc id
  v1::DiscoveredLink only_stop = link;
  only_stop.set_anchor_text("click here");
  CHECK_FALSE(index.AddLink(only_stop, "en"));
  v1::DiscoveredLink sitemap = link;
  sitemap.set_source("sitemap");
  sitemap.set_anchor_text("zebra map");
  CHECK_FALSE(index.AddLink(sitemap, "en"));
  CHECK(Urls(index, "zebra crossing") == std::vector<std::string>{"http://c.test/target"});
  CHECK(Urls(index, "click").empty());
  CHECK(Urls(index, "here").empty());
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("zebra", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOutcome out = *index.Search(*q, {}, clock, en);
  REQUIRE(out.hits.size() == 1);
  CHECK(out.hits[0].link);
  CHECK(out.hits[0].title == "Click here for Zebra crossings");
}

TEST_CASE("a linked page ranks above an unlinked one (group score)", "[unit]") {
  SearchIndex index({}, nullptr);
  REQUIRE(index.AddPage(Page("http://a.test/x", "Otter", "otter river")));
  REQUIRE(index.AddPage(Page("http://a.test/y", "Otter", "otter river")));
  for (const char* anchor : {"swan lake", "swan river", "swan song"}) {
    v1::DiscoveredLink l;
    l.set_url("http://a.test/y");
    l.set_anchor_text(anchor);
    REQUIRE(index.AddLink(l, "en"));
  }
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("otter", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOutcome out = *index.Search(*q, {}, clock, en);
  REQUIRE(out.hits.size() == 2);
  // Of 5 documents, x (arrival 0) scores 5; y's group (arrivals 1-4) scores
  // 4 + 3 + 2 + 1 = 10, so y's page is first in the doc map.
  CHECK(out.hits[0].url == "http://a.test/y");
  CHECK(out.hits[0].doc_rank > out.hits[1].doc_rank);
}

// Yioop's DOC_RANK is log10 of the documents after a document, counting
// the later partitions as well as later places in its own: with partitions
// of 2, the first page keeps its lead over all four that came after it.
TEST_CASE("doc rank counts the documents of later partitions too", "[unit]") {
  IndexOptions o;
  o.partition_docs = 2;
  SearchIndex index(o, nullptr);
  for (int i = 1; i <= 5; ++i) {
    const std::string n = std::to_string(i);
    REQUIRE(index.AddPage(Page("http://a.test/" + n, "Page " + n, "zebra crossing number " + n)));
  }
  REQUIRE(index.MergeClosed().ok());
  REQUIRE(index.partitions() == 3);
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("zebra", en);
  REQUIRE(q.ok());
  crawl::ManualClock clock;
  SearchOutcome out = *index.Search(*q, {}, clock, en);
  REQUIRE(out.hits.size() == 5);
  std::map<std::string, double> rank;
  for (const auto& h : out.hits) rank[h.url] = h.doc_rank;
  // Partition 0 holds /1 and /2, partition 1 /3 and /4, the active one /5.
  CHECK(rank["http://a.test/1"] == Approx(std::log10(1.0 + 3)));
  CHECK(rank["http://a.test/2"] == Approx(std::log10(0.0 + 3)));
  CHECK(rank["http://a.test/3"] == Approx(std::log10(1.0 + 1)));
  CHECK(rank["http://a.test/4"] == Approx(0.0));
  CHECK(rank["http://a.test/5"] == Approx(0.0));
  // The walk meets them in arrival order: n = 2 takes the first two pages.
  CHECK(Urls(index, "zebra", 2) == std::vector<std::string>{"http://a.test/1", "http://a.test/2"});
}

TEST_CASE("partitions close at the setting and stay searchable", "[unit]") {
  IndexOptions o;
  o.partition_docs = 2;
  MemoryIndexJournal journal;
  SearchIndex index(o, &journal);
  for (int i = 0; i < 5; ++i) {
    REQUIRE(index.AddPage(Page("http://p.test/" + std::to_string(i), "Heron", "heron number " + std::to_string(i))));
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
    CHECK(r.score().total() == Approx(r.score().doc_rank() + r.score().bonus() + r.score().relevance() +
                                      r.score().proximity()));
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
    REQUIRE(index.AddPage(Page("http://p.test/" + std::to_string(i), "Egret", "egret wader " + std::to_string(i))));
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

TEST_CASE("summary records round-trip, raw when short and zlib-compressed when long", "[unit]") {
  SummaryEncoder encoder;
  DocSummary s;
  s.url = "http://k.test/1";
  s.title = "Kingfisher";
  s.language = "en";
  s.link = true;
  const std::string short_record = encoder.Encode(s);
  CHECK(short_record.front() == 'r');
  s.nosnippet = true;
  s.link = false;
  s.description = {std::string(2000, 'k'), "the kingfisher dives"};
  const std::string long_record = encoder.Encode(s);
  CHECK(long_record.front() == 'z');
  CHECK(long_record.size() < 1000);
  for (const std::string& record : {short_record, long_record}) {
    auto back = ParseSummary(record);
    REQUIRE(back.ok());
    CHECK(back->url == s.url);
    CHECK(back->title == s.title);
    CHECK(back->language == s.language);
  }
  auto back = ParseSummary(long_record);
  REQUIRE(back.ok());
  CHECK(back->description == s.description);
  CHECK(back->nosnippet);
  CHECK_FALSE(back->link);
  CHECK_FALSE(ParseSummary("").ok());
  CHECK_FALSE(ParseSummary("x").ok());
  CHECK_FALSE(ParseSummary(long_record.substr(0, long_record.size() / 2)).ok());
}

TEST_CASE("snippets are the description sentences holding a query term", "[unit]") {
  crawl::text::Stemmer en("en");
  auto q = ParseQuery("kingfishers", en);
  REQUIRE(q.ok());
  const QueryClause& clause = q->clauses.front();
  DocSummary s;
  s.description = {"a heron stands", "the kingfisher dives", "herons wait", "a kingfisher nests"};
  CHECK(Snippet(s, clause, en) == "the kingfisher dives ... a kingfisher nests");
  s.description = {"a heron stands", "herons wait"};
  CHECK(Snippet(s, clause, en) == "a heron stands");  // no match: the first sentence
  s.nosnippet = true;
  CHECK(Snippet(s, clause, en).empty());
  CHECK(MatchWords("www.kingfisher.test", clause, en) == std::pair<uint32_t, uint32_t>{1, 3});
}

TEST_CASE("index record bytes read back, doc ids keep their parts, cuts keep UTF-8 whole", "[unit]") {
  std::string key;
  PutU32Be(&key, 0x01020304u);
  PutU64Be(&key, 0x05060708090a0b0cull);
  CHECK(ReadBe(key, 4) == 0x01020304u);
  CHECK(ReadBe(std::string_view(key).substr(4), 8) == 0x05060708090a0b0cull);
  std::string value;
  PutString(&value, "kingfisher");
  size_t pos = 0;
  std::string back;
  CHECK(GetString(value, &pos, &back));
  CHECK(back == "kingfisher");
  pos = 0;
  CHECK_FALSE(GetString(value.substr(0, 4), &pos, &back));  // cut short
  const std::array<uint8_t, 24> id =
      MakeDocId(0x1111111111111111ull, 'p', 0x22222222222222ull, 0x3333333333333333ull);
  const std::string ids = IdString(id);
  CHECK(ReadBe(ids, 8) == 0x1111111111111111ull);
  CHECK(ids[8] == 'p');
  CHECK(ReadBe(std::string_view(ids).substr(9), 7) == 0x22222222222222ull);
  CHECK(ReadBe(std::string_view(ids).substr(16), 8) == 0x3333333333333333ull);
  CHECK(TitleTermId(42) != 42);
  CHECK(CutUtf8("k\xc3\xa9k", 2) == "k");  // never half of the two-byte character
  CHECK(CutUtf8("k\xc3\xa9k", 3) == "k\xc3\xa9");
}

// issue 22 item 2: the crawl's ScoringFilter IndexerScore is stored with the
// document and added to its doc rank, so a boosted page outranks an
// identical unboosted one that arrived before it, also after a reload.
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
