// The page cache's location index (queueserver/store/warc_location_index.h)
// in the queue store (family warc_loc, QueueStore::WarcLocations): the
// value codec, a reopen of the store, hash collisions and damaged values,
// an older store without the family, DeleteCrawl.
#include <rocksdb/db.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "common/base/hash.h"
#include "queueserver/store/queue_store.h"
#include "queueserver/store/warc_location_index.h"
#include "tests/unit/support/temp_dir.h"

using crawl::StatusCode;
using crawl::queueserver::DecodeWarcLocation;
using crawl::queueserver::EncodeWarcLocation;
using crawl::queueserver::QueueStore;
using crawl::queueserver::WarcLocationEntry;
using crawl::test_support::TempDir;

namespace {

std::string Be64(uint64_t v) {
  std::string p;
  for (int shift = 56; shift >= 0; shift -= 8) p.push_back(static_cast<char>((v >> shift) & 0xff));
  return p;
}

// The warc_loc key of `url` in crawl `id`: crawl id(8) + Hash8(url)(8).
std::string LocationKey(uint64_t id, const std::string& url) {
  return Be64(id) + Be64(crawl::hash::Hash8(url));
}

// Runs `change` on the store's RocksDB opened directly with every family
// it has (the QueueStore closed), by family name.
template <typename F>
void WithRawDb(const std::string& dir, F&& change) {
  std::vector<std::string> names;
  REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &names).ok());
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const auto& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::Open(rocksdb::DBOptions(), dir, families, &handles, &raw).ok());
  auto family = [&](const std::string& name) -> rocksdb::ColumnFamilyHandle* {
    auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? nullptr : handles[it - names.begin()];
  };
  change(raw, family);
  for (auto* h : handles) (void)raw->DestroyColumnFamilyHandle(h);
  delete raw;
}

std::vector<std::string> FamilyNames(const std::string& dir) {
  std::vector<std::string> names;
  REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &names).ok());
  return names;
}

std::unique_ptr<QueueStore> OpenStore(const std::string& dir) {
  auto store = QueueStore::Open(dir, {});
  REQUIRE(store.ok());
  return std::move(*store);
}

}  // namespace

TEST_CASE("warc locations: a value round-trips, a cut, longer or unknown-version one does not decode",
          "[unit]") {
  const WarcLocationEntry e{"http://a.test/p?q=1", 70000, (uint64_t{1} << 40) + 17};
  const std::string v = EncodeWarcLocation(e);
  WarcLocationEntry back;
  REQUIRE(DecodeWarcLocation(v, &back));
  CHECK(back == e);
  CHECK_FALSE(DecodeWarcLocation("", &back));
  for (size_t n = 0; n < v.size(); ++n) CHECK_FALSE(DecodeWarcLocation(v.substr(0, n), &back));
  CHECK_FALSE(DecodeWarcLocation(v + "x", &back));
  std::string future = v;
  future[0] = 2;
  CHECK_FALSE(DecodeWarcLocation(future, &back));
  // A URL length past the end is a cut record, not a read past the buffer.
  std::string long_url = v;
  long_url[1] = '\x7f';
  CHECK_FALSE(DecodeWarcLocation(long_url, &back));
}

TEST_CASE("warc locations: stored locations survive a reopen of the store and the later of one URL wins",
          "[unit]") {
  TempDir dir;
  {
    auto store = OpenStore(dir.path.string());
    auto index = store->WarcLocations(7);
    REQUIRE(index->PutLocations({{"http://a.test/1", 0, 100}, {"http://a.test/2", 0, 900}}).ok());
    REQUIRE(index->PutLocations({{"http://a.test/1", 3, 50}, {"http://a.test/1", 3, 4000}}).ok());
    REQUIRE(index->MarkIndexed().ok());
  }
  auto store = OpenStore(dir.path.string());
  auto index = store->WarcLocations(7);
  auto one = index->GetLocation("http://a.test/1");
  REQUIRE(one.ok());
  REQUIRE(one->has_value());
  CHECK(**one == WarcLocationEntry{"http://a.test/1", 3, 4000});
  auto two = index->GetLocation("http://a.test/2");
  REQUIRE(two.ok());
  REQUIRE(two->has_value());
  CHECK((*two)->offset == 900);
  auto none = index->GetLocation("http://a.test/3");
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());
  auto marked = index->Indexed();
  REQUIRE(marked.ok());
  CHECK(*marked);
  // Another crawl's index is its own.
  auto other = store->WarcLocations(8);
  CHECK_FALSE(other->GetLocation("http://a.test/1")->has_value());
  CHECK_FALSE(*other->Indexed());
}

