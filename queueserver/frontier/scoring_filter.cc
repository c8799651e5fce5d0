#include "queueserver/frontier/scoring_filter.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <mutex>

#include "queueserver/frontier/scoring_filters.h"

namespace crawl::queueserver {

std::string_view LinkKindName(LinkKind k) {
  switch (k) {
    case LinkKind::kBody:
      return "body";
    case LinkKind::kNav:
      return "nav";
    case LinkKind::kSitemap:
      return "sitemap";
    case LinkKind::kRedirect:
      return "redirect";
    case LinkKind::kEmbed:
      return "embed";
  }
  return "body";
}

LinkKind LinkKindOf(std::string_view source, bool in_nav, bool from_sitemap) {
  if (from_sitemap || source == "sitemap") return LinkKind::kSitemap;
  // A meta refresh is a redirect; a rel=canonical names the page's own
  // preferred address: both are where the page's content lives.
  if (source == "redirect" || source == "refresh" || source == "canonical") return LinkKind::kRedirect;
  if (source == "img" || source == "frame" || source == "iframe") return LinkKind::kEmbed;
  return in_nav ? LinkKind::kNav : LinkKind::kBody;
}

// ---- ScoringSettings

Result<double> ScoringSettings::Number(const std::string& key, double fallback, double min, double max) {
  read_.push_back(key);
  auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const std::string& v = it->second;
  double out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || end != v.data() + v.size() || !std::isfinite(out) || out < min || out > max) {
    char range[64];
    std::snprintf(range, sizeof(range), "[%g, %g]", min, max);
    return Status::InvalidArgument("scoring param " + filter_ + "." + key + "='" + v +
                                   "': want a number in " + range);
  }
  return out;
}

Result<std::string> ScoringSettings::Choice(const std::string& key, const std::string& fallback,
                                            const std::vector<std::string>& choices) {
  read_.push_back(key);
  auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  if (std::find(choices.begin(), choices.end(), it->second) != choices.end()) return it->second;
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
  return Status::InvalidArgument("scoring param " + filter_ + "." + key + "='" + it->second +
                                 "': want one of " + list);
}

Status ScoringSettings::Finish() const {
  for (const auto& [key, value] : values_) {
    if (std::find(read_.begin(), read_.end(), key) != read_.end()) continue;
    std::string known;
    for (const std::string& k : read_) known += (known.empty() ? "" : ", ") + k;
    return Status::InvalidArgument("unknown scoring param " + filter_ + "." + key + " (" + filter_ +
                                   " takes: " + (known.empty() ? "none" : known) + ")");
  }
  return Status::Ok();
}

// ---- ScoringFilterRegistry

struct ScoringFilterRegistry::Table {
  mutable std::mutex mu;
  std::map<std::string, ScoringFilterFactory> factories;  // guarded by mu
};

ScoringFilterRegistry::Table& ScoringFilterRegistry::table() const {
  static Table t;
  return t;
}

ScoringFilterRegistry& ScoringFilterRegistry::Global() {
  static ScoringFilterRegistry* registry = [] {
    auto* r = new ScoringFilterRegistry();
    RegisterBuiltinScoringFilters(*r);
    return r;
  }();
  return *registry;
}

bool ScoringFilterRegistry::Register(const std::string& name, ScoringFilterFactory factory) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.factories.emplace(name, std::move(factory)).second;
}

Result<std::unique_ptr<ScoringFilter>> ScoringFilterRegistry::Make(ScoringSettings& settings) const {
  ScoringFilterFactory factory;
  {
    Table& t = table();
    std::lock_guard<std::mutex> lock(t.mu);
    auto it = t.factories.find(settings.filter());
    if (it != t.factories.end()) factory = it->second;
  }
  if (!factory) {
    std::string list;
    for (const std::string& n : names()) list += (list.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("unknown scoring filter '" + settings.filter() + "' (available: " + list +
                                   ")");
  }
  auto filter = factory(settings);
  if (!filter.ok()) return filter.status();
  if (Status s = settings.Finish(); !s.ok()) return s;
  return filter;
}

std::vector<std::string> ScoringFilterRegistry::names() const {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  std::vector<std::string> out;
  for (const auto& [name, f] : t.factories) out.push_back(name);
  return out;
}

// ---- ScoringChain

namespace {
std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}
}  // namespace

