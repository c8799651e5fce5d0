// Link and metadata extraction from raw HTML (docs/DESIGN.md §6): links
// from a, area, frame, iframe and img, feeds announced by <link>, the base href, the title, robot meta
// directives, head links (canonical, hreflang), meta refresh, the page language and (optionally) the
// visible text.
//
// A single forward scan over the bytes, after the tokenizer states of the
// WHATWG HTML standard (section 13.2.5) that matter for links: tags and
// attributes (double-, single- or unquoted values; names case-insensitive;
// the first of duplicate attributes wins), comments, bogus comments
// (<!DOCTYPE>, <?...>), raw text elements (script, style, xmp, iframe,
// noembed, noframes: no tags inside), escapable raw text (title, textarea:
// entities but no tags), plaintext. It builds no tree and never backtracks,
// so time is linear in the input and memory is bounded by the output. Like
// a browser, an unterminated comment, quote or raw text element runs to the
// end of the input, and a tag cut by the end of input is dropped.
// Not handled: foreign content (SVG/MathML CDATA), script escape states.
//
// Character references decoded in text and attribute values
// (fetcher/page/html_entities.h): every named reference of the standard,
// longest match first (&notin; is one reference, &notit is &not then "it"),
// two-code-point ones (&NotEqualTilde;) included, and &#NN; / &#xNN;
// (Windows-1252 for 0x80-0x9F as browsers do; 0, surrogates and values
// above U+10FFFF become U+FFFD). The 106 legacy names (&amp &lt &copy
// &eacute ...) are also decoded without ";", except, as in the standard,
// inside an attribute value when followed by "=" or an alphanumeric
// ("?a=1&copy=2" stays as written). Unknown names are kept as written. A
// NUL byte becomes U+FFFD in attribute values and is dropped from text.
//
// Resolving hrefs to absolute URLs is the caller's job (base_href and
// common/url/url.h).
//
// Thread-safety: ExtractLinks is reentrant.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fetcher/page/robots_directives.h"

namespace crawl::html {

struct Link {
  // The attribute value, entity-decoded and trimmed of surrounding ASCII
  // whitespace, otherwise as written (relative, not resolved).
  std::string href;
  // Text inside <a>...</a> (img alt inside it included), the alt of area
  // and img; entity-decoded, whitespace-collapsed, at most
  // ExtractOptions::max_anchor_chars characters. Empty for frame/iframe.
  std::string anchor_text;
  // "a", "area", "frame", "iframe", "img", or "link" (a feed the page
  // announces: <link rel="alternate" type="application/rss+xml" or
  // "application/atom+xml">).
  std::string tag;
  // rel="nofollow" on the element, or a robots meta nofollow on the page.
  bool nofollow = false;
  // Inside a <nav> element (the link-kind scoring filter's "nav").
  bool in_nav = false;

  bool operator==(const Link&) const = default;
};

// The robots directives (noindex, nofollow, noarchive, nosnippet,
// unavailable_after) are those of <meta name="robots" content="..."> and the
// optional bot-specific name, merged (fetcher/page/robots_directives.h).
struct PageLinks : fetcher::RobotsDirectives {
  std::string base_href;  // first <base href>, decoded and trimmed; "" if none
  // <title> text (decoded, collapsed, at most max_title_chars characters);
  // if there is no non-empty title, the first non-empty h1..h6.
  std::string title;
  std::vector<Link> links;       // in document order, at most max_links
  bool links_truncated = false;  // more links than max_links were found
  // Directives of the document's head (a <link> after <body>, </head>, a
  // link-making tag or the first text is in the body and ignored): the first
  // <link rel="canonical" href>, decoded and trimmed ("" if none), and the
  // <link rel="alternate" hreflang href> ones (hreflang lower-cased), at
  // most max_alternates. Not resolved.
  std::string canonical_href;
  std::vector<std::pair<std::string, std::string>> alternates;  // (hreflang, href)
  // The content of the first <meta http-equiv="refresh">, decoded.
  std::string refresh;
  // Primary language subtag, lower-case ("en" for "en-US"), from <html lang>
  // (or xml:lang), else <meta http-equiv="content-language">; "" if none.
  std::string lang;
  // With ExtractOptions::collect_text: the page's visible text (not title,
  // script, style or other raw text; not attribute values), entities
  // decoded, runs of whitespace collapsed to one space, and a "\n" wherever
  // a block-level (non-inline) tag separates text, so paragraphs, list
  // items, cells and headings are separate lines. Valid UTF-8 if the input
  // is; at most max_text_bytes, cut at a character boundary.
  std::string text;
  bool text_truncated = false;
};

struct ExtractOptions {
  std::size_t max_links = 300;         // docs/DESIGN.md §6
  std::size_t max_anchor_chars = 200;  // characters = UTF-8 code points
  std::size_t max_title_chars = 100;   // docs/DESIGN.md §6
  // Longer href/src values are skipped (no crawler fetches them).
  std::size_t max_href_bytes = 4096;
  // Besides <meta name="robots">, a meta whose name equals this token
  // (case-insensitive, e.g. our product token) is obeyed too. Empty: none.
  std::string robots_meta_token;
  std::size_t max_alternates = 50;
  // Fill PageLinks::text (off: link extraction alone is faster).
  bool collect_text = false;
  std::size_t max_text_bytes = 2 * 1024 * 1024;
};

// Extracts links and metadata from `html` (any bytes; never fails).
// Skipped: empty hrefs and javascript:, vbscript:, mailto:, data: and tel:
// links (case-insensitive, after trimming).
[[nodiscard]] PageLinks ExtractLinks(std::string_view html, const ExtractOptions& options = {});

// Decodes character references in `in` and appends the result to `out`
// (`in_attribute` selects the attribute-value rule above). Exposed for tests
// and for callers that read other attributes.
void AppendDecodedEntities(std::string_view in, bool in_attribute, std::string& out);

}  // namespace crawl::html