TEST_CASE("warc locations: another URL under the key reads as not found, a damaged value as an error",
          "[unit]") {
  TempDir dir;
  OpenStore(dir.path.string()).reset();
  WithRawDb(dir.path.string(), [](rocksdb::DB* db, auto family) {
    auto* cf = family("warc_loc");
    REQUIRE(cf != nullptr);
    // What a hash collision leaves: b.test's location under a.test's key.
    REQUIRE(db->Put(rocksdb::WriteOptions(), cf, LocationKey(5, "http://a.test/"),
                    EncodeWarcLocation({"http://b.test/", 1, 10}))
                .ok());
    REQUIRE(db->Put(rocksdb::WriteOptions(), cf, LocationKey(5, "http://c.test/"), "\x01garbage").ok());
    REQUIRE(db->Put(rocksdb::WriteOptions(), cf, LocationKey(5, "http://d.test/"), "").ok());
  });
  auto store = OpenStore(dir.path.string());
  auto index = store->WarcLocations(5);
  auto collided = index->GetLocation("http://a.test/");
  REQUIRE(collided.ok());
  CHECK_FALSE(collided->has_value());
  for (const char* damaged : {"http://c.test/", "http://d.test/"}) {
    auto got = index->GetLocation(damaged);
    REQUIRE_FALSE(got.ok());
    CHECK(got.status().code() == StatusCode::kInternal);
  }
  // The next put replaces a damaged value.
  REQUIRE(index->PutLocations({{"http://c.test/", 2, 20}}).ok());
  auto fixed = index->GetLocation("http://c.test/");
  REQUIRE(fixed.ok());
  REQUIRE(fixed->has_value());
  CHECK((*fixed)->offset == 20);
}

TEST_CASE("warc locations: a store from before the family opens with it empty", "[unit]") {
  TempDir dir;
  {
    auto store = OpenStore(dir.path.string());
    REQUIRE(store->WarcLocations(3)->PutLocations({{"http://a.test/", 0, 1}}).ok());
  }
  WithRawDb(dir.path.string(),
            [](rocksdb::DB* db, auto family) { REQUIRE(db->DropColumnFamily(family("warc_loc")).ok()); });
  auto before = FamilyNames(dir.path.string());
  REQUIRE(std::find(before.begin(), before.end(), "warc_loc") == before.end());
  auto store = OpenStore(dir.path.string());
  auto index = store->WarcLocations(3);
  CHECK_FALSE(*index->Indexed());
  CHECK_FALSE(index->GetLocation("http://a.test/")->has_value());
  REQUIRE(index->PutLocations({{"http://a.test/", 4, 2}}).ok());
  CHECK((*index->GetLocation("http://a.test/"))->file_number == 4);
  auto after = FamilyNames(dir.path.string());
  CHECK(std::find(after.begin(), after.end(), "warc_loc") != after.end());
}

TEST_CASE("warc locations: DeleteCrawl removes the crawl's locations and mark, other crawls keep theirs",
          "[unit]") {
  TempDir dir;
  auto store = OpenStore(dir.path.string());
  for (uint64_t id : {41, 42, 43}) {
    auto index = store->WarcLocations(id);
    REQUIRE(index->PutLocations({{"http://a.test/", 0, id}, {"http://b.test/", 1, id + 1}}).ok());
    REQUIRE(index->MarkIndexed().ok());
  }
  REQUIRE(store->DeleteCrawl(42).ok());
  auto gone = store->WarcLocations(42);
  CHECK_FALSE(*gone->Indexed());
  CHECK_FALSE(gone->GetLocation("http://a.test/")->has_value());
  CHECK_FALSE(gone->GetLocation("http://b.test/")->has_value());
  for (uint64_t id : {41, 43}) {
    auto kept = store->WarcLocations(id);
    CHECK(*kept->Indexed());
    auto a = kept->GetLocation("http://a.test/");
    REQUIRE(a.ok());
    REQUIRE(a->has_value());
    CHECK((*a)->offset == id);
    CHECK((*kept->GetLocation("http://b.test/"))->offset == id + 1);
  }
}

TEST_CASE("warc locations: a failing store writes no location", "[unit]") {
  TempDir dir;
  auto store = OpenStore(dir.path.string());
  auto index = store->WarcLocations(9);
  store->FailWritesForTest(true);
  CHECK(index->PutLocations({{"http://a.test/", 0, 1}}).code() == StatusCode::kIoError);
  CHECK(index->MarkIndexed().code() == StatusCode::kIoError);
  store->FailWritesForTest(false);
  CHECK_FALSE(index->GetLocation("http://a.test/")->has_value());
  CHECK_FALSE(*index->Indexed());
}
