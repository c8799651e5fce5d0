// Document types of a crawl (document_types.h).
#include "common/crawl/document_types.h"

#include <utility>

namespace crawl {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string KnownNames() {
  std::string names;
  for (std::string_view n : kDocumentTypeNames)
    names += std::string(names.empty() ? "" : ", ") + std::string(n);
  return names;
}

}  // namespace

Result<DocumentTypeSet> ParseDocumentTypes(std::string_view list) {
  DocumentTypeSet set;
  if (Trim(list).empty()) return set.set();
  if (Trim(list) == "none") return set;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = list.find(',', start);
    const std::string_view name =
        Trim(list.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    bool known = false;
    for (std::size_t i = 0; i < kDocumentTypeCount; ++i) {
      if (name == kDocumentTypeNames[i]) {
        set.set(i);
        known = true;
      }
    }
    if (!known)
      return Status::InvalidArgument("document_types: unknown type '" + std::string(name) +
                                     "' (known: " + KnownNames() + "; \"\" is all of them, \"none\" none)");
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return set;
}

std::optional<std::size_t> DocumentTypeOfExtension(std::string_view ext) {
  if (ext == "rss" || ext == "atom") return kFeedDocumentType;
  for (std::size_t i = 0; i + 1 < kDocumentTypeCount; ++i) {
    if (ext == kDocumentTypeNames[i]) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> DocumentTypeOfMime(std::string_view mime) {
  static constexpr std::pair<std::string_view, std::size_t> kTypes[] = {
      {"application/pdf", 0},
      {"application/vnd.openxmlformats-officedocument.wordprocessingml.document", 1},
      {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", 2},
      {"application/vnd.openxmlformats-officedocument.presentationml.presentation", 3},
      {"application/vnd.oasis.opendocument.text", 4},
      {"application/vnd.oasis.opendocument.spreadsheet", 5},
      {"application/vnd.oasis.opendocument.presentation", 6},
      {"application/epub+zip", 7},
      {"application/rtf", 8},
      {"text/rtf", 8},
      {"application/rss+xml", kFeedDocumentType},
      {"application/atom+xml", kFeedDocumentType},
      {"application/rdf+xml", kFeedDocumentType}};
  for (const auto& [name, type] : kTypes) {
    if (mime == name) return type;
  }
  return std::nullopt;
}

Status CheckDocumentParams(std::string_view document_types, uint64_t* max_document_bytes) {
  if (auto types = ParseDocumentTypes(document_types); !types.ok()) return types.status();
  if (*max_document_bytes == 0) *max_document_bytes = kDefaultMaxDocumentBytes;
  if (*max_document_bytes > kMostMaxDocumentBytes)
    return Status::InvalidArgument("max_document_bytes above " + std::to_string(kMostMaxDocumentBytes) +
                                   " (100 MB): a document is held whole in the fetcher's memory");
  return Status::Ok();
}

}  // namespace crawl
