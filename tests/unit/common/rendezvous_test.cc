// Rendezvous hashing and identifier hashes (common/rendezvous.h, common/hash.h).
#include "common/rendezvous.h"

#include <catch2/catch.hpp>

#include <map>

#include "common/hash.h"

TEST_CASE("the 8-byte hash xors the two halves of md5", "[unit]") {
  // MD5("") = d41d8cd98f00b204 e9800998ecf8427e
  CHECK(crawl::hash::Hash8Hex("") == "3d9d854163f8f07a");
  CHECK(crawl::hash::Hash8("") == 0x3d9d854163f8f07aULL);
}

TEST_CASE("every url of a host goes to one owner, spread evenly", "[unit]") {
  const std::vector<std::string> ids{"qs0", "qs1", "qs2"};
  std::map<size_t, int> counts;
  for (int i = 0; i < 3000; ++i) {
    const std::string host = "www.site" + std::to_string(i) + ".test";
    const size_t owner = crawl::OwnerIndex(ids, host);
    CHECK(owner == crawl::OwnerIndex(ids, host));
    ++counts[owner];
  }
  for (const auto& [owner, n] : counts) CHECK(n > 800);
}

TEST_CASE("removing a server moves only the hosts it owned", "[unit]") {
  const std::vector<std::string> three{"qs0", "qs1", "qs2"};
  const std::vector<std::string> two{"qs0", "qs2"};
  for (int i = 0; i < 1000; ++i) {
    const std::string host = "h" + std::to_string(i) + ".test";
    const std::string before = three[crawl::OwnerIndex(three, host)];
    const std::string after = two[crawl::OwnerIndex(two, host)];
    if (before != "qs1") CHECK(before == after);
  }
}
