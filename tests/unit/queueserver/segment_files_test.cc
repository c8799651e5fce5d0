// Postings segments in files of their own (queueserver/store/segment_files.h,
// ShardWriter::AppendSegment/ScanSegments/DropSegments): committed segments
// read back in order across a reopen; a discarded or failed request leaves
// none; a tail written but not committed (a kill between the file and the
// batch) is never read; a tail an OS crash took, or a damaged frame, costs
// only the segments from there on, and the store stays consistent for the
// next requests; files go with their partition's merge, their crawl, and
// at Open when their crawl is gone; older stores' segment records still
// load. Then the index itself: what the store's files give back after a
// reopen searches as the in-memory journal's records do. Last, a merge's
// sorted writes (ShardWriter::WriteSortedNow), ingested as a table file.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "common/base/clock.h"
#include "common/text/stemmer.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/search_index.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/queueserver/search_index_test_util.h"
#include "tests/unit/support/temp_dir.h"

namespace {

using crawl::queueserver::IndexFamily;
using crawl::queueserver::QueueStore;
using crawl::queueserver::ShardWriter;
using crawl::test_support::TempDir;
using Segments = std::vector<std::pair<uint32_t, std::string>>;

std::unique_ptr<QueueStore> Open(const TempDir& dir, QueueStore::Options options = {}) {
  auto s = QueueStore::Open(dir.path.string(), options);
  REQUIRE(s.ok());
  return std::move(*s);
}

std::filesystem::path FileOf(const TempDir& dir, uint64_t crawl, uint32_t partition) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(crawl));
  return dir.path / "postings-segments" / (std::string(hex) + "-" + std::to_string(partition) + ".seg");
}

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void WriteFile(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// A writer of crawl `id`, its CrawlInfo stored (Open removes the segment
// files of crawls it does not hold).
std::unique_ptr<ShardWriter> Writer(QueueStore& store, uint64_t id) {
  auto w = store.NewWriter(id);
  crawl::v1::CrawlInfo crawl;
  crawl.set_crawl_id(id);
  w->PutCrawl(crawl);
  REQUIRE(w->Commit().ok());
  return w;
}

Segments Scan(ShardWriter& w, uint32_t partition, uint64_t* lost = nullptr) {
  Segments out;
  uint64_t l = 0;
  REQUIRE(w.ScanSegments(
               partition,
               [&](uint32_t first, std::string_view s) {
                 out.emplace_back(first, std::string(s));
                 return true;
               },
               &l)
              .ok());
  if (lost) *lost = l;
  return out;
}

void Commit(ShardWriter& w, uint32_t partition, uint32_t first, const std::string& segment) {
  w.AppendSegment(partition, first, segment);
  REQUIRE(w.Commit().ok());
}

}  // namespace

TEST_CASE("segment files: committed segments read back in order, discarded and failed ones never", "[unit]") {
  TempDir dir;
  {
    auto store = Open(dir);
    auto w = Writer(*store, 7);
    Commit(*w, 0, 0, "first");
    w->AppendSegment(0, 3, "second");
    w->AppendSegment(1, 0, "next partition");  // a request that closed partition 0
    REQUIRE(w->Commit().ok());
    w->AppendSegment(1, 5, "discarded");
    CHECK(w->pending() == 1);  // a staged segment alone is a change to commit
    w->Discard();
    CHECK(w->pending() == 0);
    store->FailWritesForTest(true);
    w->AppendSegment(1, 5, "failed");
    CHECK_FALSE(w->Commit().ok());
    store->FailWritesForTest(false);
    Commit(*w, 1, 5, std::string(70000, 'x'));  // after the failure, where it stopped
    CHECK(Scan(*w, 0) == Segments{{0, "first"}, {3, "second"}});
  }
  auto store = Open(dir);
  auto w = Writer(*store, 7);
  uint64_t lost = 1;
  CHECK(Scan(*w, 0, &lost) == Segments{{0, "first"}, {3, "second"}});
  CHECK(lost == 0);
  CHECK(Scan(*w, 1) == Segments{{0, "next partition"}, {5, std::string(70000, 'x')}});
  CHECK(Scan(*w, 2).empty());
  CHECK(Scan(*store->NewWriter(8), 0).empty());  // another crawl's
}

