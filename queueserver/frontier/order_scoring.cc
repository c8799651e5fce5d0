// The orders' side of the ScoringFilter chain (queueserver/frontier/scoring_filter.h):
// the chain an order runs, the score a fetched page comes back with, and
// the tier penalty of the orders that keep no score.
#include <algorithm>
#include <cmath>

#include "queueserver/frontier/frontier_order.h"

namespace crawl::queueserver {

Result<ScoringChain> MakeOrderChain(const OrderOptions& options) {
  std::string names = options.scoring_filters;
  if (names.empty() && options.kind == OrderKind::kOpic) names = "opic";
  std::vector<std::string> params;
  // The older crawl parameter opic_split is opic.split unless that is given.
  const bool explicit_split = std::any_of(options.scoring_params.begin(), options.scoring_params.end(),
                                          [](const std::string& p) { return p.rfind("opic.split", 0) == 0; });
  auto chain = ScoringChain::Make(names, {});
  if (!chain.ok()) return chain.status();
  if (chain->has("opic") && options.split == CashSplit::kPlain && !explicit_split)
    params.emplace_back("opic.split=plain");
  params.insert(params.end(), options.scoring_params.begin(), options.scoring_params.end());
  return ScoringChain::Make(names, params);
}

FetchedScore FrontierOrder::Fetched(FrontierEntry& e, std::optional<double> passed) {
  const ScoreDatum d{e.url, e.depth, e.link_kind, e.cash};
  const double before = e.cash;
  double score = chain_.PassScoreAfterProcessing(d, passed ? *passed : chain_.PassScoreBeforeProcessing(d));
  if (!std::isfinite(score) || score < 0) score = 0;  // a filter must not break the order's sums
  e.cash = score;
  if (score != before) Rebook(before - score);
  return OnFetched(e);
}

int32_t FrontierOrder::ChainPenalty(const FrontierEntry& e, bool seed) const {
  if (chain_.empty()) return 0;
  ScoreDatum d{e.url, e.depth, e.link_kind, 0.0};
  d.score = seed ? chain_.InjectedScore(d) : chain_.InitialScore(d);
  const double sort = chain_.GeneratorSortValue(d);
  if (!(sort < 0)) return 0;  // also NaN
  // The small slack keeps -1 from rounding to 0.
  return static_cast<int32_t>(std::min<double>(kMaxChainPenalty, std::floor(-sort + 1e-9)));
}

}  // namespace crawl::queueserver
