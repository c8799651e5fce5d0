// FlatStringMap (common/base/flat_string_map.h) against std::unordered_map: the
// same keys found, the same values kept, through growth, clear() and hashes
// that collide (a weak hash that maps many keys to a few slots, and equal
// low 32 bits for different keys).
#include "common/base/flat_string_map.h"

#include <catch2/catch.hpp>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>

#include "common/base/string_hash.h"

namespace {

std::string RandomKey(std::mt19937& rng, int max_length) {
  std::uniform_int_distribution<int> length(0, max_length);
  std::uniform_int_distribution<int> letter('a', 'e');
  std::string key;
  for (int n = length(rng); n > 0; --n) key.push_back(static_cast<char>(letter(rng)));
  return key;
}

// Runs random inserts, finds and clears against a reference map.
void CheckAgainstReference(const std::function<uint64_t(const std::string&)>& hash, int max_key_length,
                           uint32_t seed) {
  std::mt19937 rng(seed);
  crawl::FlatStringMap<int> map;
  std::unordered_map<std::string, int> reference;
  std::uniform_int_distribution<int> op(0, 999);
  for (int step = 0; step < 60000; ++step) {
    const std::string key = RandomKey(rng, max_key_length);
    const int what = op(rng);
    if (what == 0) {
      map.clear();
      reference.clear();
    } else if (what < 500) {
      const auto [value, added] = map.Insert(key, hash(key));
      REQUIRE(added == (reference.count(key) == 0));
      if (added) REQUIRE(*value == 0);  // value-initialised
      *value = step;
      reference[key] = step;
    } else {
      const int* value = map.Find(key, hash(key));
      const auto it = reference.find(key);
      REQUIRE((value != nullptr) == (it != reference.end()));
      if (value != nullptr) REQUIRE(*value == it->second);
    }
    REQUIRE(map.size() == reference.size());
  }
  for (const auto& [key, value] : reference) {
    const int* found = map.Find(key, hash(key));
    REQUIRE(found != nullptr);
    CHECK(*found == value);
  }
}

}  // namespace

TEST_CASE("FlatStringMap keeps what an unordered_map keeps") {
  CheckAgainstReference([](const std::string& k) { return std::hash<std::string>{}(k); }, 12, 1);
}

TEST_CASE("FlatStringMap tells keys apart when their hashes collide") {
  // Few distinct hashes: long probe runs and equal slot hashes (781 keys).
  CheckAgainstReference([](const std::string& k) { return uint64_t{k.size() % 3}; }, 4, 2);
  // Equal low 32 bits, different high bits.
  CheckAgainstReference([](const std::string& k) { return (std::hash<std::string>{}(k) << 32) | 7; }, 6, 3);
}

TEST_CASE("FlatStringMap stores the empty key and keys with NUL bytes") {
  crawl::FlatStringMap<int> map;
  const std::string with_nul("a\0b", 3);
  *map.Insert("", 5).first = 1;
  *map.Insert(with_nul, 5).first = 2;
  *map.Insert("a", 5).first = 3;
  REQUIRE(map.Find("", 5) != nullptr);
  CHECK(*map.Find("", 5) == 1);
  CHECK(*map.Find(with_nul, 5) == 2);
  CHECK(*map.Find("a", 5) == 3);
  CHECK(map.Find("ab", 5) == nullptr);
  CHECK(map.size() == 3);
}

TEST_CASE("SameShortString agrees with == and ShortStringHash sees every byte, at every length") {
  // Lengths around the 4-, 8- and 16-byte loads; one byte changed at each place.
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string a(n, 'x');
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<char>('a' + (i * 7) % 26);
    CHECK(crawl::SameShortString(a, std::string(a)));
    CHECK_FALSE(crawl::SameShortString(a, a + "y"));
    std::set<uint64_t> hashes{crawl::ShortStringHash(a)};
    for (std::size_t i = 0; i < n; ++i) {
      std::string b = a;
      b[i] = static_cast<char>(b[i] ^ 0x20);
      INFO("length " << n << ", byte " << i);
      CHECK_FALSE(crawl::SameShortString(a, b));
      CHECK(crawl::SameShortString(a, b) == (a == b));
      hashes.insert(crawl::ShortStringHash(b));
    }
    CHECK(hashes.size() == n + 1);
  }
}

TEST_CASE("FlatStringMap::Peek guesses the entry in a hash's first slot and the prefetches change nothing") {
  const auto hash = [](const std::string& k) { return std::hash<std::string>{}(k); };
  std::mt19937 rng(4);
  crawl::FlatStringMap<int> map;
  std::unordered_map<std::string, int> reference;
  for (int i = 0; i < 3000; ++i) {
    const std::string key = RandomKey(rng, 9);
    *map.Insert(key, hash(key)).first = i;
    reference[key] = i;
  }
  std::unordered_map<uint32_t, std::set<int>> values_of_hash;  // low 32 bits -> values of keys with it
  for (const auto& [key, value] : reference) values_of_hash[static_cast<uint32_t>(hash(key))].insert(value);
  std::size_t found_by_peek = 0;
  for (const auto& [key, value] : reference) {
    map.Prefetch(hash(key));
    map.PrefetchEntry(hash(key));
    const int* guess = map.Peek(hash(key));
    if (guess == nullptr) continue;
    // Never a value of a key with another hash.
    CHECK(values_of_hash[static_cast<uint32_t>(hash(key))].count(*guess) == 1);
    if (guess == map.Find(key, hash(key))) ++found_by_peek;
  }
  // At a load factor of at most 1/2 most keys sit in their first slot.
  CHECK(found_by_peek > reference.size() / 2);
  // A hash no key has: its first slot is empty or holds another hash.
  for (uint64_t absent = 0; absent < 64; ++absent) {
    if (values_of_hash.count(static_cast<uint32_t>(absent)) != 0) continue;
    map.Prefetch(absent);
    map.PrefetchEntry(absent);
    CHECK(map.Peek(absent) == nullptr);
  }
  CHECK(map.size() == reference.size());
}
