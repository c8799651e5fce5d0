// A WarcWriter reopened over its location index (queueserver/store/
// warc_writer.h, warc_location_index.h): only the newest WARC file is read,
// locations a kill kept from the index come back from it, a crawl never
// indexed is read once in full; and the service stores the locations of
// every SubmitResults in the queue store.
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "queueserver/service.h"
#include "queueserver/store/queue_store.h"
#include "queueserver/store/warc_location_index.h"
#include "queueserver/store/warc_writer.h"
#include "tests/unit/support/fetched_page.h"
#include "tests/unit/support/temp_dir.h"

using crawl::queueserver::MemoryWarcLocationIndex;
using crawl::queueserver::ParseHttpResponse;
using crawl::queueserver::QueueStore;
using crawl::queueserver::ReadWarcRecordAt;
using crawl::queueserver::WarcLocationIndex;
using crawl::queueserver::WarcWriter;
using crawl::test_support::TempDir;
namespace v1 = crawl::v1;

namespace {

v1::FetchRecord Fetched(const std::string& url, const std::string& body) {
  return crawl::test_support::FetchedPage(url, body);
}

std::string Url(int i) { return "http://a.test/" + std::to_string(i); }

// Where Find() puts `url`; fails the test if it is not found.
WarcWriter::Location Located(const WarcWriter& w, const std::string& url) {
  auto found = w.Find(url);
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  return **found;
}

std::string BodyAt(const WarcWriter::Location& at) {
  auto record = ReadWarcRecordAt(at.path, at.offset);
  REQUIRE(record.ok());
  auto http = ParseHttpResponse(record->block);
  REQUIRE(http.ok());
  return http->body;
}

// Overwrites `path` with bytes that are no gzip member, keeping its size.
void Garble(const std::string& path) {
  const auto size = std::filesystem::file_size(path);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << std::string(size, 'Z');
}

// Replaces `path` by a link to nothing: a file no one can read (ReadWarcFile
// fails on it, even for root).
void MakeUnreadable(const std::string& path) {
  std::filesystem::remove(path);
  std::filesystem::create_symlink(path + ".gone", path);
}

// Writes pages 0..n-1 of crawl `id`, every page in a file of its own (the
// size limit is below one page), flushing the locations after each.
std::map<std::string, WarcWriter::Location> WriteRolled(const std::string& dir, uint64_t id,
                                                        WarcLocationIndex* index, int n) {
  WarcWriter w(dir, id, 200, index);
  REQUIRE(w.Open().ok());
  std::map<std::string, WarcWriter::Location> where;
  for (int i = 0; i < n; ++i) {
    REQUIRE(w.Write(Fetched(Url(i), std::string(300, static_cast<char>('a' + i))), "").ok());
    REQUIRE(w.FlushLocations().ok());
    where[Url(i)] = Located(w, Url(i));
  }
  REQUIRE(w.files().size() == static_cast<size_t>(n));
  return where;
}

std::unique_ptr<QueueStore> OpenStore(const std::filesystem::path& dir) {
  auto store = QueueStore::Open(dir.string(), {});
  REQUIRE(store.ok());
  return std::move(*store);
}

}  // namespace

TEST_CASE("warc reopen: locations come back from the store, and the older files are not read", "[unit]") {
  TempDir dir;
  const std::string warc = (dir.path / "warc").string();
  std::map<std::string, WarcWriter::Location> where;
  {
    auto store = OpenStore(dir.path / "store");
    auto index = store->WarcLocations(3);
    where = WriteRolled(warc, 3, index.get(), 3);
  }
  // File 0 cannot be read and file 1 holds no record any more: a writer
  // that read them would fail to open or not know their pages.
  MakeUnreadable(where[Url(0)].path);
  Garble(where[Url(1)].path);
  auto store = OpenStore(dir.path / "store");
  auto index = store->WarcLocations(3);
  WarcWriter again(warc, 3, 200, index.get());
  REQUIRE(again.Open().ok());
  for (int i = 0; i < 3; ++i) {
    const WarcWriter::Location at = Located(again, Url(i));
    CHECK(at.path == where[Url(i)].path);
    CHECK(at.offset == where[Url(i)].offset);
  }
  CHECK(BodyAt(Located(again, Url(2))) == std::string(300, 'c'));
  CHECK_FALSE(again.Find("http://a.test/none")->has_value());
  // The restarted writer starts a new file.
  REQUIRE(again.Write(Fetched(Url(3), "new"), "").ok());
  CHECK(again.files().back().ends_with("crawl-3-00003.warc.gz"));
}

