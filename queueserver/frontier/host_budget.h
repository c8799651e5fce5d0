// host_budget formulas (docs/DESIGN.md §5.1, after Yioop 9 and IRLbot): per company
// level domain SEEN, WSEEN (weighted seen) and WIN (weighted incoming), and
// the tier a new URL is filed in. Pure functions; the order that uses them is
// queueserver/frontier/frontier_order.h.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/base/status.h"
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
// URL): floor(log10(max(1, WSEEN - WIN))), + 4 (SITEMAP_TIER_PENALTY) for
// the URL of a sitemap file, + 1 for a non-HTML URL.
[[nodiscard]] int32_t TierFor(const CldStats& stats, bool sitemap_url, bool likely_non_html);

// The tiers a URL's kind adds: + 4 (SITEMAP_TIER_PENALTY) for the URL of a
// sitemap file, + 1 for a non-HTML URL.
[[nodiscard]] int32_t TierPenalty(bool sitemap_url, bool likely_non_html);

// How host_budget files and serves its tiers.
enum class TierRule {
  // Yioop 9 as written: tier floor(log10(max(1, WSEEN - WIN))), the tiers
  // served round robin, one per schedule (the default).
  kYioop,
  // IRLbot's BEAST (Lee et al., TWEB 3(3) 2009, section 6.2: "Budget
  // Enforcement with Anti-Spam Tactics"): a CLD's URLs beyond its budget B
  // go to later queues, read less and less often. Here the CLD's n-th URL
  // (SEEN after counting it) goes to queue floor(log2(1 + (n - 1) / B)),
  // B = unit x (1 + D), D its distinct other CLDs linking in (CldStats::
  // in_clds), so a CLD fills queue 0 with B URLs, queue 1 with 2B, queue 2
  // with 4B...; queue j is read for one schedule in 2^(j+1) (BeastTierFor-
  // Schedule). The kind's penalty is added to the queue as for Yioop.
  kBeast,
};

// Parses "yioop" or "beast" ("" is the default, yioop).
[[nodiscard]] Result<TierRule> ParseTierRule(std::string_view name);

// BEAST's queue of a CLD with these statistics (after counting the URL).
[[nodiscard]] int32_t BeastTier(const CldStats& stats, double unit);

// The queue BEAST reads for schedule number k (k >= 1): the number of
// trailing zero bits of k (1 -> 0, 2 -> 1, 3 -> 0, 4 -> 2, ...).
[[nodiscard]] int32_t BeastTierForSchedule(uint32_t k);

// Yioop 9: "For urls to sitemaps a constant SITEMAP_TIER_PENALTY (4) is
// added": true when `url` is a sitemap file, not a page a sitemap lists.
// What the queue server knows of a link (DiscoveredLink): a robots.txt
// Sitemap: line (from_sitemap, referrer /robots.txt); an entry of a sitemap
// that names an XML file (.xml or .xml.gz: a sitemap index's entries); or a
// link from a page to an XML file whose name says "sitemap".
[[nodiscard]] bool IsSitemapUrl(std::string_view url, std::string_view referrer, bool from_sitemap);

// Per-CLD budgets (IRLbot, Lee et al. WWW 2008 and ACM TWEB 2009, section
// 6: STAR gives each pay-level domain a budget that grows with its in-degree
// in the PLD graph, the number of distinct other PLDs linking to it, because
// a spammer makes hosts and pages for free but pays for every PLD; BEAST
// keeps a domain's URLs past its budget out of the crawl). A CLD admits new
// URLs while SEEN <= base + per_in_cld * (distinct other CLDs linking in),
// the in-degree counted up to CldStats::kMaxInClds; a new URL past that is
// seen (never offered again) but not queued. Ten spam CLDs linking each
// other raise each other's in-degree to nine and no further, while an
// endless tree of pages raises nothing. The rule "win" is the earlier
// variant from Yioop's weighted WIN (SEEN <= base + per_win * WIN), which
// CLDs that link each other raise without end with every page fetched.
// The seeds' CLDs have no budget: they are what the user asked to crawl (a
// documentation site has no links from other CLDs at all), and IRLbot's
// budgets bound what a crawl discovers; traps on a seeded site meet the
// trap rules.
enum class CldBudgetRule { kInClds, kWin };

// Parses "in-clds" or "win" ("" is the default, in-clds).
[[nodiscard]] Result<CldBudgetRule> ParseCldBudgetRule(std::string_view name);

struct CldBudget {
  bool enabled = true;
  CldBudgetRule rule = CldBudgetRule::kInClds;
  double base = 1000;
  double per_in_cld = 100;
  double per_win = 100;
  bool exempt_seeded = true;  // the seeds' CLDs have no budget
};

// Counts a link from the CLD whose name hashes to `from_cld_hash` in `stats`'
// in-degree; true when the in-degree changed (a CLD not seen linking here
// before, while fewer than kMaxInClds are counted).
bool AddInCld(CldStats& stats, uint32_t from_cld_hash);

// The 32-bit hash of a CLD's name that AddInCld counts.
[[nodiscard]] uint32_t CldNameHash(std::string_view cld);

// True when a CLD with these statistics (after counting the new URL) has
// spent its budget.
[[nodiscard]] bool OverBudget(const CldStats& stats, const CldBudget& budget);

}  // namespace crawl::queueserver
