// Politeness of a crawl, judged from the testweb access log (access_log.h)
// against the universe's own robots rules: per host, how many connections
// were open at once, the smallest gap between request starts, requests
// closer together than the host's Crawl-delay, and requests for paths that
// robots.txt disallows (for a crawler obeying "User-agent: *"; on hosts
// whose robots.txt answers 5xx or nothing, every path but /robots.txt).
//
// Definitions (what the log allows):
//   - a connection is a CONNECTION number (or, in logs without one, a
//     REMOTE ip:port); it is open from the start of its first request to
//     the end (start + duration) of its last one;
//     a connection that starts while another to the same host is open is a
//     concurrency violation;
//   - a Crawl-delay violation is a request starting less than Crawl-delay
//     seconds (minus kGapToleranceMs) after the previous request start on
//     that host; robots.txt requests count as requests;
//   - violations = concurrency + Crawl-delay + disallowed, over all hosts;
//   - per address (only when the caller gives each host's address): the
//     peak of connections to any of its hosts open at once, always; and,
//     when judged against a limit N (max_per_address > 0), each connection
//     opened while N others were open is a violation too. testweb's
//     check-politeness judges against --max-per-ip N when given, else
//     against 1 only when several hosts share an address (with one address
//     per host that count equals the per-host one, so it is not judged
//     twice); a limit of 0 reports the peaks only.
// Pure: no I/O; the caller reads the file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {

inline constexpr double kGapToleranceMs = 5;

struct AccessRecord {
  int64_t start_us = 0;  // microseconds since the epoch
  std::string host;
  std::string target;
  unsigned status = 0;
  uint64_t bytes = 0;
  std::string remote;
  double duration_ms = 0;   // 0 in logs written before the field existed
  uint64_t connection = 0;  // 0 in logs written before the field existed
};

// One access-log line (6, 7 or 8 tab-separated fields, no '\n').
// InvalidArgument with the reason otherwise.
[[nodiscard]] Result<AccessRecord> ParseAccessLine(std::string_view line);

struct HostPoliteness {
  std::string host;
  uint64_t requests = 0;
  uint32_t max_concurrent = 0;          // connections open at once
  uint64_t concurrency_violations = 0;  // connections opened while another was open
  double min_gap_ms = -1;               // between request starts; -1: fewer than 2 requests
  double crawl_delay_s = 0;             // the host's Crawl-delay for "*"; 0: none
  uint64_t crawl_delay_violations = 0;
  uint64_t disallowed_requests = 0;
  [[nodiscard]] uint64_t violations() const {
    return concurrency_violations + crawl_delay_violations + disallowed_requests;
  }
};

struct AddressPoliteness {
  std::string address;
  uint32_t hosts = 0;  // hosts at this address that were requested
  uint64_t requests = 0;
  uint32_t max_concurrent = 0;  // the peak: connections open at once
  uint64_t concurrency_violations = 0;
};

struct PolitenessReport {
  std::vector<HostPoliteness> hosts;         // by host name
  std::vector<AddressPoliteness> addresses;  // by address; empty unless addresses were given
  uint64_t requests = 0;
  uint64_t violations = 0;
  // The connections each address may have open at once (0: addresses not judged).
  uint32_t max_per_address = 0;
};

// Hosts not in `universe` ("-" included) are reported with no robots checks.
// `addresses`, if given: host i's address at [i] (as `testweb serve --ips`
// assigns them); then each address's peak is reported, and judged against
// `max_per_address` connections at once (0: not judged).
[[nodiscard]] PolitenessReport CheckPoliteness(const Universe& universe, std::vector<AccessRecord> records,
                                               const std::vector<std::string>* addresses = nullptr,
                                               uint32_t max_per_address = 1);

// The addresses the text report lists (the largest peaks); --json lists all.
inline constexpr size_t kTextAddresses = 10;

// {"requests":N,"violations":V,"hosts":[{...}, ...][,"max_per_address":N,
// "addresses":[...]]} on one line: every address, by address.
[[nodiscard]] std::string ToJson(const PolitenessReport& report);
// One line per host, the kTextAddresses addresses with the largest peaks
// (and how many more there are), then a total line.
[[nodiscard]] std::string ToText(const PolitenessReport& report);

}  // namespace crawl::testweb
