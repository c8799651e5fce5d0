// The document processor (document_processor.h).
#include "fetcher/page/document_processor.h"

#include "common/base/flat_string_map.h"
#include "common/base/string_hash.h"
#include "common/url/url.h"
#include "fetcher/document/worker_client.h"
#include "fetcher/page/text_analysis.h"
#include "fetcher/page/url_extension.h"
#include "fetcher/page/url_limit.h"

namespace crawl::fetcher {
namespace {

constexpr std::size_t kMaxTitleChars = 100;  // as HTML titles (docs/DESIGN.md §6)

// At most kMaxTitleChars characters, cut at a character boundary.
std::string CutTitle(std::string_view title) {
  std::size_t chars = 0, end = 0;
  for (; end < title.size(); ++end) {
    if ((static_cast<unsigned char>(title[end]) & 0xC0) != 0x80 && ++chars > kMaxTitleChars) break;
  }
  return std::string(title.substr(0, end));
}

// The last segment of the URL's path ("report.pdf"), "" if none.
std::string FileName(std::string_view url) {
  std::string_view path = url.substr(0, url.find_first_of("?#"));
  const std::size_t scheme = path.find("://");
  if (scheme != std::string_view::npos) {
    const std::size_t slash = path.find('/', scheme + 3);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash);
  }
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  return std::string(path.substr(path.find_last_of('/') + 1));
}

// The document's links, resolved, deduplicated, http(s), at most max_links.
void AddDocumentLinks(const v1::ParsedDocument& doc, const PageInput& page, const ProcessOptions& options,
                      std::vector<v1::DiscoveredLink>* links) {
  auto resolver = url::Resolver::ForBase(page.url);
  if (!resolver.ok()) return;
  const std::size_t first = links->size();
  FlatStringMap<std::size_t> seen;
  uint64_t too_long = 0;
  for (const v1::ParsedLink& link : doc.links()) {
    if (links->size() - first >= options.max_links) break;
    auto target = resolver->Resolve(link.url());
    if (!target.ok()) continue;  // mailto:, file:, malformed, ...
    if (url::UrlTooLong(*target)) {
      ++too_long;
      continue;
    }
    auto [index, inserted] = seen.Insert(*target, ShortStringHash(*target));
    if (!inserted) continue;
    *index = links->size();
    v1::DiscoveredLink& l = links->emplace_back();
    l.set_likely_non_html(LikelyNonHtml(*target));
    l.set_url(std::move(*target));
    l.set_depth(page.link_depth);
    l.set_link_rank(static_cast<uint32_t>(links->size() - first - 1));
    l.set_anchor_text(link.anchor_text());
    l.set_source("document");
  }
  if (too_long > 0) NoteUrlsTooLong("document", too_long);
  for (std::size_t i = first; i < links->size(); ++i)
    (*links)[i].set_links_on_page(static_cast<uint32_t>(links->size() - first));
}

}  // namespace

std::optional<DocumentType> BinaryDocumentType(std::string_view mime, std::string_view url,
                                               const ProcessOptions& options) {
  std::optional<DocumentType> type = DocumentTypeForMime(mime);
  if (!type && (mime == "application/octet-stream" || mime == "binary/octet-stream"))
    type = DocumentTypeForUrl(url);
  if (!type || *type == DocumentType::kFeed ||
      !options.document_types_enabled.test(static_cast<std::size_t>(*type)))
    return std::nullopt;
  return type;
}

void ProcessDocument(DocumentType type, const PageInput& page, bool truncated, const ProcessOptions& options,
                     ProcessingContext& context, v1::FetchRecord* record,
                     std::vector<v1::DiscoveredLink>* links) {
  v1::DocumentInfo* info = record->mutable_document();
  info->set_type(std::string(DocumentTypeName(type)));
  if (truncated) {
    info->set_error("document cut at " + std::to_string(page.body.size()) + " bytes (max_document_bytes)");
    return;
  }
  Result<v1::ParsedDocument> parsed = options.document_parser->Parse(type, page.url, page.body);
  if (!parsed.ok()) {
    info->set_error(parsed.status().message());
    return;
  }
  v1::ParsedDocument& doc = *parsed;
  *info = doc.info();
  info->set_type(std::string(DocumentTypeName(type)));
  info->clear_error();
  const std::string title = CutTitle(doc.title().empty() ? FileName(page.url) : doc.title());
  record->set_title(title);
  record->set_links_found(static_cast<uint32_t>(doc.links_size()));

  TextInput text;
  text.title = title;
  text.body = doc.text();
  text.declared_language = doc.declared_language();
  const std::string host = url::HostOf(page.url);
  text.host = host;
  for (const v1::ParsedLink& link : doc.links()) text.anchors.push_back(link.anchor_text());
  TextOptions text_options;
  text_options.max_description_chars = options.max_description_chars;
  text_options.max_index_positions = options.max_index_positions;
  AnalyzeText(text, text_options, context.stemmers, record);
  // The declaration used is the document's, not an HTML page's.
  if (record->language_source() == "html") record->set_language_source("document");
  AddDocumentLinks(doc, page, options, links);
}

}  // namespace crawl::fetcher
