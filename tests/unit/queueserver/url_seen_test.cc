#include "queueserver/frontier/url_seen.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "common/base/hash.h"

using crawl::queueserver::UrlSeenSet;

TEST_CASE("url seen set agrees with an exact set across merges", "[unit]") {
  UrlSeenSet seen;
  std::unordered_set<uint64_t> truth;
  std::mt19937_64 rng(7);
  std::vector<uint64_t> inserted;
  // 400,000 inserts cross the first merge limit (65,536) several times;
  // every fourth offer repeats an earlier hash.
  for (int i = 0; i < 400'000; ++i) {
    uint64_t h = (i % 4 == 3 && !inserted.empty()) ? inserted[rng() % inserted.size()] : rng();
    bool is_new = truth.insert(h).second;
    REQUIRE(seen.Insert(h) == is_new);
    if (is_new) inserted.push_back(h);
  }
  REQUIRE(seen.size() == truth.size());
  for (int i = 0; i < 100'000; ++i) {
    uint64_t probe = rng();
    REQUIRE(seen.Contains(probe) == (truth.count(probe) == 1));
  }
  for (size_t i = 0; i < inserted.size(); i += 97) REQUIRE(seen.Contains(inserted[i]));
}

TEST_CASE("url seen set keeps the extreme hashes 0 and max", "[unit]") {
  UrlSeenSet seen;
  REQUIRE_FALSE(seen.Contains(0));
  REQUIRE(seen.Insert(0));
  REQUIRE_FALSE(seen.Insert(0));
  REQUIRE(seen.Insert(UINT64_MAX));
  REQUIRE_FALSE(seen.Insert(UINT64_MAX));
  // Push both through a merge into the segments.
  std::mt19937_64 rng(1);
  for (int i = 0; i < 70'000; ++i) seen.Insert(rng() | 1);
  REQUIRE(seen.Contains(0));
  REQUIRE(seen.Contains(UINT64_MAX));
  REQUIRE_FALSE(seen.Insert(0));
}

TEST_CASE("batch insert counts repeats inside the batch as seen", "[unit]") {
  UrlSeenSet seen;
  seen.Insert(crawl::hash::Hash8("http://a.test/"));
  std::vector<uint64_t> batch = {crawl::hash::Hash8("http://a.test/"), crawl::hash::Hash8("http://b.test/"),
                                 crawl::hash::Hash8("http://b.test/"), crawl::hash::Hash8("http://c.test/")};
  std::vector<uint8_t> is_new(batch.size());
  seen.InsertBatch(batch, is_new);
  REQUIRE(is_new == std::vector<uint8_t>{0, 1, 0, 1});
  REQUIRE(seen.size() == 3);
}

TEST_CASE("restore rebuilds the set and drops duplicates", "[unit]") {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> hashes;
  for (int i = 0; i < 50'000; ++i) hashes.push_back(rng());
  std::vector<uint64_t> with_repeats = hashes;
  with_repeats.insert(with_repeats.end(), hashes.begin(), hashes.begin() + 1000);
  UrlSeenSet seen;
  seen.Insert(12345);  // replaced by the restore
  seen.Restore(with_repeats);
  REQUIRE(seen.size() == hashes.size());
  REQUIRE_FALSE(seen.Contains(12345));
  for (uint64_t h : hashes) REQUIRE_FALSE(seen.Insert(h));
  size_t visited = 0;
  seen.ForEach([&](uint64_t) { ++visited; });
  REQUIRE(visited == hashes.size());
}

TEST_CASE("url seen set stays near 8 bytes per url", "[unit]") {
  UrlSeenSet seen;
  std::mt19937_64 rng(11);
  for (int i = 0; i < 2'000'000; ++i) seen.Insert(rng());
  // 8 bytes per hash, the pending table (at most 1/64 of the set at 16
  // bytes per slot pair, or its 1 MiB floor) and 1.5 MiB of headers.
  const double per_url = static_cast<double>(seen.MemoryBytes()) / static_cast<double>(seen.size());
  CHECK(per_url < 10.0);
  CHECK(per_url > 8.0);
}

TEST_CASE("url key: the same value as Hash8 for every length and on every thread", "[unit]") {
  // Stores keep Hash8 values: the reused MD5 context must not change them,
  // across block boundaries (55, 56, 64 bytes) and after long inputs.
  std::vector<std::string> inputs = {"",
                                     "http://a.test/",
                                     std::string(55, 'x'),
                                     std::string(56, 'y'),
                                     std::string(64, 'z'),
                                     std::string(1000, 'w'),
                                     "http://\xc3\xa9.test/\x01"};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200; ++i) {
    std::string s(rng() % 300, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    inputs.push_back(std::move(s));
  }
  for (const std::string& s : inputs) REQUIRE(crawl::queueserver::UrlKey(s) == crawl::hash::Hash8(s));
  std::atomic<int> mismatches{0};
  std::thread other([&] {
    for (const std::string& s : inputs)
      if (crawl::queueserver::UrlKey(s) != crawl::hash::Hash8(s)) ++mismatches;
  });
  other.join();
  CHECK(mismatches == 0);
}

TEST_CASE("url seen set restored from two scans holds exactly the scanned hashes", "[unit]") {
  std::mt19937_64 rng(11);
  std::vector<uint64_t> hashes;
  for (int i = 0; i < 300'000; ++i) hashes.push_back(rng());
  hashes.push_back(0);           // the value the pending table cannot hold
  hashes.push_back(hashes[17]);  // duplicates count once
  hashes.push_back(hashes[4242]);
  int scans = 0;
  UrlSeenSet seen;
  REQUIRE(seen.RestoreFromScan([&](const std::function<void(uint64_t)>& visit) {
    ++scans;
    for (uint64_t h : hashes) visit(h);
    return true;
  }));
  CHECK(scans == 2);
  CHECK(seen.size() == 300'001);
  for (int i = 0; i < 300'000; i += 7) CHECK(seen.Contains(hashes[static_cast<size_t>(i)]));
  CHECK(seen.Contains(0));
  std::mt19937_64 other(12);
  for (int i = 0; i < 1000; ++i) CHECK(!seen.Contains(other()));
  // Still a working set: inserts after the restore.
  CHECK(!seen.Insert(hashes[5]));
  CHECK(seen.Insert(other()));
  // Memory: the set itself, no second copy of the hashes held.
  CHECK(seen.MemoryBytes() < 300'001 * 8 + (size_t{4} << 20));

  // A failing scan, or scans that disagree, leave it empty and say so.
  UrlSeenSet failed;
  CHECK(!failed.RestoreFromScan([&](const std::function<void(uint64_t)>& visit) {
    visit(1);
    return false;
  }));
  CHECK(failed.size() == 0);
  scans = 0;
  CHECK(!failed.RestoreFromScan([&](const std::function<void(uint64_t)>& visit) {
    for (uint64_t h : hashes) visit(h);
    if (++scans == 2) visit(hashes[3] ^ 1);  // one more hash the second time
    return true;
  }));
  CHECK(failed.size() == 0);
  CHECK(!failed.Contains(hashes[3]));
}
