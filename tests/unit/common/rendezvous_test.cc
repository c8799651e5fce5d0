// Rendezvous hashing and identifier hashes (common/crawl/rendezvous.h, common/base/hash.h).
#include "common/crawl/rendezvous.h"

#include <catch2/catch.hpp>
#include <map>
#include <thread>
#include <utility>
#include <vector>

#include "common/base/hash.h"

TEST_CASE("the 8-byte hash xors the two halves of md5", "[unit]") {
  // MD5("") = d41d8cd98f00b204 e9800998ecf8427e
  CHECK(crawl::hash::Hash8Hex("") == "3d9d854163f8f07a");
  CHECK(crawl::hash::Hash8("") == 0x3d9d854163f8f07aULL);
}

TEST_CASE("md5 gives the RFC 1321 test suite's digests, on any thread, call after call", "[unit]") {
  // RFC 1321 appendix A.5; each input hashed twice, and on a second thread
  // too (common/base/md5.cc keeps no state between calls).
  const std::vector<std::pair<std::string, std::string>> suite{
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
      {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
       "57edf4a22be3c955ac49da2e2107b67a"}};
  auto hex = [](const std::array<uint8_t, 16>& d) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (uint8_t b : d) {
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 15]);
    }
    return out;
  };
  auto check_all = [&] {
    std::vector<std::string> got;
    for (int round = 0; round < 2; ++round)
      for (const auto& [input, digest] : suite) got.push_back(hex(crawl::hash::Md5(input)) + " " + digest);
    return got;
  };
  std::vector<std::string> other;
  std::thread t([&] { other = check_all(); });
  t.join();
  for (const auto& v : {check_all(), other}) {
    REQUIRE(v.size() == 2 * suite.size());
    for (const std::string& line : v) CHECK(line.substr(0, 32) == line.substr(33));
  }
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

TEST_CASE("RecurringHash8 is Hash8, for strings met once, again, past its memory and on other threads",
          "[unit]") {
  auto check = [](int seed) {
    for (int round = 0; round < 3; ++round) {
      for (int i = 0; i < 70'000; i += round == 0 ? 1 : 7) {
        const std::string url =
            "https://host" + std::to_string((i + seed) % 97) + ".example/p/" + std::to_string(i);
        if (crawl::hash::RecurringHash8(url) != crawl::hash::Hash8(url)) return false;
      }
    }
    const std::string long_url =
        "https://example.com/" + std::string(600, 'x');  // past the remembered length
    return crawl::hash::RecurringHash8(long_url) == crawl::hash::Hash8(long_url) &&
           crawl::hash::RecurringHash8("") == crawl::hash::Hash8("");
  };
  bool other = false;
  std::thread t([&] { other = check(5); });
  CHECK(check(0));
  t.join();
  CHECK(other);
}