TEST_CASE("segment files: a tail written but not committed is never read and is overwritten", "[unit]") {
  TempDir both, one;
  {
    auto store = Open(both);
    auto w = Writer(*store, 7);
    Commit(*w, 0, 0, "committed");
    Commit(*w, 0, 4, "written, then killed before the batch");
  }
  {
    auto store = Open(one);
    auto w = Writer(*store, 7);
    Commit(*w, 0, 0, "committed");
  }
  // The second frame on disk, its length not in the store: as after a kill
  // between the file write and the RocksDB batch.
  WriteFile(FileOf(one, 7, 0), ReadFile(FileOf(both, 7, 0)));
  auto store = Open(one);
  auto w = Writer(*store, 7);
  uint64_t lost = 1;
  CHECK(Scan(*w, 0, &lost) == Segments{{0, "committed"}});
  CHECK(lost == 0);
  CHECK(ReadFile(FileOf(one, 7, 0)).size() == 12 + 9);  // cut to the committed frames
  Commit(*w, 0, 4, "next");
  CHECK(Scan(*store->NewWriter(7), 0) == Segments{{0, "committed"}, {4, "next"}});
}

TEST_CASE("segment files: a lost or damaged tail costs the segments from there on, and nothing after",
          "[unit]") {
  for (const bool damage : {false, true}) {
    INFO((damage ? "a damaged byte" : "a file cut short"));
    TempDir dir;
    {
      auto store = Open(dir);
      auto w = Writer(*store, 7);
      Commit(*w, 0, 0, "kept");
      Commit(*w, 0, 1, "lost one");
      Commit(*w, 0, 2, "lost two");
    }
    std::string bytes = ReadFile(FileOf(dir, 7, 0));
    REQUIRE(bytes.size() == 3 * 12 + 4 + 8 + 8);
    if (damage) {
      bytes[12 + 4 + 12 + 2] ^= 0x20;  // inside "lost one"
    } else {
      bytes.resize(12 + 4 + 7);  // the OS kept part of the second frame
    }
    WriteFile(FileOf(dir, 7, 0), bytes);
    {
      auto store = Open(dir);
      auto w = Writer(*store, 7);
      uint64_t lost = 0;
      CHECK(Scan(*w, 0, &lost) == Segments{{0, "kept"}});
      CHECK(lost == 2 * 12 + 16);
      // The next request appends after the intact frame. This one fails,
      // leaving its frame there: no later reopen may take it for a
      // committed one (the store's length was set back to the intact one).
      store->FailWritesForTest(true);
      w->AppendSegment(0, 4, "never committed");
      CHECK_FALSE(w->Commit().ok());
    }
    {
      auto store = Open(dir);
      auto w = store->NewWriter(7);
      uint64_t lost = 1;
      CHECK(Scan(*w, 0, &lost) == Segments{{0, "kept"}});
      CHECK(lost == 0);
      Commit(*w, 0, 3, "after the crash");
    }
    auto store = Open(dir);
    uint64_t lost = 1;
    CHECK(Scan(*store->NewWriter(7), 0, &lost) == Segments{{0, "kept"}, {3, "after the crash"}});
    CHECK(lost == 0);
  }
}

TEST_CASE("segment files: with sync writes, the same; dropped with their partition and their crawl",
          "[unit]") {
  TempDir dir;
  {
    auto store = Open(dir, {.sync = true});
    auto w = Writer(*store, 7);
    Commit(*w, 0, 0, "zero");
    Commit(*w, 1, 0, "one");
    Commit(*Writer(*store, 9), 0, 0, "crawl nine");
    REQUIRE(w->DropSegments(0).ok());
    CHECK_FALSE(std::filesystem::exists(FileOf(dir, 7, 0)));
    CHECK(Scan(*w, 1) == Segments{{0, "one"}});
    REQUIRE(store->DeleteCrawl(7).ok());
    CHECK_FALSE(std::filesystem::exists(FileOf(dir, 7, 1)));
    CHECK(std::filesystem::exists(FileOf(dir, 9, 0)));
  }
  // A file whose crawl the store does not hold (deleted just before a
  // kill) goes at Open.
  WriteFile(FileOf(dir, 11, 0), "orphan");
  auto store = Open(dir);
  CHECK_FALSE(std::filesystem::exists(FileOf(dir, 11, 0)));
  CHECK(std::filesystem::exists(FileOf(dir, 9, 0)));
}

