// imbWEM's control side for the structure order (docs/DESIGN.md §5.4; Grubić's Web
// Exploration Model): the Objective with its crawl-size criteria, Target
// control rules and a passive relevance rule, all configured per crawl
// (CrawlParams 81-89, `crawlctl start --site-*` and `--keywords`).
//
//   Objectives (end the site's session, imbWEM's "static criteria defining
//   the crawl size limits as given by Crawl Job configuration"):
//     objective.pages  pages loaded (sent to fetch and not come back
//                      unfetched) reach max_pages_per_site;
//     objective.time   the session has run max_site_seconds (wall time from
//                      its first iteration; checked per iteration and load).
//   Target control rules (a control module "control"):
//     control.exclude_url  targets matching a glob are excluded: they stay
//                          active but no iteration loads them;
//     control.dismiss_url  targets matching a glob leave the site's crawl;
//     control.dismiss_depth targets whose link-path depth (folders in the
//                          URL path, structure_module.h NodeDepth) is above
//                          site_max_path_depth leave the site's crawl.
//   Passive rule (a ranking module "relevance"):
//     relevance.keywords   score = keywords (lower-cased letter/digit runs)
//                          found among the target's URL and anchor tokens;
//                          evaluated once per target (its registry).
// Plain classes: no I/O, no clock.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/base/status.h"
#include "queueserver/frontier/site_frontier.h"

namespace crawl::queueserver {

// The per-crawl settings (all off by default).
struct SiteControlOptions {
  uint64_t max_pages_per_site = 0;            // objective.pages; 0: none
  int64_t max_site_ms = 0;                    // objective.time; 0: none
  std::vector<std::string> exclude_patterns;  // control.exclude_url
  std::vector<std::string> dismiss_patterns;  // control.dismiss_url
  uint32_t max_path_depth = 0;                // control.dismiss_depth; 0: none
  std::vector<std::string> keywords;          // relevance.keywords (tokens)
  bool operator==(const SiteControlOptions&) const = default;
};

// The keywords of a parameter, as SiteTokens of each; InvalidArgument when
// there are more than 100 or one has no letter or digit.
[[nodiscard]] Result<std::vector<std::string>> ParseKeywords(const std::vector<std::string>& raw);

// Adds the Objectives, the control module and the relevance module that
// `options` asks for to `frontier` (nothing for what is off).
void AddSiteControl(const SiteControlOptions& options, SiteFrontier& frontier);

class PagesObjective final : public Objective {
 public:
  explicit PagesObjective(uint64_t max_pages) : max_(max_pages) {}
  [[nodiscard]] std::string signature() const override { return "objective.pages"; }
  [[nodiscard]] bool Met(const SiteContext& ctx) const override;

 private:
  uint64_t max_;
};

class TimeObjective final : public Objective {
 public:
  explicit TimeObjective(int64_t max_ms) : max_ms_(max_ms) {}
  [[nodiscard]] std::string signature() const override { return "objective.time"; }
  [[nodiscard]] bool Met(const SiteContext& ctx) const override;

 private:
  int64_t max_ms_;
};

// A target whose URL matches one of the globs (common/url/url_glob.h) gets
// `action`.
class UrlPatternRule final : public ControlRule {
 public:
  UrlPatternRule(std::vector<std::string> patterns, ControlAction action)
      : patterns_(std::move(patterns)), action_(action) {}
  [[nodiscard]] std::string signature() const override {
    return action_ == ControlAction::kExclude ? "control.exclude_url" : "control.dismiss_url";
  }
  [[nodiscard]] ControlAction Check(const Target& t, const SiteContext& ctx) override;

 private:
  std::vector<std::string> patterns_;
  ControlAction action_;
};

// Dismisses targets whose link-path depth is above `max_depth`.
class PathDepthRule final : public ControlRule {
 public:
  explicit PathDepthRule(uint32_t max_depth) : max_(max_depth) {}
  [[nodiscard]] std::string signature() const override { return "control.dismiss_depth"; }
  [[nodiscard]] ControlAction Check(const Target& t, const SiteContext& ctx) override;

 private:
  uint32_t max_;
};

// Passive ranking rule: how many of the crawl's keywords the target's URL
// and anchor tokens hold.
class KeywordRelevanceRule final : public Rule {
 public:
  explicit KeywordRelevanceRule(std::vector<std::string> keywords) : keywords_(std::move(keywords)) {}
  [[nodiscard]] std::string signature() const override { return "relevance.keywords"; }
  [[nodiscard]] Kind kind() const override { return Kind::kPassive; }
  [[nodiscard]] RuleResult Evaluate(const Target& t, const SiteContext& ctx) override;

 private:
  std::vector<std::string> keywords_;
};

}  // namespace crawl::queueserver
