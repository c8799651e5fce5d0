// The built-in scoring filters (queueserver/frontier/scoring_filter.h), each
// registered by name in ScoringFilterRegistry's table:
//   opic       OPIC cash (Abiteboul, Preda, Cobena 2003) as Nutch's
//              OPICScoringFilter runs it, with Yioop's CLD-aware split and
//              sitemap rank weighting as options (docs/DESIGN.md §5.2);
//   depth      prefer shallow URLs (Heritrix's HopsUriPrecedencePolicy);
//   link-kind  weights by where the link was found (sitemap, nav, body,
//              redirect, embed).
// Settings ("--scoring-param filter.key=value") are listed at each class.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "queueserver/frontier/scoring_filter.h"

namespace crawl::queueserver {

// Adds opic, depth and link-kind to `registry` (ScoringFilterRegistry::Global
// does it once).
void RegisterBuiltinScoringFilters(ScoringFilterRegistry& registry);

// How OPIC splits a page's cash (docs/DESIGN.md §5.2).
enum class CashSplit {
  kCldAware,  // Yioop: same CLD C/(2n), other CLDs (C - s*C/(2n)) / (n - s)
  kPlain,     // every link C/n (Nutch)
};
[[nodiscard]] Result<CashSplit> ParseCashSplit(std::string_view name);  // "cld" (default) or "plain"

// The cash of a page with cash C and n links, split over `links` (the ones
// this queue server sees, n >= links.size() unless n is 0, then n is
// links.size()). Sets each link's share (docs/DESIGN.md §5.2):
//   plain: C/n each;
//   CLD-aware: with s the links to the page's own CLD, C/(2n) each of those
//     and (C - s*C/(2n)) / (n - s) each of the others. When s = n there is
//     no other link: the same-CLD links still get C/(2n) each and the other
//     half of C is lost, to be restored by normalisation;
//   sitemap (every link from_sitemap, `sitemap_rank`): the i-th entry
//     (i = rank + 1) gets C / (gamma * i^2), gamma = sum_{j=1..n} 1/j^2, so
//     n entries get C; without sitemap_rank a sitemap splits like a page.
// s is `same_cld_links` when given (the fetcher counts it over the whole
// page for links it routes to a queue server other than the page's), else
// counted among `links`. Returns the sum handed out.
double SplitCash(double cash, uint32_t n, CashSplit split, std::vector<ScoredLink>& links,
                 uint32_t same_cld_links = 0, bool sitemap_rank = true);

// opic. Settings: split = cld | plain (Yioop's CLD-aware split, default;
// Nutch's C/n), sitemap = rank | page (Yioop's 1/i^2 weighting of sitemap
// entries, default; or split like a page), score_power in [0, 4] (the
// indexer score is (history / total history)^score_power, Nutch's
// indexer.score.power; default 1, this crawler's importance).
class OpicScoringFilter final : public ScoringFilter {
 public:
  OpicScoringFilter(CashSplit split, bool sitemap_rank, double score_power)
      : split_(split), sitemap_rank_(sitemap_rank), score_power_(score_power) {}
  [[nodiscard]] std::string_view name() const override { return "opic"; }
  // Nutch: an outlink's share, and inlinks add their cash.
  [[nodiscard]] double DistributeScoreToOutlinks(const ScoredPage& page, std::vector<ScoredLink>& links,
                                                 double adjust) const override;
  [[nodiscard]] double UpdateDbScore(const ScoreDatum& old, const std::vector<ScoreInlink>& in,
                                     double score) const override;
  [[nodiscard]] double IndexerScore(const ScoreDatum& d, double history, double total_history,
                                    double boost) const override;

 private:
  CashSplit split_;
  bool sitemap_rank_;
  double score_power_;
};

// depth. Heritrix serves a URL of fewer hops first (HopsUriPrecedencePolicy:
// precedence = hops). Here the sort value loses `weight` per link of depth
// (sort - weight * depth): in the opic order, with seeds sharing 1.0 of
// cash, weight 1 serves every shallower URL first and cash breaks ties;
// in the tiered orders one unit is one tier. Settings: weight in [0, 100]
// (default 1), free_depth in [0, 1000] (levels not penalised, default 0).
class DepthScoringFilter final : public ScoringFilter {
 public:
  DepthScoringFilter(double weight, uint32_t free_depth) : weight_(weight), free_depth_(free_depth) {}
  [[nodiscard]] std::string_view name() const override { return "depth"; }
  [[nodiscard]] double GeneratorSortValue(const ScoreDatum& d, double sort) const override;

 private:
  double weight_;
  uint32_t free_depth_;
};

// link-kind. Each kind has a weight w (settings sitemap, nav, body,
// redirect, embed in [0, 1]; defaults 1, 0.5, 1, 1, 0.25): a link's cash
// share is scaled by w, the rest kept by the source page (the adjust), and
// the sort value gains sort_bias * log2(w) (sort_bias in [0, 100], default
// 1: a nav link sorts one unit, one tier, below a body link).
class LinkKindScoringFilter final : public ScoringFilter {
 public:
  LinkKindScoringFilter(std::array<double, 5> weights, double sort_bias)
      : weights_(weights), sort_bias_(sort_bias) {}
  [[nodiscard]] std::string_view name() const override { return "link-kind"; }
  [[nodiscard]] double GeneratorSortValue(const ScoreDatum& d, double sort) const override;
  [[nodiscard]] double DistributeScoreToOutlinks(const ScoredPage& page, std::vector<ScoredLink>& links,
                                                 double adjust) const override;
  [[nodiscard]] double weight(LinkKind k) const { return weights_[static_cast<size_t>(k)]; }

 private:
  std::array<double, 5> weights_;  // by LinkKind
  double sort_bias_;
};

}  // namespace crawl::queueserver
