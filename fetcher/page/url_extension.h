// Whether a URL's path names a non-HTML type by its extension (docs/DESIGN.md
// 5.1: such links go one tier down; DiscoveredLink.likely_non_html).
// Pure and reentrant.
#pragma once

#include <string_view>

namespace crawl::fetcher {

// The last path segment's extension (after its last '.'), case-insensitive,
// is that of an image, audio, video, archive, binary, office document, PDF,
// style sheet, script, font or data file. ".html", ".php", no extension:
// false. REQUIRES: `url` absolute (its query and fragment are ignored).
[[nodiscard]] bool LikelyNonHtml(std::string_view url);

}  // namespace crawl::fetcher
