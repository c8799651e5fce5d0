// FlatU64Set (common/base/flat_u64_set.h) against std::unordered_set: the same
// answers through growth and clear(), for random keys, key 0, and keys that
// differ only in their high bits (they would share a slot unmixed).
#include "common/base/flat_u64_set.h"

#include <catch2/catch.hpp>
#include <random>
#include <unordered_set>
#include <vector>

namespace {

void CheckAgainstReference(const std::vector<uint64_t>& pool, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, pool.size() - 1);
  std::uniform_int_distribution<int> action(0, 999);
  crawl::FlatU64Set set;
  std::unordered_set<uint64_t> reference;
  for (int step = 0; step < 200'000; ++step) {
    const uint64_t key = pool[pick(rng)];
    const int a = action(rng);
    if (a == 0) {
      set.clear();
      reference.clear();
    } else if (a < 400) {
      REQUIRE(set.Contains(key) == reference.contains(key));
    } else {
      REQUIRE(set.Insert(key) == reference.insert(key).second);
    }
    REQUIRE(set.size() == reference.size());
  }
}

}  // namespace

TEST_CASE("FlatU64Set answers as std::unordered_set for random keys") {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> pool(20'000);
  for (uint64_t& k : pool) k = rng();
  pool[0] = 0;
  pool[1] = ~uint64_t{0};
  CheckAgainstReference(pool, 1);
}

TEST_CASE("FlatU64Set tells apart keys that differ only in their high bits") {
  std::vector<uint64_t> pool;
  for (uint64_t i = 0; i < 5'000; ++i) pool.push_back(i << 40);  // includes 0
  CheckAgainstReference(pool, 2);
}

TEST_CASE("FlatU64Set keeps nothing across clear()") {
  crawl::FlatU64Set set;
  for (uint64_t k = 0; k < 1000; ++k) CHECK(set.Insert(k * 0x9e3779b97f4a7c15ull));
  CHECK(set.size() == 1000);
  set.clear();
  CHECK(set.size() == 0);
  for (uint64_t k = 0; k < 1000; ++k) CHECK_FALSE(set.Contains(k * 0x9e3779b97f4a7c15ull));
  CHECK(set.Insert(0));
  CHECK_FALSE(set.Insert(0));
}
