#include "queueserver/frontier/scoring_filters.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

namespace crawl::queueserver {

Result<CashSplit> ParseCashSplit(std::string_view name) {
  if (name.empty() || name == "cld") return CashSplit::kCldAware;
  if (name == "plain") return CashSplit::kPlain;
  return Status::InvalidArgument("unknown opic_split '" + std::string(name) + "' (cld or plain)");
}

double SplitCash(double cash, uint32_t n, CashSplit split, std::vector<ScoredLink>& links,
                 uint32_t same_cld_links, bool sitemap_rank) {
  if (links.empty()) return 0;
  const double nn = static_cast<double>(std::max<size_t>(n, links.size()));
  const bool sitemap = sitemap_rank && std::all_of(links.begin(), links.end(),
                                                   [](const ScoredLink& l) { return l.from_sitemap; });
  double given = 0;
  if (sitemap) {
    // docs/DESIGN.md §5.2: the i-th entry (from 1) gets C / (gamma i^2).
    double gamma = 0;
    for (double j = 1; j <= nn; ++j) gamma += 1.0 / (j * j);
    for (ScoredLink& l : links) {
      const double i = static_cast<double>(l.rank) + 1.0;
      l.share = i <= nn ? cash / (gamma * i * i) : 0.0;
      given += l.share;
    }
    return given;
  }
  if (split == CashSplit::kPlain) {
    for (ScoredLink& l : links) {
      l.share = cash / nn;
      given += l.share;
    }
    return given;
  }
  // Yioop's CLD-aware split (docs/DESIGN.md §5.2).
  const double s = same_cld_links > 0
                       ? std::min<double>(same_cld_links, nn)
                       : static_cast<double>(std::count_if(links.begin(), links.end(),
                                                           [](const ScoredLink& l) { return l.same_cld; }));
  const double same = cash / (2.0 * nn);
  const double other = s < nn ? (cash - s * same) / (nn - s) : 0.0;
  for (ScoredLink& l : links) {
    l.share = l.same_cld ? same : other;
    given += l.share;
  }
  return given;
}

// ---- opic

double OpicScoringFilter::DistributeScoreToOutlinks(const ScoredPage& page, std::vector<ScoredLink>& links,
                                                    double adjust) const {
  (void)SplitCash(page.score, page.links_on_page, split_, links, page.same_cld_links, sitemap_rank_);
  return adjust;
}

double OpicScoringFilter::UpdateDbScore(const ScoreDatum& /*old*/, const std::vector<ScoreInlink>& in,
                                        double score) const {
  // Nutch OPICScoringFilter.updateDbScore: the inlinks' cash adds up.
  for (const ScoreInlink& l : in) score += l.share;
  return score;
}

double OpicScoringFilter::IndexerScore(const ScoreDatum& /*d*/, double history, double total_history,
                                       double /*boost*/) const {
  // docs/DESIGN.md §5.2: importance = history / total history; Nutch raises the
  // score to indexer.score.power.
  if (total_history <= 0 || history <= 0) return 0.0;
  const double importance = history / total_history;
  return score_power_ == 1.0 ? importance : std::pow(importance, score_power_);
}

// ---- depth

double DepthScoringFilter::GeneratorSortValue(const ScoreDatum& d, double sort) const {
  const uint32_t counted = d.depth > free_depth_ ? d.depth - free_depth_ : 0;
  return sort - weight_ * static_cast<double>(counted);
}

// ---- link-kind

double LinkKindScoringFilter::GeneratorSortValue(const ScoreDatum& d, double sort) const {
  // A weight of 0 sorts as 2^-20: last, but still ordered.
  return sort + sort_bias_ * std::log2(std::max(weight(d.kind), 0x1p-20));
}

double LinkKindScoringFilter::DistributeScoreToOutlinks(const ScoredPage& /*page*/,
                                                        std::vector<ScoredLink>& links, double adjust) const {
  for (ScoredLink& l : links) {
    const double kept = l.share * (1.0 - weight(l.kind));
    l.share -= kept;
    adjust += kept;  // the source page keeps what its link did not get
  }
  return adjust;
}

// ---- the table

namespace {

Result<std::unique_ptr<ScoringFilter>> MakeOpic(ScoringSettings& s) {
  auto split = s.Choice("split", "cld", {"cld", "plain"});
  if (!split.ok()) return split.status();
  auto sitemap = s.Choice("sitemap", "rank", {"rank", "page"});
  if (!sitemap.ok()) return sitemap.status();
  auto power = s.Number("score_power", 1.0, 0.0, 4.0);
  if (!power.ok()) return power.status();
  return std::unique_ptr<ScoringFilter>(std::make_unique<OpicScoringFilter>(
      *split == "plain" ? CashSplit::kPlain : CashSplit::kCldAware, *sitemap == "rank", *power));
}

Result<std::unique_ptr<ScoringFilter>> MakeDepth(ScoringSettings& s) {
  auto weight = s.Number("weight", 1.0, 0.0, 100.0);
  if (!weight.ok()) return weight.status();
  auto free_depth = s.Number("free_depth", 0.0, 0.0, 1000.0);
  if (!free_depth.ok()) return free_depth.status();
  return std::unique_ptr<ScoringFilter>(
      std::make_unique<DepthScoringFilter>(*weight, static_cast<uint32_t>(*free_depth)));
}

Result<std::unique_ptr<ScoringFilter>> MakeLinkKind(ScoringSettings& s) {
  std::array<double, 5> w{};
  const LinkKind kinds[] = {LinkKind::kBody, LinkKind::kNav, LinkKind::kSitemap, LinkKind::kRedirect,
                            LinkKind::kEmbed};
  const double defaults[] = {1.0, 0.5, 1.0, 1.0, 0.25};
  for (size_t k = 0; k < 5; ++k) {
    auto v = s.Number(std::string(LinkKindName(kinds[k])), defaults[k], 0.0, 1.0);
    if (!v.ok()) return v.status();
    w[static_cast<size_t>(kinds[k])] = *v;
  }
  auto bias = s.Number("sort_bias", 1.0, 0.0, 100.0);
  if (!bias.ok()) return bias.status();
  return std::unique_ptr<ScoringFilter>(std::make_unique<LinkKindScoringFilter>(w, *bias));
}

}  // namespace

void RegisterBuiltinScoringFilters(ScoringFilterRegistry& registry) {
  struct Entry {
    const char* name;
    Result<std::unique_ptr<ScoringFilter>> (*make)(ScoringSettings&);
  };
  static constexpr Entry kBuiltin[] = {{"opic", MakeOpic}, {"depth", MakeDepth}, {"link-kind", MakeLinkKind}};
  for (const Entry& e : kBuiltin) (void)registry.Register(e.name, e.make);
}

}  // namespace crawl::queueserver
