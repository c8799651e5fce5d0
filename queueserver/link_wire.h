// Links as fetchers send them (v1::DiscoveredLink) read into the frontier's
// form, and their referrers: a link may say its referrer is the previous
// link's (`same_referrer`), so they are read in request order, once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "proto/crawl.pb.h"
#include "queueserver/frontier/frontier_order.h"

namespace crawl::queueserver {

// Bounds on the order data a fetcher echoes (DiscoveredLink 20-23): the
// whole crawl's cash is about 1 (docs/DESIGN.md §5.2) and tiers are log10 of a
// count, so anything beyond these is not from a queue server.
inline constexpr double kMaxEchoedCash = 1e6;
inline constexpr int32_t kMaxEchoedTier = 1000;

// The referrer of each of `links`, in order: its own `referrer`, or the
// previous link's when it has `same_referrer` ("" for the first link, which
// has no previous one). Views into `links`.
// `links`: a request's repeated field, or a vector as a fetcher's
// ResultBatcher makes it (order_sim).
template <typename Links>
[[nodiscard]] std::vector<std::string_view> LinkReferrers(const Links& links) {
  std::vector<std::string_view> out;
  out.reserve(static_cast<size_t>(links.size()));
  std::string_view previous;
  for (const v1::DiscoveredLink& link : links) {
    if (!link.same_referrer()) previous = link.referrer();
    out.push_back(previous);
  }
  return out;
}

// The frontier's view of a link as fetchers send it (`canonical_url`: its
// URL, already canonicalised; `referrer`: from LinkReferrers). Echoed
// referrer order data a queue server could not have sent (DiscoveredLink
// 20-23) is dropped, not trusted.
[[nodiscard]] LinkInput LinkFromWire(const v1::DiscoveredLink& link, std::string canonical_url,
                                     std::string_view referrer);

}  // namespace crawl::queueserver
