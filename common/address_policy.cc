// See address_policy.h for the ranges and their sources.
#include "common/address_policy.h"

#include <cstdint>

namespace crawl {
namespace {

// True if the top `bits` bits of `a` equal those of `prefix`.
bool InV4(uint32_t a, uint32_t prefix, int bits) {
  const uint32_t mask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
  return (a & mask) == (prefix & mask);
}

constexpr uint32_t V4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  return (a << 24) | (b << 16) | (c << 8) | d;
}

}  // namespace

bool IsPrivateOrLocal(const boost::asio::ip::address_v4& address) {
  const uint32_t a = address.to_uint();
  return InV4(a, V4(0, 0, 0, 0), 8) ||        // "this network" / unspecified
         InV4(a, V4(10, 0, 0, 0), 8) ||       // RFC 1918
         InV4(a, V4(100, 64, 0, 0), 10) ||    // CGNAT, RFC 6598
         InV4(a, V4(127, 0, 0, 0), 8) ||      // loopback
         InV4(a, V4(169, 254, 0, 0), 16) ||   // link-local
         InV4(a, V4(172, 16, 0, 0), 12) ||    // RFC 1918
         InV4(a, V4(192, 168, 0, 0), 16) ||   // RFC 1918
         InV4(a, V4(224, 0, 0, 0), 4) ||      // multicast
         InV4(a, V4(240, 0, 0, 0), 4);        // reserved + broadcast
}

bool IsPrivateOrLocal(const boost::asio::ip::address_v6& address) {
  if (address.is_v4_mapped()) {
    return IsPrivateOrLocal(boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address));
  }
  const auto bytes = address.to_bytes();
  return address.is_unspecified() ||            // ::
         address.is_loopback() ||               // ::1
         (bytes[0] & 0xfe) == 0xfc ||           // fc00::/7 unique local
         (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0x80) ||  // fe80::/10 link-local
         bytes[0] == 0xff;                      // ff00::/8 multicast
}

bool IsPrivateOrLocal(const boost::asio::ip::address& address) {
  return address.is_v4() ? IsPrivateOrLocal(address.to_v4()) : IsPrivateOrLocal(address.to_v6());
}

}  // namespace crawl
