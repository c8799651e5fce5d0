// Tests for IsPrivateOrLocal (common/net/address_policy.h). Driven by
// common/data/iana-special-purpose.csv: the code's table must be the file's,
// and the first, a middle and the last address of every row are judged as
// the file says (an oracle written here from the file alone). Then the
// public addresses that must stay reachable and the bypasses once found.
#include "common/net/address_policy.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace ip = boost::asio::ip;
using Bytes = std::array<uint8_t, 16>;  // IPv4 uses the first 4

bool Private(const char* text) { return crawl::IsPrivateOrLocal(ip::make_address(text)); }

struct Row {
  int line = 0;
  std::string prefix, name, reachable, policy;
  bool v4 = false;
  Bytes bytes{};
  int bits = 0;
};

int Width(bool v4) { return v4 ? 32 : 128; }

bool Bit(const Bytes& b, int i) { return (b[i / 8] >> (7 - i % 8)) & 1; }
void SetBit(Bytes& b, int i, bool on) {
  const auto mask = static_cast<uint8_t>(0x80 >> (i % 8));
  b[i / 8] = on ? (b[i / 8] | mask) : (b[i / 8] & ~mask);
}

ip::address ToAddress(const Bytes& b, bool v4) {
  if (v4) return ip::address_v4(ip::address_v4::bytes_type{b[0], b[1], b[2], b[3]});
  ip::address_v6::bytes_type v6{};
  std::copy(b.begin(), b.end(), v6.begin());
  return ip::address_v6(v6);
}

// The rows of the data file; a malformed row fails the test that reads it.
std::vector<Row> ReadRows() {
  const std::string path = std::string(CRAWL_SOURCE_DIR) + "/common/data/iana-special-purpose.csv";
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<Row> rows;
  std::string text;
  bool header = true;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    if (header) {
      REQUIRE(text == "registry,prefix,name,rfc,globally_reachable,policy");
      header = false;
      continue;
    }
    std::vector<std::string> fields;
    std::stringstream split(text);
    for (std::string f; std::getline(split, f, ',');) fields.push_back(f);
    if (!text.empty() && text.back() == ',') fields.emplace_back();
    INFO("line " << line << ": " << text);
    REQUIRE(fields.size() == 6);
    Row row{line, fields[1], fields[2], fields[4], fields[5]};
    const size_t slash = row.prefix.find('/');
    REQUIRE(slash != std::string::npos);
    const ip::address address = ip::make_address(row.prefix.substr(0, slash));
    row.v4 = address.is_v4();
    row.bits = std::stoi(row.prefix.substr(slash + 1));
    REQUIRE(row.bits >= 0);
    REQUIRE(row.bits <= Width(row.v4));
    if (row.v4) {
      const auto b = address.to_v4().to_bytes();
      std::copy(b.begin(), b.end(), row.bytes.begin());
    } else {
      const auto b = address.to_v6().to_bytes();
      std::copy(b.begin(), b.end(), row.bytes.begin());
    }
    for (int i = row.bits; i < Width(row.v4); ++i) REQUIRE_FALSE(Bit(row.bytes, i));  // host bits are zero
    REQUIRE((row.policy == "refuse" || row.policy == "judge-ipv4-mapped" || row.policy == "judge-6to4"));
    rows.push_back(row);
  }
  return rows;
}

const std::vector<Row>& Rows() {
  static const std::vector<Row> rows = ReadRows();
  return rows;
}

bool Contains(const Row& row, const Bytes& b, bool v4) {
  if (row.v4 != v4) return false;
  for (int i = 0; i < row.bits; ++i)
    if (Bit(row.bytes, i) != Bit(b, i)) return false;
  return true;
}

// The data file's verdict: the longest matching row's policy; no row: allowed.
bool Oracle(const Bytes& b, bool v4) {
  const Row* longest = nullptr;
  for (const Row& row : Rows())
    if (Contains(row, b, v4) && (longest == nullptr || row.bits > longest->bits)) longest = &row;
  if (longest == nullptr) return false;
  if (longest->policy == "refuse") return true;
  const int at = longest->policy == "judge-6to4" ? 2 : 12;
  return Oracle(Bytes{b[at], b[at + 1], b[at + 2], b[at + 3]}, true);
}

bool Oracle(const char* text) {
  const ip::address a = ip::make_address(text);
  Bytes b{};
  if (a.is_v4()) {
    const auto v4 = a.to_v4().to_bytes();
    std::copy(v4.begin(), v4.end(), b.begin());
  } else {
    b = a.to_v6().to_bytes();
  }
  return Oracle(b, a.is_v4());
}

std::string PolicyName(crawl::RangePolicy p) {
  switch (p) {
    case crawl::RangePolicy::kRefuse:
      return "refuse";
    case crawl::RangePolicy::kJudgeIpv4Mapped:
      return "judge-ipv4-mapped";
    case crawl::RangePolicy::kJudge6to4:
      return "judge-6to4";
  }
  return "?";
}

}  // namespace

TEST_CASE("the policy's table is the data file's, row for row", "[unit][policy]") {
  std::vector<std::string> file, code;
  for (const Row& row : Rows()) file.push_back(row.prefix + " " + row.policy);
  for (const crawl::SpecialRange& r : crawl::SpecialRanges())
    code.push_back(std::string(r.prefix) + " " + PolicyName(r.policy));
  for (const std::string& f : file)
    if (std::find(code.begin(), code.end(), f) == code.end())
      FAIL_CHECK("missing in address_policy.cc: " << f);
  for (const std::string& c : code)
    if (std::find(file.begin(), file.end(), c) == file.end()) FAIL_CHECK("not in the data file: " << c);
  CHECK(code == file);  // same order, so the two are read side by side
  CHECK(file.size() > 60);
}

