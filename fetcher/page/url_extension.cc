// Non-HTML URL extensions (url_extension.h).
#include "fetcher/page/url_extension.h"

#include <string>

#include "common/base/find_any.h"

namespace crawl::fetcher {
namespace {

// The extension of the URL's last path segment, lower-cased into `lower`
// (5 bytes at most; longer extensions are none), or "".
std::string_view LowerExtension(std::string_view url, char (&lower)[5]) {
  const std::size_t scheme = url.find("://");
  std::size_t path = scheme == std::string_view::npos ? 0 : url.find('/', scheme + 3);
  if (path == std::string_view::npos) return {};
  std::string_view p = url.substr(path);
  p = p.substr(0, FindAnyOf(p, "?#"));
  const std::size_t slash = p.rfind('/');
  const std::string_view segment = p.substr(slash + 1);
  const std::size_t dot = segment.rfind('.');
  if (dot == std::string_view::npos || segment.size() - dot - 1 > 5) return {};
  const std::string_view raw = segment.substr(dot + 1);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    lower[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  }
  return std::string_view(lower, raw.size());
}

}  // namespace

bool LikelyNonHtml(std::string_view url, const DocumentTypeSet& processed) {
  char lower[5];
  const std::string_view ext = LowerExtension(url, lower);
  if (ext.empty() || ext == "html" || ext == "htm") return false;  // most links: no list walk
  static constexpr std::string_view kNonHtml[] = {
      "pdf",   "ps",   "eps", "jpg",  "jpeg", "png", "gif", "bmp", "svg", "webp", "ico",  "tif",
      "tiff",  "mp3",  "wav", "ogg",  "flac", "aac", "m4a", "mp4", "m4v", "avi",  "mov",  "wmv",
      "flv",   "webm", "mkv", "mpg",  "mpeg", "zip", "gz",  "tgz", "bz2", "xz",   "7z",   "rar",
      "tar",   "exe",  "dmg", "iso",  "bin",  "msi", "deb", "rpm", "apk", "jar",  "doc",  "docx",
      "xls",   "xlsx", "ppt", "pptx", "odt",  "ods", "odp", "rtf", "css", "js",   "json", "woff",
      "woff2", "ttf",  "otf", "eot",  "swf",  "csv", "dat", "txt", "xml", "rss",  "atom", "epub"};
  for (std::string_view e : kNonHtml) {
    if (ext != e) continue;
    const std::optional<std::size_t> type = DocumentTypeOfExtension(ext);
    return !(type && processed.test(*type));
  }
  return false;
}

std::optional<std::size_t> UrlDocumentType(std::string_view url) {
  char lower[5];
  const std::string_view ext = LowerExtension(url, lower);
  return ext.empty() ? std::nullopt : DocumentTypeOfExtension(ext);
}

}  // namespace crawl::fetcher
