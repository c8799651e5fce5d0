// MD5 (common/md5.cc, declared in common/hash.h): RFC 1321's test suite, and
// the digest OpenSSL computes for every length around the block boundaries.
#include <openssl/evp.h>

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "common/hash.h"

namespace {

std::string Hex(const std::array<uint8_t, 16>& d) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : d) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

std::array<uint8_t, 16> OpenSslMd5(const std::string& data) {
  std::array<uint8_t, 16> out{};
  unsigned int len = 0;
  REQUIRE(EVP_Digest(data.data(), data.size(), out.data(), &len, EVP_md5(), nullptr) == 1);
  REQUIRE(len == 16);
  return out;
}

}  // namespace

// RFC 1321 A.5.
TEST_CASE("md5 gives RFC 1321's test suite digests", "[unit]") {
  CHECK(Hex(crawl::hash::Md5("")) == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(Hex(crawl::hash::Md5("a")) == "0cc175b9c0f1b6a831c399e269772661");
  CHECK(Hex(crawl::hash::Md5("abc")) == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(Hex(crawl::hash::Md5("message digest")) == "f96b697d7cb7938d525a2f31aaf161d0");
  CHECK(Hex(crawl::hash::Md5("abcdefghijklmnopqrstuvwxyz")) == "c3fcd3d76192e4007dfb496cca67e13b");
  CHECK(Hex(crawl::hash::Md5("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")) ==
        "d174ab98d277d9f5a5611c2c9f419d9f");
  CHECK(Hex(crawl::hash::Md5("1234567890123456789012345678901234567890123456789012345678901234567890123456789"
                             "0")) == "57edf4a22be3c955ac49da2e2107b67a");
}

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
