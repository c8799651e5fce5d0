// Crawler-trap rules (a crawl must end by itself), after Heritrix's default decide
// rules: a discovered URL is refused when its path repeats one segment too
// many times in a row (PathologicalPathDecideRule, max-repetitions 2) or has
// too many segments (TooManyPathSegmentsDecideRule, max-path-depth 20), or
// when it is too many links from the seeds (TooManyHopsDecideRule,
// max-hops 20). They back up host_budget's per-CLD budgets
// (queueserver/frontier/host_budget.h), which bound how many URLs a CLD
// queues but not which: a trap on a host with real content and real
// incoming links would fill the whole budget. On by default; a crawl turns
// them off with `crawlctl start --no-trap-rules`. Pure and reentrant.
#pragma once

#include <cstdint>
#include <string_view>

namespace crawl::queueserver {

struct TrapRules {
  bool enabled = true;
  // A segment may follow itself this many times: /a/a/ is kept, /a/a/a/ is
  // not (Heritrix: the regex .*?/(.*?/)\1{2,}.*).
  uint32_t max_repetitions = 2;
  uint32_t max_path_segments = 20;
  uint32_t max_hops = 20;
};

enum class TrapVerdict { kKeep, kRepeatedSegment, kTooManySegments, kTooManyHops };

// What the rules say of `url` (absolute) found `depth` links from the seeds.
[[nodiscard]] TrapVerdict CheckTrap(const TrapRules& rules, std::string_view url, uint32_t depth);

}  // namespace crawl::queueserver
