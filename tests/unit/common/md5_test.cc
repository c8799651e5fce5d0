// MD5 (common/base/md5.cc, declared in common/base/hash.h) against the digest OpenSSL
// computes, at every length around the block boundaries (RFC 1321's own
// test suite is in rendezvous_test.cc, with the identifier hashes).
#include <openssl/evp.h>

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "common/base/hash.h"

namespace {

std::array<uint8_t, 16> OpenSslMd5(const std::string& data) {
  std::array<uint8_t, 16> out{};
  unsigned int len = 0;
  REQUIRE(EVP_Digest(data.data(), data.size(), out.data(), &len, EVP_md5(), nullptr) == 1);
  REQUIRE(len == 16);
  return out;
}

}  // namespace

TEST_CASE("md5 equals OpenSSL's at every length up to four blocks and on long input", "[unit]") {
  std::mt19937_64 rng(1321);
  for (size_t length = 0; length <= 260; ++length) {
    for (int round = 0; round < 4; ++round) {
      std::string data(length, '\0');
      for (char& c : data) c = static_cast<char>(rng());
      INFO("length " << length);
      REQUIRE(crawl::hash::Md5(data) == OpenSslMd5(data));
    }
  }
  std::string long_input(3'000'017, '\0');
  for (char& c : long_input) c = static_cast<char>(rng());
  CHECK(crawl::hash::Md5(long_input) == OpenSslMd5(long_input));
}
