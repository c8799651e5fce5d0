// RSS and Atom feeds with expat (feed_parser.h).
#include "fetcher/page/feed_parser.h"

// Debian's libexpat is built with XML_DTD; the header declares the
// amplification guard only when the includer says so too.
#ifndef XML_DTD
#define XML_DTD
#endif
#include <expat.h>

#include <algorithm>
#include <memory>

#include "common/url/url.h"
#include "fetcher/page/html_links.h"

namespace crawl::fetcher {
namespace {

constexpr char kNsSep = '\x01';  // between namespace URI and local name in expat's names
constexpr std::string_view kAtomNs = "http://www.w3.org/2005/Atom";
constexpr std::string_view kRdfNs = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
constexpr std::string_view kRss1Ns = "http://purl.org/rss/1.0/";
constexpr std::string_view kDcNs = "http://purl.org/dc/elements/1.1/";
constexpr std::string_view kContentNs = "http://purl.org/rss/1.0/modules/content/";
constexpr std::string_view kXmlBase =
    "http://www.w3.org/XML/1998/namespace\x01"
    "base";
constexpr std::string_view kXmlLang = "http://www.w3.org/XML/1998/namespace\x01lang";
constexpr std::size_t kChunkBytes = 64 * 1024;
constexpr std::size_t kSniffBytes = 4096;

struct Name {
  std::string_view ns;     // "" when none
  std::string_view local;  // the element's local name
};

Name Split(const XML_Char* name) {
  const std::string_view s(name);
  const std::size_t sep = s.find(kNsSep);
  if (sep == std::string_view::npos) return {{}, s};
  return {s.substr(0, sep), s.substr(sep + 1)};
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// Runs of whitespace become one space; none at either end.
std::string Collapse(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (char c : s) {
    if (IsSpace(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

// HTML (an RSS description, Atom type="html") as text: tags dropped,
// character references decoded (html_links.h's scanner).
std::string HtmlToText(std::string_view html) {
  if (html.find_first_of("<&") == std::string_view::npos) return Collapse(html);
  html::ExtractOptions options;
  options.max_links = 0;
  options.collect_text = true;
  options.max_text_bytes = html.size();
  return Collapse(html::ExtractLinks(html, options).text);
}

// At most `max` bytes, cut at a character boundary.
void CutUtf8(std::string* s, std::size_t max) {
  if (s->size() <= max) return;
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>((*s)[end]) & 0xC0) == 0x80) --end;
  s->resize(end);
}

std::string_view Attr(const XML_Char** attrs, std::string_view name) {
  for (int i = 0; attrs[i] != nullptr; i += 2) {
    if (name == attrs[i]) return attrs[i + 1];
  }
  return {};
}

// What a captured element's text becomes.
enum class Field : uint8_t {
  kNone,
  kFeedTitle,
  kFeedDescription,
  kFeedLanguage,
  kFeedAuthor,
  kFeedDate,
  kItemTitle,
  kItemLink,
  kItemGuid,
  kItemSummary,
  kItemContent,  // used when the item has no summary
};

class FeedReader {
 public:
  FeedReader(std::string_view base_url, const FeedLimits& limits) : limits_(limits) {
    bases_.emplace_back(base_url);
  }

  Feed Run(std::string_view xml) {
    std::unique_ptr<XML_ParserStruct, decltype(&XML_ParserFree)> parser(XML_ParserCreateNS("UTF-8", kNsSep),
                                                                        &XML_ParserFree);
    if (!parser) {
      feed_.error = "out of memory";
      return std::move(feed_);
    }
    parser_ = parser.get();
    // Entity expansion bombs: expat stops once expansions outgrow the input
    // 100 times over, from the first MiB on. Nothing external is ever read
    // (no ExternalEntityRefHandler; parameter entities never parsed).
    XML_SetBillionLaughsAttackProtectionMaximumAmplification(parser_, 100.0f);
    XML_SetBillionLaughsAttackProtectionActivationThreshold(parser_, 1 << 20);
    XML_SetParamEntityParsing(parser_, XML_PARAM_ENTITY_PARSING_NEVER);
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &OnStart, &OnEnd);
    XML_SetCharacterDataHandler(parser_, &OnText);
    for (std::size_t i = 0; i <= xml.size() && !stopped_; i += kChunkBytes) {
      const std::string_view piece = xml.substr(std::min(i, xml.size()), kChunkBytes);
      const bool last = i + kChunkBytes >= xml.size();
      if (XML_Parse(parser_, piece.data(), static_cast<int>(piece.size()), last) == XML_STATUS_ERROR) {
        if (!stopped_) {
          feed_.error = std::string(XML_ErrorString(XML_GetErrorCode(parser_))) + " at line " +
                        std::to_string(XML_GetCurrentLineNumber(parser_));
        }
        break;
      }
      if (last) break;
    }
    FinishItem();
    if (auto date = ParseFeedDate(date_)) feed_.updated_unix_s = *date;
    return std::move(feed_);
  }

 private:
  static void OnStart(void* self, const XML_Char* name, const XML_Char** attrs) {
    static_cast<FeedReader*>(self)->Start(Split(name), attrs);
  }
  static void OnEnd(void* self, const XML_Char*) { static_cast<FeedReader*>(self)->End(); }
  static void OnText(void* self, const XML_Char* s, int len) {
    static_cast<FeedReader*>(self)->Text(std::string_view(s, static_cast<std::size_t>(len)));
  }

  void Stop(std::string why) {
    feed_.truncated = true;
    feed_.error = std::move(why);
    stopped_ = true;
    XML_StopParser(parser_, XML_FALSE);
  }

  void Start(Name name, const XML_Char** attrs) {
    if (stopped_) return;
    if (++depth_ > limits_.max_depth)
      return Stop("elements nested deeper than " + std::to_string(limits_.max_depth));
    PushBase(Attr(attrs, kXmlBase));
    stack_.push_back(std::string(name.local));
    if (depth_ == 1) return Root(name, attrs);
    if (capture_ != Field::kNone) {
      captured_.push_back(' ');  // element boundaries inside a field separate words
      return;
    }
    if (IsItem(name)) return StartItem();
    if (in_item_ > 0) {
      if (depth_ == in_item_ + 1) ItemChild(name, attrs);
      return;
    }
    ChannelChild(name, attrs);
  }

  void End() {
    if (stopped_) return;
    if (capture_ != Field::kNone && depth_ == capture_depth_) EndCapture();
    if (in_item_ > 0 && depth_ == in_item_) {
      FinishItem();
      in_item_ = 0;
    }
    if (base_pushed_.back()) bases_.pop_back();
    base_pushed_.pop_back();
    stack_.pop_back();
    --depth_;
  }

  void Text(std::string_view s) {
    if (capture_ == Field::kNone || stopped_) return;
    const std::size_t room = limits_.max_field_bytes - std::min(limits_.max_field_bytes, captured_.size());
    captured_.append(s.substr(0, room));
  }

  void PushBase(std::string_view xml_base) {
    const bool push = !xml_base.empty();
    base_pushed_.push_back(push);
    if (!push) return;
    auto resolved = url::Resolve(bases_.back(), xml_base);
    bases_.push_back(resolved.ok() ? *resolved : bases_.back());
  }

  void Root(Name name, const XML_Char** attrs) {
    if (name.local == "rss" && name.ns.empty()) {
      feed_.format = FeedFormat::kRss;
    } else if (name.local == "RDF" && name.ns == kRdfNs) {
      feed_.format = FeedFormat::kRdf;
    } else if (name.local == "feed" && name.ns == kAtomNs) {
      feed_.format = FeedFormat::kAtom;
    } else {
      return Stop("the root element is not rss, rdf:RDF or an Atom feed");
    }
    feed_.language = std::string(Attr(attrs, kXmlLang));
  }

  [[nodiscard]] bool IsRssName(Name name) const {
    return feed_.format == FeedFormat::kAtom ? name.ns == kAtomNs : (name.ns.empty() || name.ns == kRss1Ns);
  }
  [[nodiscard]] bool IsItem(Name name) const {
    return IsRssName(name) && name.local == (feed_.format == FeedFormat::kAtom ? "entry" : "item");
  }

  void StartItem() {
    FinishItem();
    if (feed_.items.size() >= limits_.max_items) {
      return Stop("more than " + std::to_string(limits_.max_items) + " items");
    }
    in_item_ = depth_;
    item_ = FeedItem();
    item_open_ = true;
    guid_.clear();
    content_.clear();
  }

  void FinishItem() {
    if (!item_open_) return;
    item_open_ = false;
    if (item_.link.empty()) item_.link = std::move(guid_);
    if (item_.summary.empty()) item_.summary = std::move(content_);
    feed_.items.push_back(std::move(item_));
  }

  void Capture(Field field, bool html) {
    capture_ = field;
    capture_depth_ = depth_;
    capture_html_ = html;
    captured_.clear();
  }

  // Atom text constructs say whether they are text, html or xhtml (RFC 4287 3.1).
  [[nodiscard]] bool HtmlText(const XML_Char** attrs) const {
    if (feed_.format != FeedFormat::kAtom) return true;  // RSS: entity-encoded HTML is allowed
    return Attr(attrs, "type") == "html";
  }

  void ItemChild(Name name, const XML_Char** attrs) {
    const std::string_view l = name.local;
    if (name.ns == kContentNs && l == "encoded") return Capture(Field::kItemContent, true);
    if (name.ns == kDcNs) return;
    if (!IsRssName(name)) return;
    if (l == "title") return Capture(Field::kItemTitle, HtmlText(attrs));
    if (feed_.format == FeedFormat::kAtom) {
      if (l == "link") return AtomLink(attrs);
      if (l == "summary") return Capture(Field::kItemSummary, HtmlText(attrs));
      if (l == "content" && Attr(attrs, "src").empty()) return Capture(Field::kItemContent, HtmlText(attrs));
      return;
    }
    if (l == "link") return Capture(Field::kItemLink, false);
    if (l == "description") return Capture(Field::kItemSummary, true);
    if (l == "guid" && Attr(attrs, "isPermaLink") != "false") return Capture(Field::kItemGuid, false);
  }

  // The entry's link: the first with rel="alternate", or no rel (RFC 4287 4.2.7.2).
  void AtomLink(const XML_Char** attrs) {
    const std::string_view rel = Attr(attrs, "rel");
    const std::string_view href = Attr(attrs, "href");
    if (!item_.link.empty() || href.empty() || !(rel.empty() || rel == "alternate")) return;
    item_.link = Resolved(href);
  }

  void ChannelChild(Name name, const XML_Char** attrs) {
    // RSS: children of <channel>; Atom: of <feed>.
    const std::size_t parent = depth_ - 1;
    const std::string_view parent_name = stack_[parent - 1];
    const bool atom = feed_.format == FeedFormat::kAtom;
    if (atom && parent == 2 && parent_name == "author" && name.local == "name" && name.ns == kAtomNs) {
      if (feed_.author.empty()) Capture(Field::kFeedAuthor, false);
      return;
    }
    if (atom ? parent != 1 : (parent != 2 || parent_name != "channel")) return;
    const std::string_view l = name.local;
    if (name.ns == kDcNs) {
      if (l == "language" && feed_.language.empty()) Capture(Field::kFeedLanguage, false);
      if (l == "creator" && feed_.author.empty()) Capture(Field::kFeedAuthor, false);
      if (l == "date" && date_.empty()) Capture(Field::kFeedDate, false);
      return;
    }
    if (!IsRssName(name)) return;
    if (l == "title") return Capture(Field::kFeedTitle, HtmlText(attrs));
    if (l == (atom ? "subtitle" : "description")) return Capture(Field::kFeedDescription, HtmlText(attrs));
    if (l == (atom ? "updated" : "lastBuildDate") || (!atom && l == "pubDate" && date_.empty()))
      return Capture(Field::kFeedDate, false);
    if (!atom && l == "language") return Capture(Field::kFeedLanguage, false);
    if (!atom && l == "managingEditor" && feed_.author.empty()) return Capture(Field::kFeedAuthor, false);
  }

  [[nodiscard]] std::string Resolved(std::string_view href) const {
    const std::string trimmed = Collapse(href);
    auto resolved = url::Resolve(bases_.back(), trimmed);
    return resolved.ok() ? *resolved : trimmed;
  }

  void EndCapture() {
    const Field field = capture_;
    capture_ = Field::kNone;
    std::string text = capture_html_ ? HtmlToText(captured_) : Collapse(captured_);
    switch (field) {
      case Field::kFeedTitle:
        feed_.title = std::move(text);
        break;
      case Field::kFeedDescription:
        feed_.description = std::move(text);
        break;
      case Field::kFeedLanguage:
        feed_.language = std::move(text);
        break;
      case Field::kFeedAuthor:
        feed_.author = std::move(text);
        break;
      case Field::kFeedDate:
        date_ = std::move(text);
        break;
      case Field::kItemTitle:
        item_.title = std::move(text);
        break;
      case Field::kItemLink:
        if (item_.link.empty() && !text.empty()) item_.link = Resolved(text);
        break;
      case Field::kItemGuid:
        guid_ = text.empty() ? std::string() : Resolved(text);
        break;
      case Field::kItemSummary:
        CutUtf8(&text, limits_.max_summary_bytes);
        item_.summary = std::move(text);
        break;
      case Field::kItemContent:
        CutUtf8(&text, limits_.max_summary_bytes);
        if (content_.empty()) content_ = std::move(text);
        break;
      case Field::kNone:
        break;
    }
  }

  const FeedLimits& limits_;
  XML_Parser parser_ = nullptr;
  Feed feed_;
  bool stopped_ = false;
  std::size_t depth_ = 0;
  std::vector<std::string> stack_;  // local names of the open elements
  std::vector<std::string> bases_;  // xml:base in force (the feed URL first)
  std::vector<bool> base_pushed_;   // per open element: it pushed a base
  std::size_t in_item_ = 0;         // depth of the open item/entry, 0: none
  bool item_open_ = false;
  FeedItem item_;
  std::string guid_;     // RSS permalink guid: the link when there is no <link>
  std::string content_;  // content:encoded / Atom content: the summary when there is none
  std::string date_;
  Field capture_ = Field::kNone;
  std::size_t capture_depth_ = 0;
  bool capture_html_ = false;
  std::string captured_;
};

// The first element's name in `head`, skipping the prolog (declaration,
// comments, processing instructions, doctype).
std::string_view RootName(std::string_view head) {
  std::size_t i = 0;
  while ((i = head.find('<', i)) != std::string_view::npos && i + 1 < head.size()) {
    const char next = head[i + 1];
    if (next == '?' || next == '!') {
      const std::size_t end = head.substr(i, 4) == "<!--" ? head.find("-->", i) : head.find('>', i);
      if (end == std::string_view::npos) return {};
      i = end + 1;
      continue;
    }
    std::size_t end = i + 1;
    while (end < head.size() && !IsSpace(head[end]) && head[end] != '>' && head[end] != '/') ++end;
    return head.substr(i + 1, end - i - 1);
  }
  return {};
}

}  // namespace

std::optional<FeedFormat> SniffFeedRoot(std::string_view xml) {
  const std::string_view root = RootName(xml.substr(0, kSniffBytes));
  const std::size_t colon = root.find(':');
  const std::string_view local = colon == std::string_view::npos ? root : root.substr(colon + 1);
  if (root == "rss") return FeedFormat::kRss;
  if (local == "RDF") return FeedFormat::kRdf;
  if (local == "feed") return FeedFormat::kAtom;
  return std::nullopt;
}

Feed ParseFeed(std::string_view utf8_xml, std::string_view base_url, const FeedLimits& limits) {
  FeedReader reader(base_url, limits);
  return reader.Run(utf8_xml);
}

}  // namespace crawl::fetcher
