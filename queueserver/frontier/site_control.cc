#include "queueserver/frontier/site_control.h"

#include <algorithm>

#include "common/url/url_glob.h"
#include "queueserver/frontier/structure_module.h"

namespace crawl::queueserver {

Result<std::vector<std::string>> ParseKeywords(const std::vector<std::string>& raw) {
  if (raw.size() > 100) return Status::InvalidArgument("site_keywords: more than 100 keywords");
  std::vector<std::string> out;
  for (const std::string& k : raw) {
    if (k.size() > 200) return Status::InvalidArgument("site_keywords: a keyword longer than 200 characters");
    std::vector<std::string> tokens = SiteTokens(k);
    if (tokens.empty()) return Status::InvalidArgument("site_keywords: '" + k + "' holds no letter or digit");
    for (std::string& t : tokens) {
      if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(std::move(t));
    }
  }
  return out;
}

void AddSiteControl(const SiteControlOptions& o, SiteFrontier& frontier) {
  if (o.max_pages_per_site > 0) frontier.AddObjective(std::make_unique<PagesObjective>(o.max_pages_per_site));
  if (o.max_site_ms > 0) frontier.AddObjective(std::make_unique<TimeObjective>(o.max_site_ms));
  auto control = std::make_unique<ControlModule>("control");
  bool any = false;
  if (!o.dismiss_patterns.empty()) {
    control->AddRule(std::make_unique<UrlPatternRule>(o.dismiss_patterns, ControlAction::kDismiss));
    any = true;
  }
  if (o.max_path_depth > 0) {
    control->AddRule(std::make_unique<PathDepthRule>(o.max_path_depth));
    any = true;
  }
  if (!o.exclude_patterns.empty()) {
    control->AddRule(std::make_unique<UrlPatternRule>(o.exclude_patterns, ControlAction::kExclude));
    any = true;
  }
  if (any) frontier.AddControlModule(std::move(control));
  if (!o.keywords.empty()) {
    auto relevance = std::make_unique<RankingModule>("relevance");
    relevance->AddRule(std::make_unique<KeywordRelevanceRule>(o.keywords));
    frontier.AddRankingModule(std::move(relevance));
  }
}

bool PagesObjective::Met(const SiteContext& ctx) const {
  const SiteMetrics& m = ctx.metrics();
  const uint64_t pages = m.loaded - std::min(m.loaded, m.returned);
  return pages >= max_;
}

bool TimeObjective::Met(const SiteContext& ctx) const {
  // No clock (now 0) or no session yet: not met.
  if (ctx.now_ms() <= 0 || ctx.started_ms() <= 0) return false;
  return ctx.now_ms() - ctx.started_ms() >= max_ms_;
}

ControlAction UrlPatternRule::Check(const Target& t, const SiteContext& /*ctx*/) {
  for (const std::string& p : patterns_) {
    if (UrlGlobMatch(p, t.url())) return action_;
  }
  return ControlAction::kPass;
}

ControlAction PathDepthRule::Check(const Target& t, const SiteContext& /*ctx*/) {
  return NodeDepth(LeafNodeOf(t.url())) > max_ ? ControlAction::kDismiss : ControlAction::kPass;
}

RuleResult KeywordRelevanceRule::Evaluate(const Target& t, const SiteContext& /*ctx*/) {
  RuleResult r;
  for (const std::string& k : keywords_) {
    const auto& url = t.url_tokens();
    const auto& anchor = t.anchor_tokens();
    if (std::find(url.begin(), url.end(), k) != url.end() ||
        std::find(anchor.begin(), anchor.end(), k) != anchor.end())
      r.score += 1.0;
  }
  return r;
}

}  // namespace crawl::queueserver
