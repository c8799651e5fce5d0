// Which IP addresses a crawler must not connect to by default: anything that
// reaches the crawler's own machine or network instead of the public web
// (protection against pages or DNS records that point at internal services).
//
// The ranges are the rows of common/data/iana-special-purpose.csv: IANA's
// IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890, RFC 8190), the
// IPv4 multicast block, every IPv6 block outside 2000::/3 (Global Unicast)
// in IANA's IPv6 address space registry (fec0::/10 site-local, ff00::/8
// multicast and the reserved blocks) and ::/96 (IPv4-compatible, RFC 4291).
// The address's longest matching row decides:
//
//   rows                                   decision
//   every IPv4 row                         refused
//   ::ffff:0:0/96 IPv4-mapped              judged as the IPv4 address it holds
//   2002::/16 6to4                         judged as the IPv4 address in bits
//                                          16-47 (2002:7f00:1:: is 127.0.0.1)
//   64:ff9b::/96 NAT64                     refused, whatever IPv4 it holds: it
//                                          is reached through a translator on
//                                          the crawler's own network
//   64:ff9b:1::/48 local NAT64             refused
//   ::/96 IPv4-compatible, ::/8            refused (deprecated; no public use)
//   2001::/23 IETF protocol assignments    refused, Teredo 2001::/32 included
//   every other IPv6 row                   refused
//   no row (public unicast)                allowed
//
// Rows the registries mark globally reachable are refused too, because none
// is an ordinary public web server: PCP, TURN and DNS-SD SRP anycast
// (192.0.0.9, 192.0.0.10, 2001:1::1-3) answer from the nearest such server,
// usually a box on the crawler's own network; AMT relays and AS112 servers
// are anycast infrastructure (multicast tunnels, DNS sinks); ORCHIDv2 and
// DETs (2001:20::/28, 2001:30::/28) are host and drone identifiers, not
// locators. The deprecated 6to4 relay anycast 192.88.99.0/24 is refused.
//
// Callers: every address the fetcher would connect to (DNS answers and IP
// literals) goes through IsPrivateOrLocal (fetcher/http/fetch_session_connect.cc),
// unless the crawl or the fetcher allows private addresses (tests crawl a
// synthetic web on 127.0.0.0/8 that way) or the hosts file names the host.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <cstdint>
#include <span>
#include <string_view>

namespace crawl {

// True if the policy above refuses `address`. Pure; thread-safe; a linear
// scan over the table (it runs on every DNS answer).
[[nodiscard]] bool IsPrivateOrLocal(const boost::asio::ip::address& address);
[[nodiscard]] bool IsPrivateOrLocal(const boost::asio::ip::address_v4& address);
[[nodiscard]] bool IsPrivateOrLocal(const boost::asio::ip::address_v6& address);

// What a row of the table decides (the data file's "policy" column).
enum class RangePolicy : uint8_t {
  kRefuse,           // "refuse"
  kJudgeIpv4Mapped,  // "judge-ipv4-mapped": the IPv4 address in the last 32 bits
  kJudge6to4,        // "judge-6to4": the IPv4 address in bits 16-47
};

struct SpecialRange {
  std::string_view prefix;  // "address/length"
  RangePolicy policy;
};

// The table the policy uses: the data file's rows, in its order (the unit
// test compares them). Static storage.
[[nodiscard]] std::span<const SpecialRange> SpecialRanges();

}  // namespace crawl
