// `crawlctl page`: runs the fetcher's page processing (page_processor.h) on
// a local file and renders everything it extracts as one JSON object, so
// each processor's output can be inspected and tested from the shell.
//
// Pure apart from what ProcessFetch does (nothing: no I/O). Thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl::fetcher {

struct LocalPage {
  std::string url;      // the URL the page is taken to come from (absolute http(s))
  std::string mime;     // media type; "" = guessed from the URL/file name extension
  std::string charset;  // Content-Type charset as a server would send it ("" = none)
  std::string file_name;
  std::string body;  // the file's bytes
};

// The media type a file name's extension suggests: .html .htm .xhtml ->
// text/html, .txt -> text/plain, .xml -> application/xml, .gz ->
// application/gzip; anything else text/html.
[[nodiscard]] std::string GuessMime(std::string_view file_name);

// {"url", "kind", "mime_type", "content_type", "record": FetchRecord,
//  "links": [DiscoveredLink]} with proto field names (proto3 JSON mapping:
// 64-bit integers are strings, bytes are base64). The URL kind is ROBOTS
// when the URL's path is /robots.txt. A URL that is not absolute http(s)
// gets kInvalidArgument.
[[nodiscard]] Result<std::string> PageReportJson(const LocalPage& page);

}  // namespace crawl::fetcher
