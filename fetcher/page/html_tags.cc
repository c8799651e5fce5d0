// What a tag or attribute value means for links, text and language (see
// html_tags.h).
#include "fetcher/page/html_tags.h"

namespace crawl::html::internal {

namespace {
constexpr uint64_t P(std::string_view name) { return Name::Pack(name); }
}  // namespace

// One switch for everything the scanner asks about a tag's name: every
// start and end tag of a page comes here (one call a tag, not one per
// question).
uint8_t ClassifyTag(const Name& tag) {
  switch (tag.packed()) {
    case P("a"):
      return kInlineTag | kActedOnTag;
    case P("abbr"):
    case P("b"):
    case P("bdi"):
    case P("bdo"):
    case P("big"):
    case P("cite"):
    case P("code"):
    case P("data"):
    case P("dfn"):
    case P("em"):
    case P("font"):
    case P("i"):
    case P("kbd"):
    case P("mark"):
    case P("q"):
    case P("s"):
    case P("samp"):
    case P("small"):
    case P("span"):
    case P("strike"):
    case P("strong"):
    case P("sub"):
    case P("sup"):
    case P("time"):
    case P("tt"):
    case P("u"):
    case P("var"):
    case P("wbr"):
      return kInlineTag;
    case P("xmp"):
    case P("style"):
    case P("script"):
    case P("noembed"):
    case P("noframes"):
      return kRawTextTag;
    case P("iframe"):
      return kRawTextTag | kActedOnTag;
    case P("title"):
    case P("textarea"):
      return kEscapableTextTag;
    case P("h1"):
    case P("h2"):
    case P("h3"):
    case P("h4"):
    case P("h5"):
    case P("h6"):
      return kHeadingTag;
    case P("area"):
    case P("img"):
    case P("frame"):
    case P("base"):
    case P("link"):
    case P("meta"):
    case P("head"):
    case P("body"):
    case P("html"):
    case P("nav"):
      return kActedOnTag;
    case 0:
      return tag == "plaintext" ? kActedOnTag : 0;  // past 8 bytes, not packed
    default:
      return 0;
  }
}

// Elements whose content is not markup (WHATWG 13.2.5.2-13.2.5.3).
std::optional<TextKind> SpecialContent(const Name& tag) {
  const uint8_t traits = ClassifyTag(tag);
  if (traits & kRawTextTag) return TextKind::kRawText;
  if (traits & kEscapableTextTag) return TextKind::kEscapable;
  return std::nullopt;
}

// Tags that do not separate words in collected text; every other tag does.
bool IsInlineTag(const Name& tag) { return (ClassifyTag(tag) & kInlineTag) != 0; }

bool IsHeading(const Name& tag) { return (ClassifyTag(tag) & kHeadingTag) != 0; }

// Link schemes that are not pages to fetch. Browsers drop tabs and newlines
// anywhere in a URL, so "java\nscript:" is still javascript.
bool IsSkippedScheme(std::string_view href) {
  // Each skipped scheme is letters and a ':', so a link whose first byte
  // other than a letter (tabs and newlines aside) is not a ':' has none of
  // them: most links, paths like "../struct.Foo.html", end here.
  std::size_t i = 0;
  while (i < href.size() && (IsAsciiAlpha(href[i]) || href[i] == '\t' || href[i] == '\n' || href[i] == '\r'))
    ++i;
  if (i == href.size() || href[i] != ':') return false;
  char prefix[12];
  std::size_t n = 0;
  for (std::size_t i = 0; i < href.size() && n < sizeof prefix; ++i) {
    const char c = href[i];
    if (c == '\t' || c == '\n' || c == '\r') continue;
    prefix[n++] = Lower(c);
  }
  const std::string_view p(prefix, n);
  if (p.find(':') == std::string_view::npos) return false;  // most links: a path, no scheme
  static constexpr std::string_view kSkipped[] = {"javascript:", "vbscript:", "mailto:", "data:", "tel:"};
  for (std::string_view scheme : kSkipped) {
    if (p.starts_with(scheme)) return true;
  }
  return false;
}

bool HasToken(std::string_view list, std::string_view token) {
  std::size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && (IsHtmlSpace(list[i]) || list[i] == ',')) ++i;
    std::size_t j = i;
    while (j < list.size() && !IsHtmlSpace(list[j]) && list[j] != ',') ++j;
    if (j > i && EqualsIgnoreCase(list.substr(i, j - i), token)) return true;
    i = j;
  }
  return false;
}

// "en-US" -> "en"; "" unless the primary subtag is 2-8 ASCII letters.
std::string PrimaryLanguage(std::string_view tag) {
  tag = TrimHtmlSpace(tag);
  const std::size_t end = tag.find_first_of("-_,; ");
  if (end != npos) tag = tag.substr(0, end);
  if (tag.size() < 2 || tag.size() > 8) return {};
  std::string out;
  for (char c : tag) {
    if (!IsAsciiAlpha(c)) return {};
    out.push_back(Lower(c));
  }
  return out;
}

}  // namespace crawl::html::internal
