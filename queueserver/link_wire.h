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
// whole crawl's cash is about 1 (DESIGN.md 5.2) and tiers are log10 of a
// count, so anything beyond these is not from a queue server.
inline constexpr double kMaxEchoedCash = 1e6;
inline constexpr int32_t kMaxEchoedTier = 1000;

// The referrer of each of `links`, in order: its own `referrer`, or the
// previous link's when it has `same_referrer` ("" for the first link, which
// has no previous one). Views into `links`.
[[nodiscard]] std::vector<std::string_view> LinkReferrers(
    const google::protobuf::RepeatedPtrField<v1::DiscoveredLink>& links);

// The frontier's view of a link as fetchers send it (`canonical_url`: its
// URL, already canonicalised; `referrer`: from LinkReferrers). Echoed
// referrer order data a queue server could not have sent (DiscoveredLink
// 20-23) is dropped, not trusted.
[[nodiscard]] LinkInput LinkFromWire(const v1::DiscoveredLink& link, std::string canonical_url,
                                     std::string_view referrer);

// The same for a link that names its own referrer.
[[nodiscard]] inline LinkInput LinkFromWire(const v1::DiscoveredLink& link, std::string canonical_url) {
  return LinkFromWire(link, std::move(canonical_url), link.referrer());
}

}  // namespace crawl::queueserver