TEST_CASE("segment files: an older store's segment records load before the files' segments", "[unit]") {
  TempDir dir;
  auto store = Open(dir);
  auto w = Writer(*store, 7);
  std::string key = "c";
  crawl::queueserver::PutU32Be(&key, 0);
  crawl::queueserver::PutU32Be(&key, 0);
  w->PutIndex(IndexFamily::kPostings, key, "a record");
  REQUIRE(w->Commit().ok());
  Commit(*w, 0, 2, "a file's");
  CHECK(Scan(*store->NewWriter(7), 0) == Segments{{0, "a record"}, {2, "a file's"}});
}

TEST_CASE("segment files: the index reloaded from a store searches as one reloaded from records", "[unit]") {
  using namespace crawl::queueserver;
  using namespace crawl::queueserver::index_test;  // NOLINT: Page, Urls
  TempDir dir;
  IndexOptions o;
  o.partition_docs = 7;  // closes and merges partitions in between
  MemoryIndexJournal records;
  {
    auto store = Open(dir);
    auto w = Writer(*store, 7);
    SearchIndex in_store(o, w.get()), in_memory(o, &records);
    for (int request = 0; request < 9; ++request) {
      for (int i = 0; i < 3; ++i) {
        const int n = request * 3 + i;
        const std::string body = "heron " + std::string(n % 2 ? "egret " : "stork ") + "wader number" +
                                 std::to_string(n % 5) + " marsh heron";
        for (SearchIndex* index : {&in_store, &in_memory}) {
          REQUIRE(
              index->AddPage(Page("http://w.test/" + std::to_string(n), "Birds " + std::to_string(n), body)));
        }
      }
      in_store.Flush();
      in_memory.Flush();
      REQUIRE(w->Commit().ok());
      REQUIRE(in_store.MergeClosed().ok());
      REQUIRE(in_memory.MergeClosed().ok());
    }
  }
  auto store = Open(dir);
  auto w = Writer(*store, 7);
  SearchIndex from_files(o, w.get()), from_records(o, &records);
  REQUIRE(from_files.Load().ok());
  REQUIRE(from_records.Load().ok());
  CHECK(from_files.segment_bytes_lost() == 0);
  CHECK(from_files.documents() == 27);
  crawl::text::Stemmer en("en");
  crawl::ManualClock clock;
  for (const char* q : {"heron", "egret", "stork wader", "\"marsh heron\"", "number3", "birds"}) {
    INFO(q);
    auto a = from_files.Search(*ParseQuery(q, en), {}, clock, en);
    auto b = from_records.Search(*ParseQuery(q, en), {}, clock, en);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(a->matches == b->matches);
    REQUIRE(a->hits.size() == b->hits.size());
    for (size_t i = 0; i < a->hits.size(); ++i) {
      CHECK(a->hits[i].url == b->hits[i].url);
      CHECK(a->hits[i].total() == b->hits[i].total());
    }
  }
  // Merged partitions (0 to 2 of 27 documents in sevens) have no files left.
  for (uint32_t part = 0; part < 3; ++part) CHECK_FALSE(std::filesystem::exists(FileOf(dir, 7, part)));
  CHECK(std::filesystem::exists(FileOf(dir, 7, 3)));
}

