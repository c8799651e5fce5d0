// Which document types a crawl processes (CrawlParams.document_types) and
// how large a document may be (CrawlParams.max_document_bytes): shared by
// the name server, which checks them when a crawl starts or its parameters
// change, and the fetcher, which applies them (fetcher/page/process_options.h,
// fetcher/page/url_extension.h). The types are those of
// fetcher/document/document.h DocumentType, in its order.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl {

inline constexpr std::size_t kDocumentTypeCount = 10;
// In DocumentType order (fetcher/document/document.h).
inline constexpr std::string_view kDocumentTypeNames[kDocumentTypeCount] = {
    "pdf", "docx", "xlsx", "pptx", "odt", "ods", "odp", "epub", "rtf", "feed"};
inline constexpr std::size_t kFeedDocumentType = 9;

// Bit i: type kDocumentTypeNames[i] is processed.
using DocumentTypeSet = std::bitset<kDocumentTypeCount>;

// "" is every type, "none" none, else a comma-separated list of names
// (spaces around names ignored, case-sensitive, repeats allowed). An
// unknown name is an error that lists the known ones.
[[nodiscard]] Result<DocumentTypeSet> ParseDocumentTypes(std::string_view list);

// The index of the type a URL path extension names, lower case without
// the dot ("pdf", "rss" and "atom" are feeds), or nullopt.
[[nodiscard]] std::optional<std::size_t> DocumentTypeOfExtension(std::string_view ext);

// The index of the type a response's media type (lower case, no
// parameters) names: application/pdf, the Office Open XML and OpenDocument
// types, application/epub+zip, application/rtf and text/rtf,
// application/rss+xml, application/atom+xml and application/rdf+xml; nullopt
// for any other (application/xml feeds are known by their root element).
[[nodiscard]] std::optional<std::size_t> DocumentTypeOfMime(std::string_view mime);

// max_document_bytes: 0 means this; above the most is an error.
inline constexpr uint64_t kDefaultMaxDocumentBytes = 20'000'000;
inline constexpr uint64_t kMostMaxDocumentBytes = 100'000'000;

// Checks document_types and max_document_bytes as the name server stores
// them (max_document_bytes 0 becomes the default).
[[nodiscard]] Status CheckDocumentParams(std::string_view document_types, uint64_t* max_document_bytes);

}  // namespace crawl