TEST_CASE("warc reopen: locations a kill kept from the index are read again from the newest file", "[unit]") {
  TempDir dir;
  const std::string warc = (dir.path / "warc").string();
  std::map<std::string, WarcWriter::Location> before;
  {
    auto store = OpenStore(dir.path / "store");
    auto index = store->WarcLocations(4);
    WarcWriter w(warc, 4, 1 << 20, index.get());
    REQUIRE(w.Open().ok());
    REQUIRE(w.Write(Fetched(Url(0), "zero"), "").ok());
    REQUIRE(w.FlushLocations().ok());
    // The next request's records are appended, then a "kill": no flush.
    REQUIRE(w.Write(Fetched(Url(1), "one"), "").ok());
    REQUIRE(w.Write(Fetched(Url(0), "zero again"), "").ok());
    for (int i = 0; i < 2; ++i) before[Url(i)] = Located(w, Url(i));
    // The index itself does not have them.
    CHECK_FALSE(index->GetLocation(Url(1))->has_value());
    CHECK((*index->GetLocation(Url(0)))->offset != before[Url(0)].offset);
  }
  auto store = OpenStore(dir.path / "store");
  auto index = store->WarcLocations(4);
  WarcWriter again(warc, 4, 1 << 20, index.get());
  REQUIRE(again.Open().ok());
  for (int i = 0; i < 2; ++i) CHECK(Located(again, Url(i)).offset == before[Url(i)].offset);
  CHECK(BodyAt(Located(again, Url(0))) == "zero again");
  CHECK(BodyAt(Located(again, Url(1))) == "one");
  // Stored by Open(), not just known to this writer.
  auto stored = index->GetLocation(Url(1));
  REQUIRE(stored.ok());
  REQUIRE(stored->has_value());
  CHECK((*stored)->offset == before[Url(1)].offset);
}

TEST_CASE("warc reopen: a crawl never indexed (an older data dir) has all its files read once", "[unit]") {
  TempDir dir;
  const std::string warc = (dir.path / "warc").string();
  // Files written before the index: locations only in a writer's RAM.
  MemoryWarcLocationIndex old_ram;
  std::map<std::string, WarcWriter::Location> where = WriteRolled(warc, 6, &old_ram, 3);
  auto store = OpenStore(dir.path / "store");
  auto index = store->WarcLocations(6);
  REQUIRE_FALSE(*index->Indexed());
  {
    WarcWriter w(warc, 6, 200, index.get());
    REQUIRE(w.Open().ok());
    CHECK(*index->Indexed());
    for (int i = 0; i < 3; ++i) {
      auto stored = index->GetLocation(Url(i));
      REQUIRE(stored.ok());
      REQUIRE(stored->has_value());
      CHECK((*stored)->offset == where[Url(i)].offset);
      CHECK(Located(w, Url(i)).path == where[Url(i)].path);
    }
  }
  // Once: the next Open() reads only the newest file.
  MakeUnreadable(where[Url(0)].path);
  WarcWriter again(warc, 6, 200, index.get());
  REQUIRE(again.Open().ok());
  CHECK(Located(again, Url(0)).offset == where[Url(0)].offset);
  CHECK(BodyAt(Located(again, Url(1))) == std::string(300, 'b'));
}

TEST_CASE("warc reopen: a migration cut before its mark is done again in full", "[unit]") {
  TempDir dir;
  MemoryWarcLocationIndex old_ram;
  std::map<std::string, WarcWriter::Location> where = WriteRolled(dir.path.string(), 2, &old_ram, 3);
  // The first file's locations were stored, then a kill: no mark.
  MemoryWarcLocationIndex index;
  REQUIRE(index.PutLocations({{Url(0), 0, where[Url(0)].offset}}).ok());
  WarcWriter w(dir.path.string(), 2, 200, &index);
  REQUIRE(w.Open().ok());
  for (int i = 0; i < 3; ++i) CHECK(Located(w, Url(i)).path == where[Url(i)].path);
  CHECK(*index.Indexed());
}

