// Hostile documents of the hostile preset's gzip-bomb hosts (universe.h,
// "Hostile hosts"): bodies that attack the fetcher's document worker
// (fetcher/document/worker_process.h) rather than its HTTP client.
//   truncated.pdf  a PDF cut in the middle of its page's content stream,
//                  without xref table or trailer
//   bad-xref.pdf   a PDF whose xref table and startxref are garbage (poppler
//                  rebuilds the table from the objects and reads it)
//   slow.pdf       one page whose content stream inflates to kSlowPdfBytes
//                  of text-showing operators (about 1.5 MB on the wire): a
//                  parser extracting all of it runs into the time or
//                  memory limit
//   zip-bomb.docx  an Office Open XML package whose word/document.xml
//                  inflates to kZipBombBytes zero bytes (about 2 MB on the
//                  wire)
//   laughs.docx, laughs.odt, laughs.rss: "billion laughs" XML (ten entity
//                  levels of ten references: 10^9 "lol"s if expanded) as
//                  the package's main XML part, and as an RSS feed
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace crawl::testweb {

inline constexpr uint64_t kZipBombBytes = uint64_t{2} << 30;
inline constexpr uint64_t kSlowPdfBytes = uint64_t{512} << 20;

struct DocumentBomb {
  std::string_view name;  // the file name under /bomb-docs/
  std::string_view content_type;
};

// The documents above, in a fixed order (a Resource's `depth` indexes it).
inline constexpr DocumentBomb kDocumentBombs[] = {
    {"truncated.pdf", "application/pdf"},
    {"bad-xref.pdf", "application/pdf"},
    {"slow.pdf", "application/pdf"},
    {"zip-bomb.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
    {"laughs.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
    {"laughs.odt", "application/vnd.oasis.opendocument.text"},
    {"laughs.rss", "application/rss+xml"},
};

// The body of kDocumentBombs[index]; the large ones are made on first use
// (a few seconds of CPU, streaming: the decoded bytes are never held) and
// kept. Thread-safe.
[[nodiscard]] const std::string& DocumentBombBody(size_t index);

}  // namespace crawl::testweb
