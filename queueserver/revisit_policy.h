// When a fetched page is due to be fetched again (recrawl): a
// policy turns a page's fetch state after a fetch into its next visit time
// and the interval that led to it.
//   fixed:    every page every `interval_s`.
//   expires:  Yioop's rule: the page's own freshness lifetime (Expires or
//             max-age, FetchState.expires_unix_s) kept within
//             [min_interval_s, max_interval_s]; `interval_s` when it gave none.
//   adaptive: Nutch's AdaptiveFetchSchedule: the interval is multiplied by
//             (1 - dec_rate) when the page changed and by (1 + inc_rate) when
//             it did not (304 or the same digest), clamped to
//             [min_interval_s, max_interval_s] (Nutch's defaults 0.2 / 0.4).
//             Nutch's optional SYNC_DELTA (syncing with Last-Modified) is not
//             built.
//   optimal:  Cho and Garcia-Molina (TODS 2003; queueserver/change_rate.h):
//             the page's change rate estimated from its history, and the
//             interval that maximises the shard's expected freshness when
//             its pages are fetched on average every `interval_s` (the
//             multiplier `optimal_mu`, which the shard solves from all its
//             pages' rates); a page changing too often for that budget gets
//             the ceiling. Before its first revisit a page gets `interval_s`.
// A first fetch, and any fetch that saw no content (an error), start from or
// keep the current interval. Pure: no clock, no store.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/fetch_state.h"

namespace crawl::queueserver {

enum class RevisitKind { kFixed, kExpires, kAdaptive, kOptimal };

struct RevisitPolicy {
  RevisitKind kind = RevisitKind::kFixed;
  int64_t interval_s = 86'400;           // fixed, and where the others start
  int64_t min_interval_s = 60;           // floor (expires, adaptive)
  int64_t max_interval_s = 30 * 86'400;  // ceiling (expires, adaptive)
  double inc_rate = 0.4;                 // Nutch db.fetch.schedule.adaptive.inc_rate
  double dec_rate = 0.2;                 // Nutch db.fetch.schedule.adaptive.dec_rate
  double optimal_mu = 0;                 // optimal: the shard's multiplier (0: not solved yet)
};

// "fixed", "expires", "adaptive", "optimal" ("" is fixed); anything else
// InvalidArgument.
[[nodiscard]] Result<RevisitKind> ParseRevisitKind(std::string_view name);
// "MIN:MAX" seconds ("" keeps the defaults); MIN >= 1 and MIN <= MAX.
[[nodiscard]] Status ParseRevisitBounds(std::string_view text, RevisitPolicy* policy);

struct NextVisit {
  int64_t next_visit_unix_us = 0;
  int64_t interval_s = 0;
};

// `state` is the page's state after the fetch (ApplyFetch), whose
// revisit_interval_s is the interval before it (0: none yet); `revisit` is
// what ApplyFetch said of the fetch; `now_us` the fetch time.
[[nodiscard]] NextVisit ComputeNextVisit(const RevisitPolicy& policy, const FetchState& state,
                                         v1::RevisitKind revisit, int64_t now_us);

// The change rate (per second) the optimal policy assumes for a page:
// EstimateChangeRate of its revisits, a page with no change seen counting
// half a change (so one unchanged revisit does not park it at the
// ceiling); before any revisit 1 / interval_s.
[[nodiscard]] double AssumedChangeRate(const RevisitPolicy& policy, const FetchState& state);

}  // namespace crawl::queueserver
