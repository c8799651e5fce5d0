// Web feeds: RSS 2.0 (RSS Advisory Board, rssboard.org/rss-specification),
// RSS 1.0 (RDF Site Summary, web.resource.org/rss/1.0/spec) and Atom 1.0
// (RFC 4287), read with expat (docs/ARCHITECTURE.md "Feeds").
//
// The XML must already be UTF-8 (fetcher/page/charset.h DecodeBody with
// BodyKind::kXml): the parser is told so and ignores the declaration. It
// streams the text in pieces and keeps only what it returns, each piece of
// which is bounded (FeedLimits):
//   - no external entity or DTD is ever loaded, and expat's amplification
//     guard (XML_SetBillionLaughsAttackProtection*) stops entity
//     expansion bombs;
//   - nesting deeper than max_depth stops the parse;
//   - at most max_items items/entries are read (the rest are counted as
//     truncated, not parsed); each text field keeps at most max_field_bytes.
// Malformed XML (HTML entities a feed did not declare, a cut body) keeps
// the items read before the error, and `error` says where it stopped.
//
// Pure and reentrant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crawl::fetcher {

enum class FeedFormat : uint8_t { kRss, kRdf, kAtom };

// The feed format of XML whose root element (the first start tag after
// the prolog, in the first 4 KiB) is <rss>, <rdf:RDF> (any prefix) or
// <feed>; nullopt for any other root.
[[nodiscard]] std::optional<FeedFormat> SniffFeedRoot(std::string_view xml);

struct FeedLimits {
  std::size_t max_items = 300;           // items/entries read (ProcessOptions.max_links)
  std::size_t max_depth = 64;            // element nesting
  std::size_t max_field_bytes = 16384;   // each title, summary, link ... as read
  std::size_t max_summary_bytes = 4096;  // each item's summary as text
};

struct FeedItem {
  std::string link;     // absolute when a base made it so, else as written
  std::string title;    // plain text, whitespace-collapsed
  std::string summary;  // plain text: HTML stripped, entities decoded
};

struct Feed {
  FeedFormat format = FeedFormat::kRss;
  std::string title;            // channel/feed title (plain text)
  std::string description;      // channel description, Atom subtitle (plain text)
  std::string language;         // <language>, <dc:language> or the root's xml:lang, as written
  std::string author;           // Atom feed author name, RSS managingEditor / dc:creator
  int64_t updated_unix_s = 0;   // Atom <updated>, RSS lastBuildDate / pubDate / dc:date; 0: none
  std::vector<FeedItem> items;  // in document order
  bool truncated = false;       // stopped at max_items or max_depth
  std::string error;            // why parsing stopped early ("" when it did not)
};

// Parses `utf8_xml` against `base_url` (the feed's URL; xml:base refines
// it). Never fails: see `error`.
[[nodiscard]] Feed ParseFeed(std::string_view utf8_xml, std::string_view base_url, const FeedLimits& limits);

// RFC 3339 / W3C-DTF ("2003-12-13T18:30:02Z", "2003-12-13T18:30:02.25+01:00",
// "2003-12-13") or RFC 822 as RSS writes it ("Sat, 07 Sep 2002 00:00:01 GMT",
// "+0200", "EST") into Unix seconds; nullopt if it is neither.
[[nodiscard]] std::optional<int64_t> ParseFeedDate(std::string_view text);

}  // namespace crawl::fetcher
