// Document types by name, media type and URL extension
// (fetcher/document/document.h), over the crawl parameters' table
// (common/crawl/document_types.h), whose order is DocumentType's.
#include "common/crawl/document_types.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "fetcher/document/document.h"

namespace crawl::fetcher {
namespace {

static_assert(std::size(kAllDocumentTypes) == kDocumentTypeCount);
static_assert(static_cast<std::size_t>(DocumentType::kFeed) == kFeedDocumentType);

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::optional<DocumentType> FromIndex(std::optional<std::size_t> i) {
  if (!i) return std::nullopt;
  return static_cast<DocumentType>(*i);
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
  const auto i = static_cast<std::size_t>(type);
  return i < kDocumentTypeCount ? kDocumentTypeNames[i] : "";
}

std::optional<DocumentType> DocumentTypeFromName(std::string_view name) {
  const std::string lower = Lower(name);
  for (std::size_t i = 0; i < kDocumentTypeCount; ++i) {
    if (kDocumentTypeNames[i] == lower) return static_cast<DocumentType>(i);
  }
  return std::nullopt;
}

std::optional<DocumentType> DocumentTypeForMime(std::string_view mime) {
  return FromIndex(DocumentTypeOfMime(Lower(mime.substr(0, mime.find(';')))));
}

std::optional<DocumentType> DocumentTypeForUrl(std::string_view url) {
  const std::string_view path = UrlPath(url);
  const size_t slash = path.rfind('/');
  const std::string_view last = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const size_t dot = last.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  return FromIndex(DocumentTypeOfExtension(Lower(last.substr(dot + 1))));
}

}  // namespace crawl::fetcher
