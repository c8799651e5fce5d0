// Whether a URL's path names a non-HTML type by its extension (docs/DESIGN.md
// 5.1: such links go one tier down; DiscoveredLink.likely_non_html), and
// which document type it names (common/crawl/document_types.h).
// Pure and reentrant.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "common/crawl/document_types.h"

namespace crawl::fetcher {

// The last path segment's extension (after its last '.'), case-insensitive,
// is that of an image, audio, video, archive, binary, office document, PDF,
// style sheet, script, font or data file, and not that of a document type
// in `processed` (a document the crawl reads is not penalised: ".pdf" with
// "pdf" on, ".rss" and ".atom" with "feed" on). ".html", ".php", no
// extension: false. REQUIRES: `url` absolute (its query and fragment are
// ignored).
[[nodiscard]] bool LikelyNonHtml(std::string_view url, const DocumentTypeSet& processed = {});

// The document type (index into kDocumentTypeNames) the URL's extension
// names, or nullopt. REQUIRES: as LikelyNonHtml.
[[nodiscard]] std::optional<std::size_t> UrlDocumentType(std::string_view url);

}  // namespace crawl::fetcher
