// The feed processor (docs/ARCHITECTURE.md "Feeds"): an RSS 2.0, RSS 1.0 or
// Atom 1.0 feed (fetcher/page/feed_parser.h) becomes
//   - a record: title = the channel/feed title, description = the channel
//     description or Atom subtitle, language from <language> / xml:lang
//     else the text, a mini index of the feed's title, description and
//     every item's title and summary (fetcher/page/text_analysis.h), and
//     document {type "feed", author, modified_unix_s};
//   - a link per item/entry (RSS <link>, else a permalink <guid>; Atom's
//     alternate link), resolved against xml:base and the feed URL, in feed
//     order (link_rank), source "feed", anchor_text = the item's title and
//     summary (at most kMaxFeedAnchorBytes), not pruned: a feed lists what
//     its site wants read. The queue server indexes anchor text as the
//     target page's (queueserver/index/index_builder.cc), so a search for an
//     item's title finds the item's page.
// Feeds are recognised by media type (application/rss+xml,
// application/atom+xml) or, for application/xml and text/xml, by their root
// element, and read only when the crawl processes "feed"
// (ProcessOptions.document_types_enabled).
//
// Pure (no I/O). Thread-safe with one ProcessingContext per thread.
#pragma once

#include <string_view>
#include <vector>

#include "fetcher/http/http_fetcher.h"
#include "fetcher/page/html_processor.h"
#include "fetcher/page/process_options.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

inline constexpr std::size_t kMaxFeedAnchorBytes = 500;

// True for application/rss+xml and application/atom+xml (and
// application/rdf+xml, RSS 1.0's own type).
[[nodiscard]] bool IsFeedMime(std::string_view mime);

// Reads `page` as a feed when `mime` (lower case, no parameters) is a feed
// type or XML and its root element is a feed's, and the crawl processes
// feeds: fills the record and appends the links, then returns true. False
// (nothing written) otherwise.
bool ProcessFeed(const PageInput& page, std::string_view mime, const ProcessOptions& options,
                 ProcessingContext& context, v1::FetchRecord* record, std::vector<v1::DiscoveredLink>* links);

// The size cap (docs/ARCHITECTURE.md): a 2xx response whose media type is
// a document type the crawl processes (other than a feed, which is read as
// far as it goes) and whose body was cut (at page_range_bytes when its URL
// did not name the type, else at max_document_bytes) cannot be parsed:
// record.document gets the type and error "document cut at N bytes".
void NoteDocumentCut(const FetchResult& result, const ProcessOptions& options, v1::FetchRecord* record);

}  // namespace crawl::fetcher
