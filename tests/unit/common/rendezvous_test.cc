// Rendezvous hashing and identifier hashes (common/rendezvous.h, common/hash.h).
#include "common/rendezvous.h"

#include <catch2/catch.hpp>

#include <map>
#include <thread>
#include <utility>
#include <vector>

#include "common/hash.h"

TEST_CASE("the 8-byte hash xors the two halves of md5", "[unit]") {
  // MD5("") = d41d8cd98f00b204 e9800998ecf8427e
  CHECK(crawl::hash::Hash8Hex("") == "3d9d854163f8f07a");
  CHECK(crawl::hash::Hash8("") == 0x3d9d854163f8f07aULL);
}

TEST_CASE("a body's digest is the first 8 bytes of its SHA-1, interleaved with MD5 calls on one thread", "[unit]") {
  // FIPS 180-2 appendix A: SHA-1("abc") = a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d.
  CHECK(crawl::hash::ContentDigestHex("abc") == "a9993e364706816a");
  CHECK(crawl::hash::Hash8Hex("") == "3d9d854163f8f07a");  // the same thread context, another algorithm
  CHECK(crawl::hash::ContentDigestHex("") == "da39a3ee5e6b4b0d");
  CHECK(crawl::hash::ContentDigestHex(std::string(1'000'000, 'a')) == "34aa973cd4c4daa4");
}

TEST_CASE("a page's text hash is XXH3-64: xxHash's own sanity vectors", "[unit]") {
  // xxHash 0.8.1 cli/xsum_sanity_check.c: XXH3_64bits, seed 0, of the first
  // `len` bytes of the buffer whose byte i is the top byte of
  // 2654435761 * 11400714785074694797^i (mod 2^64).
  std::string buffer(256, '\0');
  uint64_t w = 2654435761U;
  for (char& c : buffer) {
    c = static_cast<char>(w >> 56);
    w *= 11400714785074694797ULL;
  }
  const std::vector<std::pair<size_t, uint64_t>> vectors{
      {0, 0x2D06800538D394C2ULL},  {1, 0xC44BDFF4074EECDBULL},  {6, 0x27B56A84CD2D7325ULL},
      {12, 0xA713DAF0DFBB77E7ULL}, {24, 0xA3FE70BF9D3510EBULL}, {48, 0x397DA259ECBA1F11ULL},
      {80, 0xBCDEFBBB2C47C90AULL}, {195, 0xCD94217EE362EC3AULL}};
  for (const auto& [len, expected] : vectors) {
    INFO("length " << len);
    CHECK(crawl::hash::PageTextHash(std::string_view(buffer).substr(0, len)) == expected);
  }
}

TEST_CASE("md5 gives the RFC 1321 test suite's digests, on any thread, call after call", "[unit]") {
  // RFC 1321 appendix A.5; the digest context is reused per thread, so each
  // input is hashed twice and on a second thread too.
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
