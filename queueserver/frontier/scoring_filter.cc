#include "queueserver/frontier/scoring_filter.h"

#include <algorithm>

namespace crawl::queueserver {

Result<CashSplit> ParseCashSplit(std::string_view name) {
  if (name.empty() || name == "cld") return CashSplit::kCldAware;
  if (name == "plain") return CashSplit::kPlain;
  return Status::InvalidArgument("unknown opic_split '" + std::string(name) + "' (cld or plain)");
}

double SplitCash(double cash, uint32_t n, CashSplit split, std::vector<ScoredLink>& links,
                 uint32_t same_cld_links) {
  if (links.empty()) return 0;
  const double nn = static_cast<double>(std::max<size_t>(n, links.size()));
  const bool sitemap =
      std::all_of(links.begin(), links.end(), [](const ScoredLink& l) { return l.from_sitemap; });
  double given = 0;
  if (sitemap) {
    // DESIGN.md 5.2: the i-th entry (from 1) gets C / (gamma i^2).
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
  // Yioop's CLD-aware split (DESIGN.md 5.2).
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

void OpicScoringFilter::DistributeToOutlinks(const ScoredPage& page, std::vector<ScoredLink>& links) const {
  (void)SplitCash(page.score, page.links_on_page, split_, links, page.same_cld_links);
}

double OpicScoringFilter::IndexerScore(double /*score*/, double history, double total_history) const {
  // DESIGN.md 5.2: importance = history / total history.
  return total_history > 0 ? history / total_history : 0.0;
}

Result<ScoringChain> ScoringChain::Parse(std::string_view names, CashSplit split) {
  ScoringChain chain;
  size_t start = 0;
  while (start <= names.size()) {
    size_t end = names.find(',', start);
    if (end == std::string_view::npos) end = names.size();
    std::string_view name = names.substr(start, end - start);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) {
      if (name == "opic") {
        chain.filters_.push_back(std::make_shared<OpicScoringFilter>(split));
      } else {
        return Status::InvalidArgument("unknown scoring filter '" + std::string(name) +
                                       "' (available: opic)");
      }
    }
    start = end + 1;
  }
  return chain;
}

double ScoringChain::InjectedScore(const std::string& url, double score) const {
  for (const auto& f : filters_) score = f->InjectedScore(url, score);
  return score;
}
double ScoringChain::InitialScore(const std::string& url, double score) const {
  for (const auto& f : filters_) score = f->InitialScore(url, score);
  return score;
}
double ScoringChain::SortValue(const std::string& url, double score) const {
  for (const auto& f : filters_) score = f->SortValue(url, score);
  return score;
}
double ScoringChain::UpdateFromInlinks(double score, double share) const {
  if (filters_.empty()) return score + share;
  for (const auto& f : filters_) score = f->UpdateFromInlinks(score, share);
  return score;
}
void ScoringChain::DistributeToOutlinks(const ScoredPage& page, std::vector<ScoredLink>& links) const {
  for (const auto& f : filters_) f->DistributeToOutlinks(page, links);
}
double ScoringChain::IndexerScore(double score, double history, double total_history) const {
  for (const auto& f : filters_) score = f->IndexerScore(score, history, total_history);
  return score;
}
std::vector<std::string> ScoringChain::names() const {
  std::vector<std::string> out;
  for (const auto& f : filters_) out.emplace_back(f->name());
  return out;
}

}  // namespace crawl::queueserver