TEST_CASE("warc reopen: a failed location write drops the batch's locations and the next Open recovers them",
          "[unit]") {
  TempDir dir;
  auto store = OpenStore(dir.path / "store");
  auto index = store->WarcLocations(8);
  const std::string warc = (dir.path / "warc").string();
  {
    WarcWriter w(warc, 8, 1 << 20, index.get());
    REQUIRE(w.Open().ok());
    REQUIRE(w.Write(Fetched(Url(0), "zero"), "").ok());
    REQUIRE(w.FlushLocations().ok());
    REQUIRE(w.Write(Fetched(Url(1), "one"), "").ok());
    store->FailWritesForTest(true);
    CHECK_FALSE(w.FlushLocations().ok());
    store->FailWritesForTest(false);
    CHECK_FALSE(w.Find(Url(1))->has_value());
    CHECK(BodyAt(Located(w, Url(0))) == "zero");
  }
  WarcWriter again(warc, 8, 1 << 20, index.get());
  REQUIRE(again.Open().ok());
  CHECK(BodyAt(Located(again, Url(1))) == "one");
}

namespace {
// An index whose every stored record is damaged.
class DamagedIndex final : public WarcLocationIndex {
 public:
  crawl::Status PutLocations(const std::vector<crawl::queueserver::WarcLocationEntry>&) override {
    return crawl::Status::Ok();
  }
  crawl::Result<std::optional<crawl::queueserver::WarcLocationEntry>> GetLocation(
      const std::string&) const override {
    return crawl::Status::Internal("corrupt page cache location record");
  }
  crawl::Result<bool> Indexed() const override { return true; }
  crawl::Status MarkIndexed() override { return crawl::Status::Ok(); }
};
}  // namespace

TEST_CASE("warc reopen: a damaged location is an error from Find, not a crash", "[unit]") {
  TempDir dir;
  DamagedIndex index;
  WarcWriter w(dir.path.string(), 8, 1 << 20, &index);
  REQUIRE(w.Open().ok());
  auto found = w.Find(Url(0));
  REQUIRE_FALSE(found.ok());
  CHECK(found.status().code() == crawl::StatusCode::kInternal);
  // One written since the last flush is found without the index.
  REQUIRE(w.Write(Fetched(Url(0), "zero"), "").ok());
  CHECK(BodyAt(Located(w, Url(0))) == "zero");
}

TEST_CASE("service: SubmitResults stores the page cache's locations in the queue store", "[unit]") {
  TempDir dir;
  crawl::ManualClock clock;
  auto store = OpenStore(dir.path / "store");
  const std::string warc = (dir.path / "warc").string();
  std::string body;
  {
    crawl::queueserver::QueueServerServiceImpl service("qs-warc", &clock, store.get());
    service.EnableWarc(warc, 1'000'000);
    grpc::ServerContext ctx;
    v1::InjectSeedsRequest seeds;
    seeds.mutable_crawl()->set_crawl_id(12);
    seeds.mutable_crawl()->set_state(v1::CRAWL_STATE_RUNNING);
    seeds.mutable_crawl()->mutable_params()->set_keep_page_cache(true);
    seeds.add_urls("http://a.test/page");
    v1::InjectSeedsResponse injected;
    REQUIRE(service.InjectSeeds(&ctx, &seeds, &injected).ok());
    v1::SubmitResultsRequest req;
    req.set_crawl_id(12);
    req.set_fetcher_id("f");
    req.set_schedule_id(500);
    *req.add_records() = Fetched("http://a.test/page", "<p>cached</p>");
    v1::SubmitResultsResponse resp;
    REQUIRE(service.SubmitResults(&ctx, &req, &resp).ok());
    v1::CachedPageRequest cached_req;
    cached_req.set_crawl_id(12);
    cached_req.set_url("http://a.test/page");
    v1::CachedPageResponse cached;
    REQUIRE(service.GetCachedPage(&ctx, &cached_req, &cached).ok());
    REQUIRE(cached.found());
    body = cached.body();
    // In the store, where a restarted server finds it without reading the file.
    auto stored = store->WarcLocations(12)->GetLocation("http://a.test/page");
    REQUIRE(stored.ok());
    REQUIRE(stored->has_value());
    CHECK((*stored)->offset == cached.warc_offset());
    CHECK(cached.warc_file().ends_with("crawl-12-00000.warc.gz"));
  }
  CHECK(body == "<p>cached</p>");
  // A restarted server answers from the store's locations.
  crawl::queueserver::QueueServerServiceImpl restarted("qs-warc", &clock, store.get());
  restarted.EnableWarc(warc, 1'000'000);
  REQUIRE(restarted.LoadStoredCrawls().ok());
  grpc::ServerContext ctx;
  v1::CachedPageRequest cached_req;
  cached_req.set_crawl_id(12);
  cached_req.set_url("http://a.test/page");
  v1::CachedPageResponse cached;
  REQUIRE(restarted.GetCachedPage(&ctx, &cached_req, &cached).ok());
  CHECK(cached.found());
  CHECK(cached.body() == "<p>cached</p>");
}
