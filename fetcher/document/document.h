// Documents that are not HTML: their types and the parser entry point
// (docs/ARCHITECTURE.md "Documents"). Binary formats (PDF, Office Open XML,
// OpenDocument, EPUB, RTF) are parsed by ParseDocument inside the document
// worker process only (fetcher/document/worker.h), never in the fetcher's
// own address space; feeds are XML text and are parsed in place.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/status.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

enum class DocumentType { kPdf, kDocx, kXlsx, kPptx, kOdt, kOds, kOdp, kEpub, kRtf, kFeed };

inline constexpr DocumentType kAllDocumentTypes[] = {
    DocumentType::kPdf, DocumentType::kDocx, DocumentType::kXlsx, DocumentType::kPptx, DocumentType::kOdt,
    DocumentType::kOds, DocumentType::kOdp,  DocumentType::kEpub, DocumentType::kRtf,  DocumentType::kFeed};

// "pdf", "docx", ..., "feed" (CrawlParams.document_types, DocumentInfo.type).
[[nodiscard]] std::string_view DocumentTypeName(DocumentType type);
[[nodiscard]] std::optional<DocumentType> DocumentTypeFromName(std::string_view name);
// The type of a response by its media type (lower case, no parameters):
// application/pdf, the OOXML and OpenDocument types, application/epub+zip,
// application/rtf and text/rtf, application/rss+xml and application/atom+xml.
[[nodiscard]] std::optional<DocumentType> DocumentTypeForMime(std::string_view mime);
// The type a URL's path extension names (".pdf", ".docx", ".rss", ...).
[[nodiscard]] std::optional<DocumentType> DocumentTypeForUrl(std::string_view url);

// What one document may cost the parser.
struct DocumentLimits {
  // Text kept (ParsedDocument.text); beyond it the text is cut and
  // `truncated` set.
  size_t max_text_bytes = 2'000'000;
  // Links kept.
  size_t max_links = 1000;
  // Bytes inflated from a zip container in all (a zip bomb stops here).
  size_t max_inflated_bytes = 64'000'000;
  // Entries of a zip container looked at.
  size_t max_zip_entries = 10'000;
};

// Parses a whole document of `type`. An error for bodies that are not of
// that type, broken beyond reading, or over a limit with nothing read.
// Thread-compatible; may use much CPU and memory: call it in the document
// worker only.
[[nodiscard]] Result<v1::ParsedDocument> ParseDocument(DocumentType type, std::string_view body,
                                                       const DocumentLimits& limits);

}  // namespace crawl::fetcher
