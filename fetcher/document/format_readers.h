// The parser of each document format, behind ParseDocument
// (fetcher/document/parse_document.cc). Each fills title, summary,
// declared_language, text, truncated, links and info (except info.type)
// within `limits`, or returns an error. Internal to fetcher/document/.
#pragma once

#include <string_view>

#include "common/base/status.h"
#include "fetcher/document/document.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher::document {

// PDF 32000-1 through poppler's C++ API (pdf_reader.cc).
[[nodiscard]] Result<v1::ParsedDocument> ReadPdf(std::string_view body, const DocumentLimits& limits);
// ECMA-376 WordprocessingML, PresentationML (ooxml_reader.cc) and
// SpreadsheetML (ooxml_sheets.cc).
[[nodiscard]] Result<v1::ParsedDocument> ReadDocx(std::string_view body, const DocumentLimits& limits);
[[nodiscard]] Result<v1::ParsedDocument> ReadPptx(std::string_view body, const DocumentLimits& limits);
[[nodiscard]] Result<v1::ParsedDocument> ReadXlsx(std::string_view body, const DocumentLimits& limits);
// OASIS OpenDocument 1.3 text, spreadsheet and presentation (odf_reader.cc).
[[nodiscard]] Result<v1::ParsedDocument> ReadOdf(std::string_view body, const DocumentLimits& limits);
// EPUB 3.3 (and 2.0.1) publications (epub_reader.cc).
[[nodiscard]] Result<v1::ParsedDocument> ReadEpub(std::string_view body, const DocumentLimits& limits);
// RTF 1.9.1 (rtf_reader.cc).
[[nodiscard]] Result<v1::ParsedDocument> ReadRtf(std::string_view body, const DocumentLimits& limits);

}  // namespace crawl::fetcher::document