TEST_CASE("the first, a middle and the last address of every row are judged as the data file says",
          "[unit][policy]") {
  int refused = 0;
  for (const Row& row : Rows()) {
    Bytes first = row.bytes, last = row.bytes, middle = row.bytes;
    for (int i = row.bits; i < Width(row.v4); ++i) SetBit(last, i, true);
    if (row.bits < Width(row.v4)) SetBit(middle, row.bits, true);
    for (const Bytes& b : {first, middle, last}) {
      const ip::address a = ToAddress(b, row.v4);
      INFO("line " << row.line << " " << row.prefix << " (" << row.name << "): " << a.to_string());
      const bool expected = Oracle(b, row.v4);
      CHECK(crawl::IsPrivateOrLocal(a) == expected);
      // A row that refuses decides for itself unless a longer row holds the address.
      if (row.policy == "refuse") {
        bool longer = false;
        for (const Row& other : Rows()) longer |= other.bits > row.bits && Contains(other, b, row.v4);
        if (!longer) CHECK(expected);
      }
      refused += expected;
    }
  }
  CHECK(refused > 150);
}

// Our policy: rows the registry marks globally reachable are refused too
// (address_policy.h says why), so no row of the file allows anything.
TEST_CASE("globally reachable special-purpose rows are refused", "[unit][policy]") {
  int reachable = 0;
  for (const Row& row : Rows()) {
    if (row.reachable != "True") continue;
    ++reachable;
    INFO(row.prefix << " " << row.name);
    CHECK(crawl::IsPrivateOrLocal(ToAddress(row.bytes, row.v4)));
  }
  CHECK(reachable == 14);
}

TEST_CASE("public unicast addresses are allowed", "[unit][policy]") {
  for (const char* text : {"8.8.8.8",
                           "1.1.1.1",
                           "93.184.216.34",
                           "192.0.3.1",
                           "192.0.1.255",
                           "192.88.98.255",
                           "192.88.100.0",
                           "198.17.255.255",
                           "198.20.0.0",
                           "11.0.0.1",
                           "172.15.255.255",
                           "172.32.0.0",
                           "192.169.0.1",
                           "100.63.255.255",
                           "100.128.0.0",
                           "169.253.255.255",
                           "223.255.255.255",
                           "2606:4700::1111",
                           "2606:4700:4700::1111",
                           "2a00:1450::1",
                           "2a00:1450:4001:82b::200e",
                           "2001:4860:4860::8888",
                           "2001:200::1",
                           "2003::1",
                           "2c0f:fb50:4002:804::200e",
                           "::ffff:8.8.8.8",
                           "2002:808:808::1"}) {
    INFO(text);
    CHECK_FALSE(Private(text));
    CHECK_FALSE(Oracle(text));  // the data file agrees
  }
}

TEST_CASE("embedded IPv4 bypasses are refused", "[unit][policy]") {
  for (const char* text : {
           "::127.0.0.1",
           "::10.0.0.1",
           "::169.254.169.254",
           "::8.8.8.8",  // IPv4-compatible ::/96
           "::ffff:127.0.0.1",
           "::ffff:10.1.2.3",
           "::ffff:169.254.169.254",
           "::ffff:198.18.0.1",
           "::ffff:0.0.0.0",
           "::ffff:255.255.255.255",  // IPv4-mapped
           "::ffff:0:7f00:1",         // IPv4-translated
           "64:ff9b::7f00:1",
           "64:ff9b::a9fe:a9fe",
           "64:ff9b::808:808",  // NAT64
           "64:ff9b:1::a00:1",
           "64:ff9b:1::808:808",  // local NAT64
           "2002:7f00:1::1",
           "2002:a9fe:a9fe::1",
           "2002:c0a8:101::1",
           "2002::1",  // 6to4 of refused IPv4
           "2001::1",
           "2001:0:4136:e378:8000:63bf:3fff:fdd2",  // Teredo
       }) {
    INFO(text);
    CHECK(Private(text));
    CHECK(Oracle(text));
  }
}

TEST_CASE("special-purpose ranges once let through are refused", "[unit][policy]") {
  for (const char* text :
       {"198.18.0.1",   "198.19.255.255",  "192.0.0.9",    "192.0.0.170",  "192.0.2.1",     "192.88.99.1",
        "192.31.196.1", "192.52.193.1",    "192.175.48.1", "198.51.100.7", "203.0.113.200", "fec0::1",
        "feff::1",      "fe00::1",         "100::1",       "100:0:0:1::1", "5f00::1",       "3fff::1",
        "2001:db8::1",  "2001:2::1",       "2001:10::1",   "2001:20::1",   "2001:30::1",    "2001:1::1",
        "2001:3::1",    "2620:4f:8000::1", "4000::1",      "::2",          "1::1"}) {
    INFO(text);
    CHECK(Private(text));
  }
}

TEST_CASE("loopback, private and link-local addresses are refused", "[unit][policy]") {
  for (const char* text : {"127.0.0.1",         "127.20.0.1",
                           "127.255.255.254",   "::1",
                           "10.0.0.1",          "10.255.255.255",
                           "172.16.0.1",        "172.31.255.255",
                           "192.168.1.1",       "169.254.169.254",
                           "169.254.0.1",       "fe80::1",
                           "febf::1",           "fc00::1",
                           "fd12:3456:789a::1", "0.0.0.0",
                           "0.1.2.3",           "::",
                           "100.64.0.1",        "100.127.255.255",
                           "224.0.0.1",         "239.255.255.250",
                           "240.0.0.1",         "255.255.255.255",
                           "ff02::1",           "ff05::1:3"}) {
    INFO(text);
    CHECK(Private(text));
  }
}
