// The text and links of one XHTML document (an EPUB chapter), read with
// the expat event reader: head, script, style and template skipped, block
// elements (p, div, h1-h6, li, tr, br, ...) ending paragraphs, <a href>
// links, XHTML's named entities decoded when the DTD that declares them is
// not read. Internal to fetcher/document/.
#pragma once

#include <functional>
#include <string_view>

#include "common/base/status.h"
#include "fetcher/document/document_text.h"

namespace crawl::fetcher::document {

// Appends the text of `xhtml` to *text and its links for which
// keep_link(href) holds. An error for XML that is not well-formed.
[[nodiscard]] Status ReadXhtml(std::string_view xhtml, const std::function<bool(std::string_view)>& keep_link,
                               DocumentText* text);

}  // namespace crawl::fetcher::document
