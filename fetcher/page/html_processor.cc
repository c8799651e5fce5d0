// HTML and plain text processors (html_processor.h).
#include "fetcher/page/html_processor.h"

#include "common/base/flat_string_map.h"
#include "common/base/string_hash.h"
#include "common/url/url.h"
#include "fetcher/page/charset.h"
#include "fetcher/page/html_links.h"
#include "fetcher/page/text_analysis.h"
#include "fetcher/page/url_extension.h"
#include "fetcher/page/url_limit.h"

namespace crawl::fetcher {
namespace {

constexpr std::size_t kMaxTitleChars = 100;  // docs/DESIGN.md §6

void SetCharset(const DecodedBody& decoded, v1::FetchRecord* record) {
  record->set_charset(decoded.charset);
  record->set_invalid_bytes(decoded.invalid_bytes);
}

// XML (XHTML served as XML, a feed) names its encoding in its XML
// declaration, HTML in a <meta> (charset.h).
BodyKind BodyKindOf(std::string_view content_type) {
  std::string_view essence = content_type.substr(0, content_type.find(';'));
  while (!essence.empty() && (essence.back() == ' ' || essence.back() == '\t')) essence.remove_suffix(1);
  auto ends_with = [&](std::string_view tail) {
    if (essence.size() < tail.size()) return false;
    for (std::size_t i = 0; i < tail.size(); ++i) {
      char c = essence[essence.size() - tail.size() + i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != tail[i]) return false;
    }
    return true;
  };
  return ends_with("/xml") || ends_with("+xml") ? BodyKind::kXml : BodyKind::kHtml;
}

struct Candidate {
  std::string url;
  std::string_view anchor;
  const char* source;
  bool in_nav = false;
};

// Orders `candidates` by usefulness, prunes them as the crawl says
// (common/crawl/link_pruning_mode.h) and appends the survivors to `links`.
void AddLinks(const PageInput& page, const ProcessOptions& options, ProcessingContext& context,
              const std::string& host, std::vector<Candidate>& candidates,
              std::vector<v1::DiscoveredLink>* links) {
  std::vector<std::string_view> anchors;
  std::vector<bool> onsite;
  anchors.reserve(candidates.size());
  onsite.reserve(candidates.size());
  for (const Candidate& c : candidates) {
    anchors.push_back(c.anchor);
    // Only the offsite mode asks where a link goes.
    if (options.link_pruning == LinkPruning::kOffsite) onsite.push_back(url::HostOf(c.url) == host);
  }
  const auto ranked = LinkPruner::PruneRanked(context.pruner.Rank(anchors, candidates.size()), onsite,
                                              options.link_pruning, options.max_links_after_prune);
  links->reserve(links->size() + ranked.size());
  for (std::size_t rank = 0; rank < ranked.size(); ++rank) {
    Candidate& c = candidates[ranked[rank].index];
    v1::DiscoveredLink& l = links->emplace_back();
    l.set_likely_non_html(LikelyNonHtml(c.url, options.document_types_enabled));
    l.set_url(std::move(c.url));
    l.set_depth(page.link_depth);
    l.set_link_rank(static_cast<uint32_t>(rank));
    l.set_anchor_text(std::string(c.anchor));
    l.set_links_on_page(static_cast<uint32_t>(ranked.size()));
    l.set_source(c.source);
    l.set_in_nav(c.in_nav);
    l.set_effective_terms(static_cast<float>(ranked[rank].effective_terms));
  }
}

}  // namespace

void ProcessHtml(const PageInput& page, const ProcessOptions& options, ProcessingContext& context,
                 v1::FetchRecord* record, std::vector<v1::DiscoveredLink>* links,
                 HtmlDirectives* directives) {
  const DecodedBody decoded =
      DecodeBody(page.body, CharsetFromContentType(page.content_type), BodyKindOf(page.content_type));
  SetCharset(decoded, record);

  html::ExtractOptions extract;
  extract.max_links = options.max_links;
  extract.max_title_chars = kMaxTitleChars;
  extract.robots_meta_token = options.robots_meta_token;
  extract.collect_text = true;
  const html::PageLinks scanned = html::ExtractLinks(decoded.text(), extract);

  record->set_title(scanned.title);
  record->set_noindex(scanned.noindex);
  record->set_nofollow(scanned.nofollow);
  record->set_noarchive(scanned.noarchive);
  record->set_nosnippet(scanned.nosnippet);
  record->set_unavailable_after_unix_s(scanned.unavailable_after_unix_s);
  record->set_links_found(static_cast<uint32_t>(scanned.links.size()));

  TextInput text;
  text.title = scanned.title;
  text.body = scanned.text;
  text.declared_language = scanned.lang;
  const std::string host = url::HostOf(page.url);
  text.host = host;
  text.anchors.reserve(scanned.links.size());
  for (const html::Link& link : scanned.links) text.anchors.push_back(link.anchor_text);
  TextOptions text_options;
  text_options.max_description_chars = options.max_description_chars;
  text_options.max_index_positions = options.max_index_positions;
  AnalyzeText(text, text_options, context.stemmers, record);

  // Resolve against <base href> (itself resolved against the page URL).
  std::string base(page.url);
  if (!scanned.base_href.empty()) {
    auto resolved = url::Resolve(page.url, scanned.base_href);
    if (resolved.ok()) base = *resolved;
  }
  if (directives != nullptr) {
    directives->base = base;
    directives->canonical_href = scanned.canonical_href;
    directives->alternates = scanned.alternates;
    directives->refresh = scanned.refresh;
  }
  if (scanned.nofollow) return;  // robots meta: follow no link of this page

  auto resolver = url::Resolver::ForBase(base);
  if (!resolver.ok()) return;  // the page's own URL is not a URL: nothing to resolve against

  std::vector<Candidate> candidates;
  FlatStringMap<std::size_t> seen;  // target -> its candidate
  uint64_t too_long = 0;
  for (const html::Link& link : scanned.links) {
    if (link.nofollow) continue;
    auto target = resolver->Resolve(link.href);
    if (!target.ok()) continue;  // mailto:, javascript:, ftp:, malformed, ...
    if (url::UrlTooLong(*target)) {
      ++too_long;
      continue;
    }
    auto [index, inserted] = seen.Insert(*target, ShortStringHash(*target));
    if (!inserted) {
      // A duplicate adds nothing but may name the link when the first did not.
      Candidate& first = candidates[*index];
      if (first.anchor.empty()) first.anchor = link.anchor_text;
      continue;
    }
    *index = candidates.size();
    candidates.push_back({std::move(*target), link.anchor_text, link.tag.c_str(), link.in_nav});
  }

  if (too_long > 0) NoteUrlsTooLong("link", too_long);
  AddLinks(page, options, context, host, candidates, links);
}

void ProcessPlainText(const PageInput& page, const ProcessOptions& options, ProcessingContext& context,
                      v1::FetchRecord* record) {
  const DecodedBody decoded =
      DecodeBody(page.body, CharsetFromContentType(page.content_type), BodyKind::kText);
  SetCharset(decoded, record);

  // Paragraphs: blank lines break, single line breaks and runs of spaces
  // are one space (the same shape as html::PageLinks::text).
  std::string body;
  const std::string_view decoded_text = decoded.text();
  body.reserve(decoded_text.size());
  int pending = 0;  // 0 none, 1 space, 2 paragraph
  int newlines = 0;
  for (char c : decoded_text) {
    if (c == '\n') {
      if (++newlines >= 2)
        pending = 2;
      else if (pending == 0)
        pending = 1;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\0' || c == '\v') {
      if (pending == 0) pending = 1;
      continue;
    }
    if (pending != 0 && !body.empty()) body.push_back(pending == 2 ? '\n' : ' ');
    pending = 0;
    newlines = 0;
    body.push_back(c);
  }

  // Title: the first non-empty line, cut at a character boundary.
  std::string title;
  {
    const std::string_view first = std::string_view(body).substr(0, body.find('\n'));
    std::size_t chars = 0, end = 0;
    for (; end < first.size(); ++end) {
      if ((static_cast<unsigned char>(first[end]) & 0xC0) != 0x80 && ++chars > kMaxTitleChars) break;
    }
    title.assign(first.substr(0, end));
  }
  record->set_title(title);

  TextInput text;
  text.title = title;
  text.body = body;
  const std::string host = url::HostOf(page.url);
  text.host = host;
  TextOptions text_options;
  text_options.max_description_chars = options.max_description_chars;
  text_options.max_index_positions = options.max_index_positions;
  AnalyzeText(text, text_options, context.stemmers, record);
}

}  // namespace crawl::fetcher
