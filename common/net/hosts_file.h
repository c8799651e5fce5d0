// A hosts file: fixed name -> address (and optionally port) mappings that the
// fetcher consults before DNS. This is how a crawl is pointed at the synthetic
// web (docs/DESIGN.md §10), which serves many virtual hosts on 127.x.y.z
// and writes one line per host.
//
// Format, one mapping per line (like /etc/hosts, plus an optional port):
//   ADDRESS[:PORT] NAME [NAME...]
//   127.20.0.1:40123  www.site0.test  site0.test
//   [::1]:8080        v6.test
//   ::1               v6-noport.test     (bare IPv6 only without a port)
// `#` starts a comment (to the end of the line); blank lines are ignored;
// fields are separated by spaces or tabs. Names are matched
// case-insensitively, and a trailing dot is ignored ("a.test." == "a.test").
// If a name appears twice, the first mapping wins (as in /etc/hosts).
// Any malformed line makes the whole file invalid: a typo in a test harness
// should fail loudly, not send the crawl to the real internet.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/base/status.h"

namespace crawl {

class HostsFile {
 public:
  struct Entry {
    boost::asio::ip::address address;
    std::optional<uint16_t> port;  // when set, overrides the URL's port
  };

  // An empty mapping (every Lookup misses).
  HostsFile() = default;

  // Reads and parses the file at `path`. Errors: NotFound/IoError if it
  // cannot be read; InvalidArgument "PATH:N: ..." for the first bad line N.
  [[nodiscard]] static Result<HostsFile> Load(const std::string& path);

  // Parses `text`; `source` names it in error messages ("source:N: ...").
  [[nodiscard]] static Result<HostsFile> Parse(std::string_view text, std::string_view source = "<hosts>");

  // The mapping for `name` (case-insensitive), if any. Thread-safe (const).
  [[nodiscard]] std::optional<Entry> Lookup(std::string_view name) const;

  [[nodiscard]] size_t size() const { return entries_.size(); }
  [[nodiscard]] bool empty() const { return entries_.empty(); }

 private:
  std::unordered_map<std::string, Entry> entries_;  // key: lower-case, no trailing dot
};

}  // namespace crawl
