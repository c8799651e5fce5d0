// The document processor (docs/ARCHITECTURE.md "The document worker"):
// a binary document (PDF, Office Open XML, OpenDocument, EPUB, RTF) is
// parsed in the document worker process (fetcher/document/worker_client.h)
// and its record built as an HTML page's is: title (the URL's file name
// when the document has none), language (the document's declaration, source
// "document", else the text's: fetcher/page/language.h), description, text
// hash and mini index of title and text (fetcher/page/text_analysis.h),
// and its links resolved against the URL (source "document"). The record's
// `document` field says what the document is, or why it could not be read
// (a body cut by the size cap is not parsed); such a record has no text.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "fetcher/document/document.h"
#include "fetcher/page/html_processor.h"
#include "fetcher/page/process_options.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

// The binary document type of a response, by its media type, or by its
// URL's extension when the type says only application/octet-stream; nullopt
// for anything else (feeds included: they are XML text) or a type the crawl
// did not ask for (ProcessOptions.document_types_enabled, when present).
[[nodiscard]] std::optional<DocumentType> BinaryDocumentType(std::string_view mime, std::string_view url,
                                                             const ProcessOptions& options);

// Fills the record from the document (see above) and appends its links.
// `truncated`: the body was cut by the fetch's size cap.
// REQUIRES: options.document_parser != nullptr.
void ProcessDocument(DocumentType type, const PageInput& page, bool truncated, const ProcessOptions& options,
                     ProcessingContext& context, v1::FetchRecord* record,
                     std::vector<v1::DiscoveredLink>* links);

}  // namespace crawl::fetcher
