// Turns one fetch outcome into what the queue servers need: the crawl-log
// record (with the page's summary and mini index) and the links found
// (docs/DESIGN.md §6). MIME type -> processor:
//   - text/html, application/xhtml+xml: fetcher/page/html_processor.h;
//   - text/plain: the plain text processor (same text analysis, no links);
//   - sitemaps: XML (application/xml, text/xml) whose root is <urlset> or
//     <sitemapindex>, plain or gzip-compressed (application/gzip,
//     application/x-gzip, or any body with the gzip magic under an XML or
//     gzip type): fetcher/page/sitemap_processor.h;
//   - feeds: application/rss+xml, application/atom+xml, and XML whose root is
//     <rss>, <rdf:RDF> or <feed>, when the crawl processes "feed":
//     fetcher/page/feed_processor.h;
//   - PDF, Office, OpenDocument, EPUB, RTF (by media type, or by URL
//     extension under application/octet-stream), when
//     ProcessOptions.document_parser is set: fetcher/page/document_processor.h;
//   - robots.txt (URL_KIND_ROBOTS): the body travels to the queue server,
//     and each Sitemap: line becomes a link with from_sitemap = true;
//   - other types: the record only.
// A redirect's target is a link (link_rank 0, source "redirect").
// Every 2xx page then gets its X-Robots-Tag, canonical, hreflang and meta
// refresh directives (fetcher/page/page_directives.h).
// Validators (ETag, Last-Modified, freshness) go into the record; a 304, or
// a 2xx with ScheduledUrl.previous_digest, is a revisit with no processing
// (fetcher/page/revisit.h).
//
// Pure but for documents (sent to the document worker). Thread-safe (per-thread state is thread_local).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fetcher/http/http_fetcher.h"
#include "fetcher/page/process_options.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

struct ProcessedPage {
  v1::FetchRecord record;
  // Every link's referrer is the page (record.url()), so none names it:
  // ResultBatcher writes it once per run of links in a request.
  std::vector<v1::DiscoveredLink> links;
  // The page was a sitemap (its links may be up to a sitemap's worth).
  bool sitemap = false;
  // Keeps the fetcher's sitemap gate (sitemap_gate.h) while the links are
  // alive: it goes with them into the batch and is let go once shipped.
  std::shared_ptr<void> hold;
};

// True for media types the HTML processor handles.
[[nodiscard]] bool IsHtmlMime(const std::string& mime);

// True if ProcessFetch may treat the result as a sitemap (a 2xx page of an
// XML or gzip media type).
[[nodiscard]] bool MayBeSitemap(const v1::ScheduledUrl& scheduled, const FetchResult& result);

// REQUIRES: result.url == scheduled.url().
[[nodiscard]] ProcessedPage ProcessFetch(const v1::ScheduledUrl& scheduled, const FetchResult& result,
                                         const ProcessOptions& options);

}  // namespace crawl::fetcher
