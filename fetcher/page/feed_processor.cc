// Feeds into records and links (feed_processor.h).
#include "fetcher/page/feed_processor.h"

#include <unordered_set>

#include "common/text/tokenizer.h"
#include "common/url/url.h"
#include "fetcher/page/charset.h"
#include "fetcher/page/feed_parser.h"
#include "fetcher/page/text_analysis.h"
#include "fetcher/page/url_extension.h"
#include "fetcher/page/url_limit.h"

namespace crawl::fetcher {
namespace {

constexpr std::size_t kMaxTitleChars = 100;  // as HTML titles (docs/DESIGN.md §6)

// At most `max_chars` characters (UTF-8 code points).
std::string CutChars(std::string_view s, std::size_t max_chars) {
  std::size_t chars = 0, end = 0;
  for (; end < s.size(); ++end) {
    if ((static_cast<unsigned char>(s[end]) & 0xC0) != 0x80 && ++chars > max_chars) break;
  }
  return std::string(s.substr(0, end));
}

// At most `max_bytes` bytes, cut at a character boundary.
std::string CutBytes(std::string s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  s.resize(end);
  return s;
}

// "en-US" -> "en" (as html_links.h reads lang attributes).
std::string PrimaryLanguage(std::string_view tag) {
  std::string out;
  for (char c : tag) {
    if (c == '-' || c == '_' || c == ' ') break;
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
  }
  return out;
}

// The text indexed: the channel description first (its positions follow
// the title's), then each item's title and summary, one paragraph each.
std::string FeedText(const Feed& feed) {
  std::string body = feed.description;
  for (const FeedItem& item : feed.items) {
    for (const std::string* part : {&item.title, &item.summary}) {
      if (part->empty()) continue;
      if (!body.empty()) body += "\n";
      body += *part;
    }
  }
  return body;
}

// The record's description is the feed's own: one sentence over its words
// (the summariser's picks stand when the feed has none).
void SetFeedDescription(const Feed& feed, const ProcessOptions& options, v1::FetchRecord* record) {
  if (feed.description.empty()) return;
  uint32_t words = 0;
  text::ForEachToken(feed.description, [&](std::string_view) { ++words; });
  const uint32_t first = record->mini_index().title_tokens();
  record->clear_description();
  v1::DescriptionSentence* d = record->add_description();
  d->set_text(CutChars(feed.description, options.max_description_chars));
  d->set_weight(1.0f);
  d->set_first_position(first);
  d->set_end_position(first + words);
}

void AddItemLinks(const PageInput& page, const Feed& feed, const ProcessOptions& options,
                  std::vector<v1::DiscoveredLink>* links) {
  auto resolver = url::Resolver::ForBase(page.url);
  if (!resolver.ok()) return;
  const std::size_t first = links->size();
  std::unordered_set<std::string> seen;
  uint64_t too_long = 0;
  for (const FeedItem& item : feed.items) {
    if (item.link.empty() || links->size() - first >= options.max_links) continue;
    auto target = resolver->Resolve(item.link);
    if (!target.ok()) continue;  // not http(s), malformed
    if (url::UrlTooLong(*target)) {
      ++too_long;
      continue;
    }
    if (!seen.insert(*target).second) continue;
    std::string anchor = item.title;
    if (!item.summary.empty()) anchor += (anchor.empty() ? "" : " ") + item.summary;
    v1::DiscoveredLink& l = links->emplace_back();
    l.set_likely_non_html(LikelyNonHtml(*target, options.document_types_enabled));
    l.set_url(std::move(*target));
    l.set_depth(page.link_depth);
    l.set_link_rank(static_cast<uint32_t>(links->size() - first - 1));
    l.set_anchor_text(CutBytes(std::move(anchor), kMaxFeedAnchorBytes));
    l.set_source("feed");
  }
  if (too_long > 0) NoteUrlsTooLong("feed", too_long);
  for (std::size_t i = first; i < links->size(); ++i)
    (*links)[i].set_links_on_page(static_cast<uint32_t>(links->size() - first));
}

}  // namespace

bool IsFeedMime(std::string_view mime) {
  return mime == "application/rss+xml" || mime == "application/atom+xml" || mime == "application/rdf+xml";
}

bool ProcessFeed(const PageInput& page, std::string_view mime, const ProcessOptions& options,
                 ProcessingContext& context, v1::FetchRecord* record,
                 std::vector<v1::DiscoveredLink>* links) {
  if (!options.document_types_enabled.test(kFeedDocumentType)) return false;
  if (!IsFeedMime(mime) && mime != "application/xml" && mime != "text/xml") return false;
  const DecodedBody decoded =
      DecodeBody(page.body, CharsetFromContentType(page.content_type), BodyKind::kXml);
  if (!SniffFeedRoot(decoded.text())) return false;
  record->set_charset(decoded.charset);
  record->set_invalid_bytes(decoded.invalid_bytes);

  FeedLimits limits;
  limits.max_items = options.max_links;
  const Feed feed = ParseFeed(decoded.text(), page.url, limits);
  const std::string title = CutChars(feed.title, kMaxTitleChars);
  record->set_title(title);
  record->set_links_found(static_cast<uint32_t>(feed.items.size()));
  v1::DocumentInfo* info = record->mutable_document();
  info->set_type("feed");
  info->set_author(CutChars(feed.author, kMaxTitleChars));
  info->set_modified_unix_s(feed.updated_unix_s);
  info->set_parts(static_cast<uint32_t>(feed.items.size()));
  if (!feed.error.empty() && feed.items.empty() && feed.title.empty()) info->set_error("feed: " + feed.error);

  const std::string body = FeedText(feed);
  const std::string language = PrimaryLanguage(feed.language);
  const std::string host = url::HostOf(page.url);
  TextInput text;
  text.title = title;
  text.body = body;
  text.declared_language = language;
  text.host = host;
  TextOptions text_options;
  text_options.max_description_chars = options.max_description_chars;
  text_options.max_index_positions = options.max_index_positions;
  AnalyzeText(text, text_options, context.stemmers, record);
  SetFeedDescription(feed, options, record);

  AddItemLinks(page, feed, options, links);
  return true;
}

void NoteDocumentCut(const FetchResult& result, const ProcessOptions& options, v1::FetchRecord* record) {
  if (!result.truncated) return;
  const std::optional<std::size_t> type = DocumentTypeOfMime(result.mime_type);
  if (!type || *type == kFeedDocumentType || !options.document_types_enabled.test(*type)) return;
  v1::DocumentInfo* info = record->mutable_document();
  info->set_type(std::string(kDocumentTypeNames[*type]));
  info->set_error("document cut at " + std::to_string(result.body.size()) + " bytes");
}

}  // namespace crawl::fetcher
