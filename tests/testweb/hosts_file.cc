// Loopback address assignment and the hosts file; see hosts_file.h.
#include "tests/testweb/hosts_file.h"

#include <algorithm>
#include <boost/asio/ip/address_v4.hpp>

#include "common/base/atomic_file.h"

namespace crawl::testweb {

Result<std::vector<std::string>> LoopbackAddresses(std::string_view base, uint64_t count) {
  boost::system::error_code ec;
  const auto addr = boost::asio::ip::make_address_v4(std::string(base), ec);
  if (ec) return Status::InvalidArgument("bad bind base '" + std::string(base) + "': not an IPv4 address");
  uint32_t next = addr.to_uint();
  if ((next >> 24) != 127)
    return Status::InvalidArgument("bind base must be in 127.0.0.0/8: " + std::string(base));
  std::vector<std::string> out;
  out.reserve(count);
  while (out.size() < count) {
    ++next;
    if ((next >> 24) != 127)
      return Status::InvalidArgument("too many hosts for bind base " + std::string(base));
    const uint32_t last = next & 0xFF;
    if (last == 0 || last == 255) continue;
    out.push_back(boost::asio::ip::address_v4(next).to_string());
  }
  return out;
}

Result<std::vector<std::string>> HostAddresses(std::string_view base, uint64_t hosts, uint64_t ips) {
  const uint64_t distinct = ips == 0 ? hosts : std::min(ips, hosts);
  auto addresses = LoopbackAddresses(base, distinct);
  if (!addresses.ok()) return addresses.status();
  addresses->reserve(hosts);
  for (uint64_t i = distinct; i < hosts; ++i) addresses->push_back((*addresses)[i % distinct]);
  return addresses;
}

std::string FormatHostsFile(const std::vector<HostsEntry>& entries) {
  std::string text;
  for (const auto& e : entries) text += e.address + ":" + std::to_string(e.port) + " " + e.name + "\n";
  return text;
}

Status WriteHostsFile(const std::string& path, const std::vector<HostsEntry>& entries) {
  return WriteFileAtomically(path, FormatHostsFile(entries));
}

}  // namespace crawl::testweb
