// Document types by name, media type and URL extension
// (fetcher/document/document.h).
#include <algorithm>
#include <cctype>
#include <string>

#include "fetcher/document/document.h"

namespace crawl::fetcher {
namespace {

struct TypeNames {
  DocumentType type;
  std::string_view name;
};
constexpr TypeNames kNames[] = {{DocumentType::kPdf, "pdf"},   {DocumentType::kDocx, "docx"},
                                {DocumentType::kXlsx, "xlsx"}, {DocumentType::kPptx, "pptx"},
                                {DocumentType::kOdt, "odt"},   {DocumentType::kOds, "ods"},
                                {DocumentType::kOdp, "odp"},   {DocumentType::kEpub, "epub"},
                                {DocumentType::kRtf, "rtf"},   {DocumentType::kFeed, "feed"}};

struct MimeType {
  std::string_view mime;
  DocumentType type;
};
constexpr MimeType kMimes[] = {
    {"application/pdf", DocumentType::kPdf},
    {"application/vnd.openxmlformats-officedocument.wordprocessingml.document", DocumentType::kDocx},
    {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", DocumentType::kXlsx},
    {"application/vnd.openxmlformats-officedocument.presentationml.presentation", DocumentType::kPptx},
    {"application/vnd.oasis.opendocument.text", DocumentType::kOdt},
    {"application/vnd.oasis.opendocument.spreadsheet", DocumentType::kOds},
    {"application/vnd.oasis.opendocument.presentation", DocumentType::kOdp},
    {"application/epub+zip", DocumentType::kEpub},
    {"application/rtf", DocumentType::kRtf},
    {"text/rtf", DocumentType::kRtf},
    {"application/rss+xml", DocumentType::kFeed},
    {"application/atom+xml", DocumentType::kFeed}};

constexpr MimeType kExtensions[] = {
    {"pdf", DocumentType::kPdf},   {"docx", DocumentType::kDocx}, {"xlsx", DocumentType::kXlsx},
    {"pptx", DocumentType::kPptx}, {"odt", DocumentType::kOdt},   {"ods", DocumentType::kOds},
    {"odp", DocumentType::kOdp},   {"epub", DocumentType::kEpub}, {"rtf", DocumentType::kRtf},
    {"rss", DocumentType::kFeed},  {"atom", DocumentType::kFeed}};

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// The path of an absolute or relative URL: after "scheme://authority",
// before '?' or '#'.
std::string_view UrlPath(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  if (const size_t scheme = url.find("://"); scheme != std::string_view::npos) {
    const size_t path = url.find('/', scheme + 3);
    return path == std::string_view::npos ? std::string_view() : url.substr(path);
  }
  return url;
}

}  // namespace

std::string_view DocumentTypeName(DocumentType type) {
  for (const auto& entry : kNames) {
    if (entry.type == type) return entry.name;
  }
  return "";
}

std::optional<DocumentType> DocumentTypeFromName(std::string_view name) {
  const std::string lower = Lower(name);
  for (const auto& entry : kNames) {
    if (entry.name == lower) return entry.type;
  }
  return std::nullopt;
}

std::optional<DocumentType> DocumentTypeForMime(std::string_view mime) {
  const std::string lower = Lower(mime.substr(0, mime.find(';')));
  for (const auto& entry : kMimes) {
    if (entry.mime == lower) return entry.type;
  }
  return std::nullopt;
}

std::optional<DocumentType> DocumentTypeForUrl(std::string_view url) {
  const std::string_view path = UrlPath(url);
  const size_t slash = path.rfind('/');
  const std::string_view last = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const size_t dot = last.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string extension = Lower(last.substr(dot + 1));
  for (const auto& entry : kExtensions) {
    if (entry.mime == extension) return entry.type;
  }
  return std::nullopt;
}

}  // namespace crawl::fetcher
