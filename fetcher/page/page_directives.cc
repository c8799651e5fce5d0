// A page's statements about itself applied to its record (page_directives.h).
#include "fetcher/page/page_directives.h"

#include "common/url/url.h"
#include "fetcher/page/link_header.h"
#include "fetcher/page/robots_directives.h"
#include "fetcher/page/url_limit.h"

namespace crawl::fetcher {
namespace {

// An hreflang value worth keeping: a language tag or "x-default" (BCP 47
// characters only, so the record stays valid UTF-8 whatever the header held).
bool PlausibleHreflang(std::string_view lang) {
  if (lang.empty() || lang.size() > 35) return false;
  for (char c : lang) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
  }
  return true;
}

// `href` resolved against `base`; "" when it is no http(s) URL or too long.
std::string ResolveTarget(std::string_view base, std::string_view href, std::string_view what) {
  if (href.empty()) return {};
  auto target = url::Resolve(base, href);
  if (!target.ok()) return {};
  if (url::UrlTooLong(*target)) {
    NoteUrlsTooLong(what);
    return {};
  }
  return std::move(*target);
}

void AddDirectiveLink(const v1::ScheduledUrl& scheduled, const std::string& target, const char* source,
                      ProcessedPage* out) {
  v1::DiscoveredLink& l = out->links.emplace_back();
  l.set_url(target);
  l.set_depth(scheduled.depth() + 1);
  l.set_link_rank(0);  // the page's own statement: the first in its order
  l.set_links_on_page(1);
  l.set_source(source);
}

void ApplyRobots(const FetchResult& result, const ProcessOptions& options, ProcessedPage* out) {
  if (result.x_robots_tag.empty()) return;
  const RobotsDirectives d = ParseXRobotsTag(result.x_robots_tag, options.robots_meta_token);
  v1::FetchRecord& r = out->record;
  if (d.noindex) r.set_noindex(true);
  if (d.noarchive) r.set_noarchive(true);
  if (d.nosnippet) r.set_nosnippet(true);
  if (d.nofollow) {
    r.set_nofollow(true);
    if (!out->sitemap) out->links.clear();  // as a robots meta nofollow: no link of the page
  }
  if (d.unavailable_after_unix_s != 0 &&
      (r.unavailable_after_unix_s() == 0 || d.unavailable_after_unix_s < r.unavailable_after_unix_s()))
    r.set_unavailable_after_unix_s(d.unavailable_after_unix_s);
}

void ApplyCanonical(const v1::ScheduledUrl& scheduled, const std::string& base, const HtmlDirectives& html,
                    const std::vector<LinkValue>& header, ProcessedPage* out) {
  std::string canonical = ResolveTarget(base, html.canonical_href, "canonical");
  if (html.canonical_href.empty()) {
    for (const LinkValue& link : header) {
      if (!RelHas(link.rel, "canonical")) continue;
      canonical = ResolveTarget(scheduled.url(), link.target, "canonical");
      break;  // the first one wins
    }
  }
  if (canonical.empty() || canonical == scheduled.url()) return;
  out->record.set_canonical_url(canonical);
  AddDirectiveLink(scheduled, canonical, "canonical", out);
}

void AddAlternate(const v1::ScheduledUrl& scheduled, std::string_view base, std::string_view lang,
                  std::string_view href, ProcessedPage* out) {
  if (out->record.alternates_size() >= static_cast<int>(kMaxAlternates) || !PlausibleHreflang(lang)) return;
  const std::string target = ResolveTarget(base, href, "hreflang");
  if (target.empty()) return;
  for (const v1::HreflangAlternate& a : out->record.alternates()) {
    if (a.language() == lang && a.url() == target) return;
  }
  v1::HreflangAlternate& a = *out->record.add_alternates();
  a.set_language(std::string(lang));
  a.set_url(target);
  if (target != scheduled.url()) AddDirectiveLink(scheduled, target, "hreflang", out);
}

void ApplyRefresh(const v1::ScheduledUrl& scheduled, const std::string& base, const HtmlDirectives& html,
                  ProcessedPage* out) {
  if (html.refresh.empty()) return;
  const auto refresh = ParseMetaRefresh(html.refresh);
  if (!refresh) return;
  const std::string target = ResolveTarget(base, refresh->url, "refresh");
  if (target.empty() || target == scheduled.url()) return;
  out->record.set_redirect_url(target);
  AddDirectiveLink(scheduled, target, "refresh", out);
  if (refresh->delay_seconds == 0) out->record.set_noindex(true);  // a redirect page, not a page
}

}  // namespace

void ApplyPageDirectives(const v1::ScheduledUrl& scheduled, const FetchResult& result,
                         const ProcessOptions& options, const HtmlDirectives& html, ProcessedPage* out) {
  ApplyRobots(result, options, out);
  const std::string& base = html.base.empty() ? scheduled.url() : html.base;
  const std::vector<LinkValue> header = ParseLinkHeader(result.link);
  ApplyCanonical(scheduled, base, html, header, out);
  for (const auto& [lang, href] : html.alternates) AddAlternate(scheduled, base, lang, href, out);
  for (const LinkValue& link : header) {
    if (RelHas(link.rel, "alternate") && !link.hreflang.empty())
      AddAlternate(scheduled, scheduled.url(), link.hreflang, link.target, out);
  }
  ApplyRefresh(scheduled, base, html, out);
}

}  // namespace crawl::fetcher
