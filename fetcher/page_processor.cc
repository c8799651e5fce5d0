#include "fetcher/page_processor.h"

#include <unordered_set>

#include "common/hash.h"
#include "common/html_links.h"
#include "common/url.h"

namespace crawl::fetcher {

bool IsHtmlMime(const std::string& mime) {
  return mime == "text/html" || mime == "application/xhtml+xml";
}

ProcessedPage ProcessFetch(const v1::ScheduledUrl& scheduled, const FetchResult& result,
                           const ProcessOptions& options) {
  ProcessedPage out;
  v1::FetchRecord& r = out.record;
  r.set_url(scheduled.url());
  r.set_referrer(scheduled.referrer());
  r.set_kind(scheduled.kind());
  r.set_status(result.status);
  r.set_bytes(result.body.size());
  r.set_mime_type(result.mime_type);
  r.set_fetch_ms(result.fetch_ms);
  r.set_timestamp_unix_us(result.start_unix_us);
  r.set_error(result.error);
  r.set_truncated(result.truncated);
  if (result.status > 0) r.set_content_digest(hash::Hash8Hex(result.body));

  const uint32_t link_depth = scheduled.depth() + 1;
  auto add_link = [&](const std::string& target) {
    v1::DiscoveredLink* link = &out.links.emplace_back();
    link->set_url(target);
    link->set_referrer(scheduled.url());
    link->set_depth(link_depth);
  };

  if (result.status >= 300 && result.status < 400 && !result.location.empty()) {
    auto target = url::Resolve(scheduled.url(), result.location);
    if (target.ok()) {
      r.set_redirect_url(*target);
      // A redirect's target is a discovered link (DESIGN.md section 6); a
      // robots.txt redirect is the robots module's business, not a page's.
      if (scheduled.kind() == v1::URL_KIND_PAGE) add_link(*target);
    }
    return out;
  }

  if (scheduled.kind() == v1::URL_KIND_ROBOTS) {
    if (result.status >= 200 && result.status < 300) {
      r.set_robots_body(result.body.substr(0, options.max_robots_bytes));
    }
    return out;
  }

  const bool success = result.status >= 200 && result.status < 300;
  if (!success || !IsHtmlMime(result.mime_type)) return out;

  html::ExtractOptions extract;
  extract.max_links = options.max_links;
  const html::PageLinks page = html::ExtractLinks(result.body, extract);
  r.set_title(page.title);
  r.set_links_found(static_cast<uint32_t>(page.links.size()));
  if (page.nofollow) return out;

  // The base for relative links: <base href> resolved against the page URL,
  // parsed once for all the page's links.
  std::string base = scheduled.url();
  if (!page.base_href.empty()) {
    auto resolved_base = url::Resolve(scheduled.url(), page.base_href);
    if (resolved_base.ok()) base = *resolved_base;
  }
  auto resolver = url::Resolver::ForBase(base);
  if (!resolver.ok()) return out;  // the page's own URL is not a URL: nothing to resolve against
  std::unordered_set<std::string> seen;
  for (const html::Link& link : page.links) {
    if (link.nofollow) continue;
    auto target = resolver->Resolve(link.href);
    if (!target.ok()) continue;  // mailto:, javascript:, malformed, ...
    if (!seen.insert(*target).second) continue;
    add_link(*target);
    if (out.links.size() >= options.max_links) break;
  }
  return out;
}

}  // namespace crawl::fetcher
