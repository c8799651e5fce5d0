#include "nameserver/registry_store.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>

using crawl::nameserver::RegistryStore;
namespace v1 = crawl::v1;

namespace {

std::string TempDir() {
  std::random_device rd;
  auto dir = std::filesystem::temp_directory_path() / ("registry-test-" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace

TEST_CASE("registry keeps crawls, the active crawl, members and numbers across a reopen", "[unit]") {
  const std::string dir = TempDir();
  {
    auto store = RegistryStore::Open(dir);
    REQUIRE(store.ok());
    v1::CrawlInfo a;
    a.set_crawl_id(100);
    a.set_state(v1::CRAWL_STATE_STOPPED);
    a.mutable_params()->set_max_pages(7);
    v1::CrawlInfo b;
    b.set_crawl_id(200);
    b.set_state(v1::CRAWL_STATE_RUNNING);
    b.set_params_version(3);
    REQUIRE((*store)->PutCrawl(a).ok());
    REQUIRE((*store)->PutCrawlAndActive(b, 200).ok());
    v1::QueueServerInfo qs;
    qs.set_id("qs0");
    qs.set_address("127.0.0.1:5000");
    REQUIRE((*store)->PutMember(qs).ok());
    v1::QueueServerStats st;
    st.set_queue_server_id("qs0");
    st.set_pages_fetched(42);
    REQUIRE((*store)->PutStats(200, st).ok());
  }
  auto store = RegistryStore::Open(dir);
  REQUIRE(store.ok());
  auto image = (*store)->Load();
  REQUIRE(image.ok());
  REQUIRE(image->crawls.size() == 2);
  CHECK(image->crawls.at(100).params().max_pages() == 7);
  CHECK(image->crawls.at(200).params_version() == 3);
  CHECK(image->active_crawl == 200);
  CHECK(image->members.at("qs0").address() == "127.0.0.1:5000");
  CHECK(image->stats.at(200).at("qs0").pages_fetched() == 42);

  // Ending the crawl clears the active id in the same write.
  v1::CrawlInfo ended = image->crawls.at(200);
  ended.set_state(v1::CRAWL_STATE_DONE);
  REQUIRE((*store)->PutCrawlAndActive(ended, 0).ok());
  auto again = (*store)->Load();
  REQUIRE(again.ok());
  CHECK(again->active_crawl == 0);
  CHECK(again->crawls.at(200).state() == v1::CRAWL_STATE_DONE);
  store->reset();
  std::filesystem::remove_all(dir);
}

TEST_CASE("registry without a data directory keeps nothing", "[unit]") {
  auto store = RegistryStore::Open("");
  REQUIRE(store.ok());
  v1::CrawlInfo a;
  a.set_crawl_id(1);
  REQUIRE((*store)->PutCrawl(a).ok());
  auto image = (*store)->Load();
  REQUIRE(image.ok());
  CHECK(image->crawls.empty());
}

TEST_CASE("registry refuses a directory it cannot open", "[unit]") {
  auto store = RegistryStore::Open("/proc/no-such-place");
  REQUIRE_FALSE(store.ok());
  CHECK(store.status().message().find("cannot open") != std::string::npos);
}
