// Which IP addresses a crawler must not connect to by default: anything that
// reaches the crawler's own machine or network instead of the public web
// (protection against pages or DNS records that point at internal services).
//
// Ranges (IANA special-purpose registries, RFC 6890):
//   IPv4: 0.0.0.0/8 ("this network", incl. unspecified), 10/8, 172.16/12,
//         192.168/16 (RFC 1918), 100.64/10 (CGNAT, RFC 6598), 127/8 (loopback),
//         169.254/16 (link-local, RFC 3927), 224/4 (multicast), 240/4
//         (reserved, incl. 255.255.255.255 broadcast).
//   IPv6: :: (unspecified), ::1 (loopback), fe80::/10 (link-local),
//         fc00::/7 (unique local, RFC 4193), ff00::/8 (multicast), and
//         ::ffff:a.b.c.d (IPv4-mapped, RFC 4291 2.5.5.2) judged by its IPv4.
// Not covered (deliberately kept simple): NAT64 64:ff9b::/96, 6to4 2002::/16
// and Teredo embeddings, documentation ranges.
#pragma once

#include <boost/asio/ip/address.hpp>

namespace crawl {

// True if `address` is in one of the ranges above. Pure; thread-safe.
[[nodiscard]] bool IsPrivateOrLocal(const boost::asio::ip::address& address);
[[nodiscard]] bool IsPrivateOrLocal(const boost::asio::ip::address_v4& address);
[[nodiscard]] bool IsPrivateOrLocal(const boost::asio::ip::address_v6& address);

}  // namespace crawl
