// Tests for IsPrivateOrLocal (common/address_policy.h): one section per range.
#include "common/address_policy.h"

#include <catch2/catch.hpp>

namespace {

bool Private(const char* text) { return crawl::IsPrivateOrLocal(boost::asio::ip::make_address(text)); }

}  // namespace

TEST_CASE("loopback addresses are local", "[unit][policy]") {
  CHECK(Private("127.0.0.1"));
  CHECK(Private("127.20.0.1"));
  CHECK(Private("127.255.255.254"));
  CHECK(Private("::1"));
}

TEST_CASE("RFC 1918 private ranges are private", "[unit][policy]") {
  CHECK(Private("10.0.0.1"));
  CHECK(Private("10.255.255.255"));
  CHECK(Private("172.16.0.1"));
  CHECK(Private("172.31.255.255"));
  CHECK(Private("192.168.1.1"));
  // Just outside the 172.16/12 and 192.168/16 blocks.
  CHECK_FALSE(Private("172.15.255.255"));
  CHECK_FALSE(Private("172.32.0.0"));
  CHECK_FALSE(Private("192.169.0.1"));
  CHECK_FALSE(Private("11.0.0.1"));
}

TEST_CASE("link-local addresses are local", "[unit][policy]") {
  CHECK(Private("169.254.169.254"));  // cloud metadata service
  CHECK(Private("169.254.0.1"));
  CHECK_FALSE(Private("169.253.255.255"));
  CHECK(Private("fe80::1"));
  CHECK(Private("febf::1"));  // still inside fe80::/10
  CHECK_FALSE(Private("fec0::1"));
}

TEST_CASE("unique local IPv6 addresses are private", "[unit][policy]") {
  CHECK(Private("fc00::1"));
  CHECK(Private("fd12:3456:789a::1"));
  CHECK_FALSE(Private("fe00::1"));
}

TEST_CASE("unspecified addresses are local", "[unit][policy]") {
  CHECK(Private("0.0.0.0"));
  CHECK(Private("0.1.2.3"));  // 0/8 "this network"
  CHECK(Private("::"));
}

TEST_CASE("carrier-grade NAT space is private", "[unit][policy]") {
  CHECK(Private("100.64.0.1"));
  CHECK(Private("100.127.255.255"));
  CHECK_FALSE(Private("100.63.255.255"));
  CHECK_FALSE(Private("100.128.0.0"));
}

TEST_CASE("multicast, reserved and broadcast addresses are refused", "[unit][policy]") {
  CHECK(Private("224.0.0.1"));
  CHECK(Private("239.255.255.250"));
  CHECK(Private("240.0.0.1"));
  CHECK(Private("255.255.255.255"));
  CHECK(Private("ff02::1"));
}

TEST_CASE("IPv4-mapped IPv6 addresses are judged by their IPv4 address", "[unit][policy]") {
  CHECK(Private("::ffff:127.0.0.1"));
  CHECK(Private("::ffff:10.1.2.3"));
  CHECK(Private("::ffff:192.168.0.1"));
  CHECK(Private("::ffff:169.254.1.1"));
  CHECK(Private("::ffff:100.64.0.1"));
  CHECK_FALSE(Private("::ffff:8.8.8.8"));
}

TEST_CASE("public addresses are allowed", "[unit][policy]") {
  CHECK_FALSE(Private("8.8.8.8"));
  CHECK_FALSE(Private("93.184.216.34"));
  CHECK_FALSE(Private("1.1.1.1"));
  CHECK_FALSE(Private("2606:4700:4700::1111"));
  CHECK_FALSE(Private("2001:db8::1"));  // documentation range: not covered, see header
}
