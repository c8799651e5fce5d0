#include "queueserver/structure_params.h"

#include "common/url/url_glob.h"

namespace crawl::queueserver {

Result<SiteControlOptions> SiteControlFor(const v1::CrawlParams& p) {
  SiteControlOptions o;
  o.max_pages_per_site = p.site_max_pages();
  if (p.site_max_seconds() > 30 * 86'400) return Status::InvalidArgument("site_max_seconds above 30 days");
  o.max_site_ms = int64_t{p.site_max_seconds()} * 1000;
  o.exclude_patterns.assign(p.site_exclude_patterns().begin(), p.site_exclude_patterns().end());
  o.dismiss_patterns.assign(p.site_dismiss_patterns().begin(), p.site_dismiss_patterns().end());
  if (Status s = ValidateUrlPatterns(o.exclude_patterns, "site_exclude_patterns"); !s.ok()) return s;
  if (Status s = ValidateUrlPatterns(o.dismiss_patterns, "site_dismiss_patterns"); !s.ok()) return s;
  if (p.site_max_path_depth() > 1000) return Status::InvalidArgument("site_max_path_depth above 1000");
  o.max_path_depth = p.site_max_path_depth();
  auto keywords = ParseKeywords({p.site_keywords().begin(), p.site_keywords().end()});
  if (!keywords.ok()) return keywords.status();
  o.keywords = std::move(*keywords);
  if (p.site_reports_kept() > 10'000) return Status::InvalidArgument("site_reports_kept above 10000");
  return o;
}

}  // namespace crawl::queueserver
