// A crawl's politeness beyond one connection per host (docs/ARCHITECTURE.md
// "Politeness per address and pacing"): how many connections one IP
// address gets across the cluster, the per-address request pace, and how
// the gap before a host's next request adapts to the server. The name
// server resolves the defaults when a crawl starts (NormalizePoliteness), so
// fetchers and queue servers read explicit values; set-param re-checks them.
//
// Defaults and why:
//   - 4 connections per address, cluster-wide: BUbiNG and Heritrix keep one
//     per host and a handful per address; shared hosting puts thousands of
//     sites on one address, and 4 keeps a crawl of them busy without
//     looking like a flood (Apache's default of 150 workers per server).
//   - address gap 10 ms: the cluster starts at most about 100 requests a
//     second on one address (each of n connections waits 10 ms x n).
//   - adaptive pacing, factor 200%: after an answer that took t ms the host
//     waits 2t, so one connection keeps a server busy at most a third of the
//     time (Heritrix's delayFactor 5 keeps it a sixth with a 3 s floor,
//     made for archival crawls of a few sites; Scrapy's AutoThrottle waits
//     t / target concurrency, i.e. 1t for its default of 1). Measured on
//     a testweb host that degrades under load (B = 20 ms unloaded,
//     capacity 12.5/s; tests/integration/crawl_adaptive_pacing_test.sh):
//     factor 100/200/400% hold its latency at 2.1/1.7/1.4 x B at 12/10/7
//     requests a second, fixed pacing lets it reach 2.9 x B at 17/s; 200%
//     keeps it under 2 x B at 58% of the unpaced rate. Floor 10 ms: a
//     fast host answers at most about 100 times a second per connection;
//     ceiling 30 s (Heritrix's maxDelayMs), well below the lease.
//   - a crawl scoped to hosts (include_hosts) is one's own site: fixed
//     pacing and no address gap, today's full speed unless asked.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/base/status.h"
#include "proto/crawl.pb.h"

namespace crawl {

inline constexpr uint32_t kDefaultConnectionsPerAddress = 4;
inline constexpr uint32_t kMaxConnectionsPerAddress = 1000;
inline constexpr uint32_t kDefaultAddressGapMs = 10;
inline constexpr uint32_t kMaxAddressGapMs = 60'000;
inline constexpr uint32_t kDefaultPaceFactorPercent = 200;
inline constexpr uint32_t kMaxPaceFactorPercent = 10'000;
inline constexpr uint32_t kDefaultPaceFloorMs = 10;
inline constexpr uint32_t kDefaultPaceCeilingMs = 30'000;
inline constexpr uint32_t kMaxPaceCeilingMs = 120'000;

inline constexpr std::string_view kPacingAdaptive = "adaptive";
inline constexpr std::string_view kPacingFixed = "fixed";

// Fills the unset politeness fields of `params` with the defaults of its
// scope (scoped: include_hosts given) and checks the set ones: pacing
// "adaptive" or "fixed", limits above, floor <= ceiling. Idempotent.
[[nodiscard]] Status NormalizePoliteness(v1::CrawlParams* params);

// True when the crawl's pacing is adaptive (after NormalizePoliteness).
[[nodiscard]] inline bool AdaptivePacing(const v1::CrawlParams& params) {
  return params.pacing() == kPacingAdaptive;
}

}  // namespace crawl
