// What a page says about itself besides its content, for every content
// type (HTML, plain text, documents, feeds), applied to its record and
// links after the type's processor ran:
//   - X-Robots-Tag header fields (fetcher/page/robots_directives.h): noindex,
//     nofollow, noarchive, nosnippet and unavailable_after join those of the
//     robots meta; nofollow drops the page's links (not a sitemap's);
//   - rel=canonical, from the HTML head (first wins) or else the Link header
//     (RFC 8288; fetcher/page/link_header.h): resolved, and when it names
//     another URL than the page, record.canonical_url and a link (source
//     "canonical", link_rank 0);
//   - hreflang alternates (HTML head, then Link header; at most
//     kMaxAlternates): record.alternates, and each other URL a link (source
//     "hreflang");
//   - <meta http-equiv="refresh"> with a URL other than the page: a
//     redirect (record.redirect_url, a link with source "refresh"); with
//     delay 0 the page is only a redirect, so it is noindex too (the queue
//     server drops noindex pages from its index).
// Directive links are kept under nofollow: they are the page's statements
// about itself (its other addresses), not links it vouches for.
//
// Pure (no I/O). Thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "fetcher/http/http_fetcher.h"
#include "fetcher/page/page_processor.h"
#include "fetcher/page/process_options.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

inline constexpr std::size_t kMaxAlternates = 50;

// What the HTML scan found in the head (fetcher/page/html_links.h), not
// resolved; empty for other content types.
struct HtmlDirectives {
  // The URL relative references resolve against: <base href> resolved
  // against the page URL, else the page URL ("" : the page URL).
  std::string base;
  std::string canonical_href;
  std::vector<std::pair<std::string, std::string>> alternates;  // (hreflang, href)
  std::string refresh;                                          // the first meta refresh's content
};

// Applies the result's X-Robots-Tag and Link fields and `html` to
// out->record and out->links. REQUIRES: result.status is 2xx, `scheduled`
// is a page (URL_KIND_PAGE) and its type's processor already ran.
void ApplyPageDirectives(const v1::ScheduledUrl& scheduled, const FetchResult& result,
                         const ProcessOptions& options, const HtmlDirectives& html, ProcessedPage* out);

}  // namespace crawl::fetcher
