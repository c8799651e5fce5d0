// host_budget formulas (DESIGN.md 5.1, after Yioop 9 and IRLbot): per company
// level domain SEEN, WSEEN (weighted seen) and WIN (weighted incoming), and
// the tier a new URL is filed in. Pure functions; the order that uses them is
// queueserver/frontier/frontier_order.h.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "queueserver/frontier/frontier_types.h"

namespace crawl::queueserver {

// How a new URL found as the i-th link (i from 0) adds to its CLD's WSEEN.
enum class WseenIncrement {
  // 1 + log5(1 + i): later (less useful) links weigh more, the intent Yioop
  // states. The default: with it a CLD whose pages are mostly low-ranked
  // links (link farms, calendars) climbs tiers faster than one reached by
  // first-rank links, which is the point of weighting at all.
  kLog,
  // Yioop's text taken literally: min(1, 1 + log5(1 + i)), which is always 1
  // (WSEEN == SEEN). Kept for comparison with Yioop's figures.
  kMin,
};

// Parses "log" or "min" ("" is the default, log).
[[nodiscard]] Result<WseenIncrement> ParseWseenIncrement(std::string_view name);

// WSEEN increment of a new URL found as link i.
[[nodiscard]] double WseenStep(WseenIncrement mode, uint32_t i);

// WIN increment of a link from another CLD, found on a page of weight w that
// was scheduled in tier t: 1 / (1.1 + t + log5(1 + w)).
[[nodiscard]] double WinStep(int32_t t, uint32_t w);

// The tier of a new URL of a CLD with these statistics (after counting the
// URL): floor(log10(max(1, WSEEN - WIN))), + 4 for a sitemap URL, + 1 for a
// non-HTML URL.
[[nodiscard]] int32_t TierFor(const CldStats& stats, bool from_sitemap, bool likely_non_html);

}  // namespace crawl::queueserver
