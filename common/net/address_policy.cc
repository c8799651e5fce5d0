// See address_policy.h for the decisions and common/data/
// iana-special-purpose.csv for the rows and their sources.
#include "common/net/address_policy.h"

#include <array>
#include <charconv>
#include <optional>
#include <string>
#include <vector>

namespace crawl {
namespace {

using Policy = RangePolicy;

// The rows of common/data/iana-special-purpose.csv, in its order.
constexpr SpecialRange kRanges[] = {
    // IANA IPv4 Special-Purpose Address Registry.
    {"0.0.0.0/8", Policy::kRefuse},
    {"0.0.0.0/32", Policy::kRefuse},
    {"10.0.0.0/8", Policy::kRefuse},
    {"100.64.0.0/10", Policy::kRefuse},
    {"127.0.0.0/8", Policy::kRefuse},
    {"169.254.0.0/16", Policy::kRefuse},
    {"172.16.0.0/12", Policy::kRefuse},
    {"192.0.0.0/24", Policy::kRefuse},
    {"192.0.0.0/29", Policy::kRefuse},
    {"192.0.0.8/32", Policy::kRefuse},
    {"192.0.0.9/32", Policy::kRefuse},
    {"192.0.0.10/32", Policy::kRefuse},
    {"192.0.0.170/32", Policy::kRefuse},
    {"192.0.0.171/32", Policy::kRefuse},
    {"192.0.2.0/24", Policy::kRefuse},
    {"192.31.196.0/24", Policy::kRefuse},
    {"192.52.193.0/24", Policy::kRefuse},
    {"192.88.99.0/24", Policy::kRefuse},
    {"192.88.99.2/32", Policy::kRefuse},
    {"192.168.0.0/16", Policy::kRefuse},
    {"192.175.48.0/24", Policy::kRefuse},
    {"198.18.0.0/15", Policy::kRefuse},
    {"198.51.100.0/24", Policy::kRefuse},
    {"203.0.113.0/24", Policy::kRefuse},
    {"240.0.0.0/4", Policy::kRefuse},
    {"255.255.255.255/32", Policy::kRefuse},
    // IANA IPv4 address space: multicast.
    {"224.0.0.0/4", Policy::kRefuse},
    // IANA IPv6 Special-Purpose Address Registry.
    {"::1/128", Policy::kRefuse},
    {"::/128", Policy::kRefuse},
    {"::ffff:0:0/96", Policy::kJudgeIpv4Mapped},
    {"64:ff9b::/96", Policy::kRefuse},
    {"64:ff9b:1::/48", Policy::kRefuse},
    {"100::/64", Policy::kRefuse},
    {"100:0:0:1::/64", Policy::kRefuse},
    {"2001::/23", Policy::kRefuse},
    {"2001::/32", Policy::kRefuse},
    {"2001:1::1/128", Policy::kRefuse},
    {"2001:1::2/128", Policy::kRefuse},
    {"2001:1::3/128", Policy::kRefuse},
    {"2001:2::/48", Policy::kRefuse},
    {"2001:3::/32", Policy::kRefuse},
    {"2001:4:112::/48", Policy::kRefuse},
    {"2001:10::/28", Policy::kRefuse},
    {"2001:20::/28", Policy::kRefuse},
    {"2001:30::/28", Policy::kRefuse},
    {"2001:db8::/32", Policy::kRefuse},
    {"2002::/16", Policy::kJudge6to4},
    {"2620:4f:8000::/48", Policy::kRefuse},
    {"3fff::/20", Policy::kRefuse},
    {"5f00::/16", Policy::kRefuse},
    {"fc00::/7", Policy::kRefuse},
    {"fe80::/10", Policy::kRefuse},
    // IANA IPv6 address space: everything outside 2000::/3 not listed above.
    {"::/8", Policy::kRefuse},
    {"100::/8", Policy::kRefuse},
    {"200::/7", Policy::kRefuse},
    {"400::/6", Policy::kRefuse},
    {"800::/5", Policy::kRefuse},
    {"1000::/4", Policy::kRefuse},
    {"4000::/3", Policy::kRefuse},
    {"6000::/3", Policy::kRefuse},
    {"8000::/3", Policy::kRefuse},
    {"a000::/3", Policy::kRefuse},
    {"c000::/3", Policy::kRefuse},
    {"e000::/4", Policy::kRefuse},
    {"f000::/5", Policy::kRefuse},
    {"f800::/6", Policy::kRefuse},
    {"fe00::/9", Policy::kRefuse},
    {"fec0::/10", Policy::kRefuse},
    {"ff00::/8", Policy::kRefuse},
    // RFC 4291 2.5.5.1: IPv4-compatible, deprecated.
    {"::/96", Policy::kRefuse},
};

// A row as masks over the address: IPv4 in one 32-bit word, IPv6 in two
// 64-bit words (most significant first).
struct V4Range {
  uint32_t network;
  uint32_t mask;
  int bits;
  Policy policy;
};
struct V6Range {
  std::array<uint64_t, 2> network;
  std::array<uint64_t, 2> mask;
  int bits;
  Policy policy;
};
struct Tables {
  std::vector<V4Range> v4;
  std::vector<V6Range> v6;
};

uint64_t Mask64(int bits) { return bits <= 0 ? 0 : bits >= 64 ? ~uint64_t{0} : ~uint64_t{0} << (64 - bits); }

std::array<uint64_t, 2> Words(const boost::asio::ip::address_v6& address) {
  const auto bytes = address.to_bytes();
  std::array<uint64_t, 2> words{};
  for (int i = 0; i < 16; ++i) words[i / 8] = (words[i / 8] << 8) | bytes[i];
  return words;
}

// "address/length" as an address and a prefix length; nullopt if malformed.
std::optional<std::pair<boost::asio::ip::address, int>> ParsePrefix(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(std::string(text.substr(0, slash)), ec);
  int bits = -1;
  const std::string_view length = text.substr(slash + 1);
  const auto [end, err] = std::from_chars(length.data(), length.data() + length.size(), bits);
  if (ec || err != std::errc() || end != length.data() + length.size()) return std::nullopt;
  if (bits < 0 || bits > (address.is_v4() ? 32 : 128)) return std::nullopt;
  return std::make_pair(address, bits);
}

// kRanges parsed once. A malformed row is left out (the unit test parses
// every row and fails on one).
const Tables& Parsed() {
  static const Tables* tables = [] {
    auto* t = new Tables();
    for (const SpecialRange& range : kRanges) {
      const auto parsed = ParsePrefix(range.prefix);
      if (!parsed) continue;
      const auto& [address, bits] = *parsed;
      if (address.is_v4()) {
        const uint32_t mask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
        t->v4.push_back({address.to_v4().to_uint() & mask, mask, bits, range.policy});
      } else {
        const std::array<uint64_t, 2> mask{Mask64(bits), Mask64(bits - 64)};
        const auto words = Words(address.to_v6());
        t->v6.push_back({{words[0] & mask[0], words[1] & mask[1]}, mask, bits, range.policy});
      }
    }
    return t;
  }();
  return *tables;
}

// The IPv4 address in the 32 bits of `words` from bit `from` (0 = the
// address's most significant bit). REQUIRES: the 32 bits lie in one word.
boost::asio::ip::address_v4 EmbeddedV4(const std::array<uint64_t, 2>& words, int from) {
  const uint64_t word = words[from / 64];
  return boost::asio::ip::address_v4(static_cast<uint32_t>(word >> (64 - 32 - from % 64)));
}

}  // namespace

std::span<const SpecialRange> SpecialRanges() { return kRanges; }

bool IsPrivateOrLocal(const boost::asio::ip::address_v4& address) {
  // Every IPv4 row refuses: any match decides.
  const uint32_t a = address.to_uint();
  for (const V4Range& range : Parsed().v4) {
    if ((a & range.mask) == range.network) return true;
  }
  return false;
}

bool IsPrivateOrLocal(const boost::asio::ip::address_v6& address) {
  const auto words = Words(address);
  const V6Range* longest = nullptr;
  for (const V6Range& range : Parsed().v6) {
    if ((words[0] & range.mask[0]) == range.network[0] && (words[1] & range.mask[1]) == range.network[1] &&
        (longest == nullptr || range.bits > longest->bits)) {
      longest = &range;
    }
  }
  if (longest == nullptr) return false;
  switch (longest->policy) {
    case Policy::kRefuse:
      return true;
    case Policy::kJudgeIpv4Mapped:
      return IsPrivateOrLocal(EmbeddedV4(words, 96));
    case Policy::kJudge6to4:
      return IsPrivateOrLocal(EmbeddedV4(words, 16));
  }
  return true;
}

bool IsPrivateOrLocal(const boost::asio::ip::address& address) {
  return address.is_v4() ? IsPrivateOrLocal(address.to_v4()) : IsPrivateOrLocal(address.to_v6());
}

}  // namespace crawl
