// The HTML processor (docs/DESIGN.md §6), in the design's order: charset
// (fetcher/page/charset.h) -> markup scan (fetcher/page/html_links.h: links, base,
// title, robot metas, declared language, visible text) -> language, title,
// description, content hash, mini index (fetcher/page/text_analysis.h) -> links
// resolved against the URL and <base href> (common/url/url.h), http(s) only,
// deduplicated, nofollow dropped, then ordered by effective terms and pruned
// (fetcher/page/link_pruning.h). A page with a robots nofollow meta reports no
// links.
//
// Pure (no I/O). Thread-safe with one ProcessingContext per thread.
#pragma once

#include <string_view>
#include <vector>

#include "fetcher/page/page_directives.h"
#include "fetcher/page/process_options.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

struct PageInput {
  std::string_view url;           // the page's URL (canonical, absolute)
  std::string_view body;          // bytes as received (after Content-Encoding)
  std::string_view content_type;  // Content-Type header value ("" if none)
  uint32_t link_depth = 0;        // depth for discovered links
};

// Fills the record's page fields (title, language, description, robot
// metas, text hash, charset, mini index, links_found) and appends the kept
// links to *links (link_rank, anchor_text, likely_non_html, links_on_page,
// source, effective_terms set; referrer = url).
// With `directives`, also reports the head's canonical, hreflang and
// refresh statements and the base URL (page_directives.h applies them).
void ProcessHtml(const PageInput& page, const ProcessOptions& options, ProcessingContext& context,
                 v1::FetchRecord* record, std::vector<v1::DiscoveredLink>* links,
                 HtmlDirectives* directives = nullptr);

// The plain text processor: charset, language, title (the first non-empty
// line, at most 100 characters), description, content hash, mini index.
// Single line breaks are spaces; blank lines separate paragraphs. No links.
void ProcessPlainText(const PageInput& page, const ProcessOptions& options, ProcessingContext& context,
                      v1::FetchRecord* record);

}  // namespace crawl::fetcher