TEST_CASE("sorted index writes: ingested as a table, seen by later snapshots only, kept across a reopen",
          "[unit]") {
  using crawl::queueserver::IndexJournal;
  TempDir dir;
  {
    auto store = Open(dir);
    auto w = Writer(*store, 7);
    REQUIRE(
        w->WriteIndexNow({{IndexFamily::kPostings, "m2", "older"}}, {}, IndexFamily::kPostings, "", "").ok());
    auto before = w->SnapshotIndex();
    std::vector<IndexJournal::Put> puts;
    for (const char* k : {"m1", "m2", "m3"})
      puts.push_back({IndexFamily::kPostings, k, std::string(k) + " list"});
    REQUIRE(w->WriteSortedNow(IndexFamily::kPostings, puts).ok());
    REQUIRE(w->WriteSortedNow(IndexFamily::kPostings, {}).ok());
    std::string v;
    REQUIRE(w->GetIndex(IndexFamily::kPostings, "m2", &v).ok());
    CHECK(v == "m2 list");  // over the older record
    CHECK(before->GetIndex(IndexFamily::kPostings, "m2", &v).ok());
    CHECK(v == "older");
    CHECK(before->GetIndex(IndexFamily::kPostings, "m1", &v).code() == crawl::StatusCode::kNotFound);
    // Out of order, or another family among them: refused, nothing written.
    CHECK(w->WriteSortedNow(IndexFamily::kPostings,
                            {{IndexFamily::kPostings, "m9", "x"}, {IndexFamily::kPostings, "m8", "y"}})
              .code() == crawl::StatusCode::kInvalidArgument);
    CHECK(w->WriteSortedNow(IndexFamily::kPostings,
                            {{IndexFamily::kPostings, "m8", "x"}, {IndexFamily::kPostings, "m8", "y"}})
              .code() == crawl::StatusCode::kInvalidArgument);
    CHECK(w->WriteSortedNow(IndexFamily::kPostings, {{IndexFamily::kTerms, "m9", "x"}}).code() ==
          crawl::StatusCode::kInvalidArgument);
    CHECK(w->GetIndex(IndexFamily::kPostings, "m9", &v).code() == crawl::StatusCode::kNotFound);
    store->FailWritesForTest(true);
    CHECK_FALSE(w->WriteSortedNow(IndexFamily::kPostings, {{IndexFamily::kPostings, "m7", "x"}}).ok());
  }
  auto store = Open(dir);
  auto w = store->NewWriter(7);
  std::string v;
  for (const char* k : {"m1", "m2", "m3"}) {
    REQUIRE(w->GetIndex(IndexFamily::kPostings, k, &v).ok());
    CHECK(v == std::string(k) + " list");
  }
  CHECK(w->GetIndex(IndexFamily::kPostings, "m7", &v).code() == crawl::StatusCode::kNotFound);
  // The table file was RocksDB's to keep: none is left beside the segments.
  const auto segments = dir.path / "postings-segments";
  if (std::filesystem::exists(segments)) CHECK(std::filesystem::is_empty(segments));
}

TEST_CASE("segment files: segments the files cannot take go in the batch, and load in document order",
          "[unit]") {
  TempDir dir;
  const auto files = dir.path / "postings-segments";
  {
    auto store = Open(dir);
    Commit(*Writer(*store, 8), 0, 0, "first frame");
    // The files' directory unusable, as a full disk would make it: this
    // request's segments are records, and its commit succeeds.
    std::filesystem::rename(files, dir.path / "aside");
    WriteFile(files, "not a directory");
    Commit(*store->NewWriter(8), 0, 4, "a record");
    std::filesystem::remove(files);
    std::filesystem::rename(dir.path / "aside", files);
    auto w = store->NewWriter(8);
    Commit(*w, 0, 9, "second frame");
    Commit(*w, 1, 0, "next partition");
  }
  auto store = Open(dir);
  uint64_t lost = 1;
  CHECK(Scan(*store->NewWriter(8), 0, &lost) ==
        Segments{{0, "first frame"}, {4, "a record"}, {9, "second frame"}});
  CHECK(lost == 0);
  CHECK(Scan(*store->NewWriter(8), 1) == Segments{{0, "next partition"}});
}
