// MIME type -> processor (page_processor.h).
#include "fetcher/page/page_processor.h"

#include "common/base/hash.h"
#include "common/url/robots.h"
#include "common/url/url.h"
#include "fetcher/page/charset.h"
#include "fetcher/page/document_processor.h"
#include "fetcher/page/feed_processor.h"
#include "fetcher/page/html_processor.h"
#include "fetcher/page/page_directives.h"
#include "fetcher/page/revisit.h"
#include "fetcher/page/sitemap_processor.h"
#include "fetcher/page/url_limit.h"

namespace crawl::fetcher {
namespace {

ProcessingContext& ThreadContext() {
  thread_local ProcessingContext context;
  return context;
}

// Header-derived text (media type, error messages quoting a header) as valid
// UTF-8: proto3 string fields must be, or the queue server cannot parse the
// fetcher's whole SubmitResults batch. Invalid bytes become U+FFFD.
std::string ValidUtf8(const std::string& s) {
  if (ValidUtf8Prefix(s) == s.size()) return s;
  uint32_t invalid = 0;
  return ToUtf8(s, Encoding::kUtf8, &invalid);
}

bool IsXmlMime(const std::string& mime) {
  return mime == "application/xml" || mime == "text/xml" || mime.ends_with("+xml");
}

bool IsGzipMime(const std::string& mime) {
  return mime == "application/gzip" || mime == "application/x-gzip" || mime == "application/x-gunzip";
}

// Appends `u` as a link with from_sitemap = true and the next rank. False
// if it is not an http(s) URL or too long once resolved.
bool AddSitemapLink(const url::Resolver& resolver, std::string_view u, const v1::ScheduledUrl& scheduled,
                    uint32_t* rank, std::vector<v1::DiscoveredLink>* links) {
  auto target = resolver.Resolve(u);
  if (!target.ok()) return true;  // not http(s), malformed
  if (url::UrlTooLong(*target)) return false;
  v1::DiscoveredLink& l = links->emplace_back();
  l.set_url(std::move(*target));
  l.set_depth(scheduled.depth() + 1);
  l.set_from_sitemap(true);
  l.set_link_rank((*rank)++);
  l.set_source("sitemap");
  return true;
}

void SetLinksOnPage(std::size_t first, uint32_t count, std::vector<v1::DiscoveredLink>* links) {
  for (std::size_t i = first; i < links->size(); ++i) (*links)[i].set_links_on_page(count);
}

// Links with from_sitemap = true, link_rank = position, in the given order.
void AddSitemapLinks(const std::vector<std::string>& urls, const v1::ScheduledUrl& scheduled,
                     std::vector<v1::DiscoveredLink>* links) {
  auto resolver = url::Resolver::ForBase(scheduled.url());
  if (!resolver.ok()) return;
  const std::size_t first = links->size();
  uint32_t rank = 0;
  uint64_t too_long = 0;
  for (const std::string& u : urls) {
    if (!AddSitemapLink(*resolver, u, scheduled, &rank, links)) ++too_long;
  }
  if (too_long > 0) NoteUrlsTooLong("sitemap", too_long);
  SetLinksOnPage(first, rank, links);
}

// Processes a sitemap body (maybe gzip), streaming: each <loc> becomes a
// link as it is read, so neither the inflated XML nor a list of its URLs is
// ever held whole. False if it is not a sitemap.
bool ProcessSitemap(const v1::ScheduledUrl& scheduled, const FetchResult& result, ProcessedPage* out) {
  const std::string& body = result.body;
  auto resolver = url::Resolver::ForBase(scheduled.url());
  const std::size_t first = out->links.size();
  uint32_t rank = 0;
  uint64_t too_long = 0;
  auto scan = ScanSitemap(
      body, {},
      [&](std::string&& u) {
        if (resolver.ok() && !AddSitemapLink(*resolver, u, scheduled, &rank, &out->links)) ++too_long;
      },
      CharsetFromContentType(result.content_type));
  if (!scan.ok()) {
    out->links.resize(first);
    out->record.set_error("sitemap: " + scan.status().message());
    return true;
  }
  if (!scan->is_sitemap) return false;
  out->record.set_charset(scan->charset);
  out->record.set_invalid_bytes(scan->invalid_bytes);
  too_long += scan->too_long;
  if (too_long > 0) NoteUrlsTooLong("sitemap", too_long);
  if (scan->truncated) out->record.set_truncated(true);
  out->record.set_links_found(static_cast<uint32_t>(scan->urls));
  SetLinksOnPage(first, rank, &out->links);
  out->sitemap = true;
  return true;
}

// A 2xx page's content, by its type; what its markup said about itself
// for ApplyPageDirectives.
HtmlDirectives ProcessContent(const v1::ScheduledUrl& scheduled, const FetchResult& result,
                              const ProcessOptions& options, ProcessedPage* out) {
  v1::FetchRecord& r = out->record;
  PageInput page;
  page.url = scheduled.url();
  page.body = result.body;
  page.content_type = result.content_type;
  page.link_depth = scheduled.depth() + 1;
  const std::string& mime = result.mime_type;
  HtmlDirectives directives;
  // PDF, Office, OpenDocument, EPUB, RTF: parsed in the document worker.
  const std::optional<DocumentType> document = BinaryDocumentType(mime, scheduled.url(), options);
  if (document && options.document_parser != nullptr) {
    ProcessDocument(*document, page, result.truncated, options, ThreadContext(), &r, &out->links);
  } else if (document) {
    NoteDocumentCut(result, options, &r);  // no worker here: the record only
  } else if (IsHtmlMime(mime)) {
    ProcessHtml(page, options, ThreadContext(), &r, &out->links, &directives);
  } else if (mime == "text/plain") {
    ProcessPlainText(page, options, ThreadContext(), &r);
  } else if (ProcessFeed(page, mime, options, ThreadContext(), &r, &out->links)) {
    // An RSS or Atom feed (feed_processor.h).
  } else if (IsXmlMime(mime) || IsGzipMime(mime)) {
    if (!ProcessSitemap(scheduled, result, out) && IsXmlMime(mime) && !IsGzip(result.body)) {
      // An XML page that is not a sitemap (XHTML served as XML, a feed): its
      // text is still worth indexing, and its markup scan finds its links.
      ProcessHtml(page, options, ThreadContext(), &r, &out->links, &directives);
    }
  }
  return directives;
}

}  // namespace

bool IsHtmlMime(const std::string& mime) { return mime == "text/html" || mime == "application/xhtml+xml"; }

bool MayBeSitemap(const v1::ScheduledUrl& scheduled, const FetchResult& result) {
  return scheduled.kind() == v1::URL_KIND_PAGE && result.status >= 200 && result.status < 300 &&
         (IsXmlMime(result.mime_type) || IsGzipMime(result.mime_type));
}

ProcessedPage ProcessFetch(const v1::ScheduledUrl& scheduled, const FetchResult& result,
                           const ProcessOptions& options) {
  ProcessedPage out;
  v1::FetchRecord& r = out.record;
  r.set_url(scheduled.url());
  r.set_referrer(scheduled.referrer());
  r.set_kind(scheduled.kind());
  // The scoring chain's datum goes back with the record (crawl.proto field 200).
  if (scheduled.has_scoring_datum()) r.set_scoring_datum(scheduled.scoring_datum());
  r.set_status(result.status);
  r.set_bytes(result.body.size());
  r.set_mime_type(ValidUtf8(result.mime_type));
  r.set_fetch_ms(result.fetch_ms);
  r.set_timestamp_unix_us(result.start_unix_us);
  r.set_error(ValidUtf8(result.error));
  r.set_truncated(result.truncated);
  if (result.status > 0) r.set_content_digest(hash::ContentDigestHex(result.body));
  // A revisit of unchanged content (304, or the same digest as last time)
  // costs no processing: the queue server keeps what it has (revisit.h).
  if (NoteValidators(scheduled, result, &r)) return out;

  if (result.status >= 300 && result.status < 400 && !result.location.empty()) {
    auto target = url::Resolve(scheduled.url(), result.location);
    if (target.ok() && url::UrlTooLong(*target)) {
      NoteUrlsTooLong("redirect");
      r.set_error("redirect target over " + std::to_string(url::kMaxUrlBytes) + " bytes");
    } else if (target.ok()) {
      r.set_redirect_url(*target);
      // A redirect's target is a discovered link (docs/DESIGN.md §6); a
      // robots.txt redirect is the robots module's business, not a page's.
      if (scheduled.kind() == v1::URL_KIND_PAGE) {
        v1::DiscoveredLink& l = out.links.emplace_back();
        l.set_url(*target);
        l.set_depth(scheduled.depth() + 1);
        l.set_links_on_page(1);
        l.set_source("redirect");
      }
    }
    return out;
  }

  const bool success = result.status >= 200 && result.status < 300;
  if (scheduled.kind() == v1::URL_KIND_ROBOTS) {
    if (success) {
      const std::string_view body = std::string_view(result.body).substr(0, options.max_robots_bytes);
      r.set_robots_body(std::string(body));
      // Sitemap lines apply whatever the user-agent group (RFC 9309 2.3.5).
      const robots::RobotsRules rules = robots::Parse(body, "*");
      AddSitemapLinks(rules.sitemaps(), scheduled, &out.links);
    }
    return out;
  }
  if (!success) return out;

  const HtmlDirectives directives = ProcessContent(scheduled, result, options, &out);
  // X-Robots-Tag, canonical, hreflang, refresh: every type (page_directives.h).
  if (scheduled.kind() == v1::URL_KIND_PAGE)
    ApplyPageDirectives(scheduled, result, options, directives, &out);
  return out;
}

}  // namespace crawl::fetcher