Result<ScoringChain> ScoringChain::Make(std::string_view names, const std::vector<std::string>& params) {
  std::vector<std::string> order;
  for (size_t start = 0; start <= names.size();) {
    size_t end = std::min(names.find(',', start), names.size());
    const std::string_view name = Trim(names.substr(start, end - start));
    if (!name.empty()) {
      if (std::find(order.begin(), order.end(), name) != order.end())
        return Status::InvalidArgument("scoring filter '" + std::string(name) + "' named twice");
      order.emplace_back(name);
    }
    start = end + 1;
  }
  std::map<std::string, std::map<std::string, std::string>> settings;
  for (const std::string& p : params) {
    const size_t dot = p.find('.');
    const size_t eq = p.find('=');
    if (dot == std::string::npos || eq == std::string::npos || dot == 0 || eq < dot + 2)
      return Status::InvalidArgument("scoring param '" + p + "': want filter.key=value");
    const std::string filter(Trim(std::string_view(p).substr(0, dot)));
    if (std::find(order.begin(), order.end(), filter) == order.end())
      return Status::InvalidArgument("scoring param '" + p + "' is for '" + filter +
                                     "', which is not in the chain");
    settings[filter][std::string(Trim(std::string_view(p).substr(dot + 1, eq - dot - 1)))] =
        std::string(Trim(std::string_view(p).substr(eq + 1)));
  }
  ScoringChain chain;
  for (const std::string& name : order) {
    ScoringSettings s(name, settings[name]);
    auto filter = ScoringFilterRegistry::Global().Make(s);
    if (!filter.ok()) return filter.status();
    chain.filters_.push_back(std::shared_ptr<const ScoringFilter>(std::move(*filter)));
  }
  return chain;
}

double ScoringChain::InjectedScore(const ScoreDatum& d) const {
  double score = d.score;
  for (const auto& f : filters_) score = f->InjectedScore(d, score);
  return score;
}
double ScoringChain::InitialScore(const ScoreDatum& d) const {
  double score = d.score;
  for (const auto& f : filters_) score = f->InitialScore(d, score);
  return score;
}
double ScoringChain::GeneratorSortValue(const ScoreDatum& d) const {
  double sort = d.score;
  for (const auto& f : filters_) sort = f->GeneratorSortValue(d, sort);
  return sort;
}
double ScoringChain::PassScoreBeforeProcessing(const ScoreDatum& d) const {
  double passed = d.score;
  for (const auto& f : filters_) passed = f->PassScoreBeforeProcessing(d, passed);
  return passed;
}
double ScoringChain::PassScoreAfterProcessing(const ScoreDatum& d, double passed) const {
  for (const auto& f : filters_) passed = f->PassScoreAfterProcessing(d, passed);
  return passed;
}
double ScoringChain::DistributeScoreToOutlinks(const ScoredPage& page, std::vector<ScoredLink>& links) const {
  for (ScoredLink& l : links) l.share = 0;
  double adjust = 0;
  for (const auto& f : filters_) adjust = f->DistributeScoreToOutlinks(page, links, adjust);
  return adjust;
}
double ScoringChain::UpdateDbScore(const ScoreDatum& old, const std::vector<ScoreInlink>& in) const {
  double score = old.score;
  for (const auto& f : filters_) score = f->UpdateDbScore(old, in, score);
  return score;
}
double ScoringChain::IndexerScore(const ScoreDatum& d, double history, double total_history) const {
  double boost = 0;
  for (const auto& f : filters_) boost = f->IndexerScore(d, history, total_history, boost);
  return boost;
}
std::vector<std::string> ScoringChain::names() const {
  std::vector<std::string> out;
  for (const auto& f : filters_) out.emplace_back(f->name());
  return out;
}
bool ScoringChain::has(std::string_view name) const {
  return std::any_of(filters_.begin(), filters_.end(), [&](const auto& f) { return f->name() == name; });
}

}  // namespace crawl::queueserver
