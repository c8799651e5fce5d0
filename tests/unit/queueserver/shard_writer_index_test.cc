// ShardWriter as the search index's journal (queueserver/store/queue_store.h):
// what a batch writes to an index family is read back before its Commit (a
// point lookup, a scan, a search's snapshot), gone after a Discard, and in
// the store after a Commit. The document summaries and map (kDocs, kDocMap)
// and the fetch states wait in hash maps until Commit, the postings in an
// indexed batch (queueserver/store/shard_batch.h); both kinds must read the
// same.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "queueserver/fetch_state.h"
#include "queueserver/store/queue_store.h"
#include "tests/unit/support/temp_dir.h"

namespace {

using crawl::queueserver::IndexFamily;
using crawl::queueserver::QueueStore;
using crawl::queueserver::ShardWriter;

std::string Get(ShardWriter& w, IndexFamily f, const std::string& key) {
  std::string v;
  return w.GetIndex(f, key, &v).ok() ? v : "(none)";
}

std::string SnapshotGet(IndexFamily f, const std::string& key,
                        const std::shared_ptr<const crawl::queueserver::IndexSnapshot>& snapshot) {
  std::string v;
  return snapshot->GetIndex(f, key, &v).ok() ? v : "(none)";
}

std::map<std::string, std::string> Scan(ShardWriter& w, IndexFamily f, const std::string& prefix) {
  std::map<std::string, std::string> out;
  REQUIRE(w.ScanIndex(f, prefix, [&](std::string_view k, std::string_view v) {
             out.emplace(k, v);
             return true;
           }).ok());
  return out;
}

}  // namespace

TEST_CASE("shard writer: index writes read back before Commit, gone after Discard, kept after Commit",
          "[unit]") {
  crawl::test_support::TempDir dir;
  auto opened = QueueStore::Open(dir.path.string(), {});
  REQUIRE(opened.ok());
  std::unique_ptr<QueueStore> store = std::move(*opened);
  for (IndexFamily f : {IndexFamily::kDocs, IndexFamily::kDocMap, IndexFamily::kPostings}) {
    INFO("family " << static_cast<int>(f));
    std::unique_ptr<ShardWriter> w = store->NewWriter(7);
    std::unique_ptr<ShardWriter> other_crawl = store->NewWriter(8);

    w->PutIndex(f, "k1", "one");
    other_crawl->PutIndex(f, "k1", "other crawl");
    CHECK(Get(*w, f, "k1") == "one");
    CHECK(Get(*w, f, "k2") == "(none)");
    auto before = w->SnapshotIndex();
    CHECK(SnapshotGet(f, "k1", before) == "one");
    CHECK(Scan(*w, f, "k") == std::map<std::string, std::string>{{"k1", "one"}});
    w->Discard();
    CHECK(Get(*w, f, "k1") == "(none)");
    CHECK(Scan(*w, f, "k").empty());
    CHECK(SnapshotGet(f, "k1", before) == "one");  // a snapshot keeps what it saw

    w->PutIndex(f, "k1", "one");
    w->PutIndex(f, "k2", "two");
    w->PutIndex(f, "k1", "one again");  // the last write of a key wins
    REQUIRE(w->Commit().ok());
    CHECK(Get(*w, f, "k1") == "one again");
    w->PutIndex(f, "k3", "three");  // pending, over committed ones
    CHECK(Scan(*w, f, "k") ==
          std::map<std::string, std::string>{{"k1", "one again"}, {"k2", "two"}, {"k3", "three"}});
    auto mixed = w->SnapshotIndex();
    CHECK(SnapshotGet(f, "k2", mixed) == "two");
    CHECK(SnapshotGet(f, "k3", mixed) == "three");
    REQUIRE(w->Commit().ok());
    // The other crawl's writer never committed: nothing of it shows here.
    other_crawl->Discard();
    std::unique_ptr<ShardWriter> reopened = store->NewWriter(7);
    CHECK(Scan(*reopened, f, "") ==
          std::map<std::string, std::string>{{"k1", "one again"}, {"k2", "two"}, {"k3", "three"}});
    CHECK(Scan(*store->NewWriter(8), f, "").empty());
  }
}

TEST_CASE("shard writer: fetch states read back before Commit, gone after Discard, kept after Commit",
          "[unit]") {
  crawl::test_support::TempDir dir;
  auto opened = QueueStore::Open(dir.path.string(), {});
  REQUIRE(opened.ok());
  std::unique_ptr<QueueStore> store = std::move(*opened);
  std::unique_ptr<ShardWriter> w = store->NewWriter(7);
  auto status_of = [&](uint64_t hash, const std::string& url) -> int32_t {
    auto got = w->GetFetchState(hash, url);
    REQUIRE(got.ok());
    return got->has_value() ? (*got)->last_status : -1;
  };
  crawl::queueserver::FetchState state;
  state.url = "http://a.test/";
  state.last_status = 200;
  w->PutFetchState(1, state);
  CHECK(status_of(1, "http://a.test/") == 200);
  CHECK(status_of(1, "http://b.test/") == -1);  // another URL with the hash
  CHECK(status_of(2, "http://a.test/") == -1);
  w->Discard();
  CHECK(status_of(1, "http://a.test/") == -1);
  w->PutFetchState(1, state);
  state.last_status = 304;
  w->PutFetchState(1, state);  // the last write wins
  REQUIRE(w->Commit().ok());
  CHECK(status_of(1, "http://a.test/") == 304);
  std::map<uint64_t, int32_t> scanned;
  REQUIRE(w->ScanFetchStates([&](uint64_t h, const crawl::queueserver::FetchState& s) {
             scanned[h] = s.last_status;
             return true;
           }).ok());
  CHECK(scanned == std::map<uint64_t, int32_t>{{1, 304}});
}
