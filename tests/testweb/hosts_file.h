// Where the synthetic hosts listen, and the hosts file that tells the
// fetcher (its --hosts-file flag, docs/DESIGN.md §10). One line per host:
//   IP:PORT NAME            e.g. "127.20.0.1:40123 www.site0.test"
// Host i gets the i-th usable loopback address after a base address
// (default base 127.20.0.0, so host 0 is 127.20.0.1), skipping addresses
// whose last octet is 0 or 255.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"

namespace crawl::testweb {

inline constexpr std::string_view kDefaultBindBase = "127.20.0.0";

// `count` addresses (dotted quads) following `base`. InvalidArgument if
// `base` is not an IPv4 address in 127.0.0.0/8 or the range leaves it.
[[nodiscard]] Result<std::vector<std::string>> LoopbackAddresses(std::string_view base, uint64_t count);

// The address of each of `hosts` hosts when they share `ips` addresses
// (0: one each): host i gets the (i % ips)-th address after `base`.
[[nodiscard]] Result<std::vector<std::string>> HostAddresses(std::string_view base, uint64_t hosts,
                                                             uint64_t ips);

struct HostsEntry {
  std::string address;  // dotted quad
  uint16_t port = 0;
  std::string name;  // www.site<i>.test
};

// The hosts file text, one "IP:PORT NAME\n" line per entry.
[[nodiscard]] std::string FormatHostsFile(const std::vector<HostsEntry>& entries);

// Writes the hosts file atomically (see atomic_file.h).
[[nodiscard]] Status WriteHostsFile(const std::string& path, const std::vector<HostsEntry>& entries);

}  // namespace crawl::testweb
