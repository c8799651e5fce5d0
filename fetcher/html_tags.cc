// What a tag or attribute value means for links, text and language (see
// html_tags.h).
#include "fetcher/html_tags.h"

#include <initializer_list>

namespace crawl::html::internal {

// Elements whose content is not markup (WHATWG 13.2.5.2-13.2.5.3).
std::optional<TextKind> SpecialContent(const Name& tag) {
  // By length, as IsInlineTag: every tag of a page comes here.
  const std::string_view v = tag.view();
  switch (v.size()) {
    case 3: if (v == "xmp") return TextKind::kRawText; break;
    case 5:
      if (v == "style") return TextKind::kRawText;
      if (v == "title") return TextKind::kEscapable;
      break;
    case 6: if (v == "script" || v == "iframe") return TextKind::kRawText; break;
    case 7: if (v == "noembed") return TextKind::kRawText; break;
    case 8:
      if (v == "noframes") return TextKind::kRawText;
      if (v == "textarea") return TextKind::kEscapable;
      break;
    default: break;
  }
  return std::nullopt;
}

// Tags that do not separate words in collected text; every other tag does.
bool IsInlineTag(const Name& tag) {
  // a abbr b bdi bdo big cite code data dfn em font i kbd mark q s samp small
  // span strike strong sub sup time tt u var wbr, by length: every tag of a
  // page comes here, and a scan of the list cost 2-3% of a page's processing.
  const std::string_view v = tag.view();
  const auto any = [v](std::initializer_list<std::string_view> names) {
    for (std::string_view n : names) {
      if (v == n) return true;
    }
    return false;
  };
  switch (v.size()) {
    case 1: return v[0] == 'a' || v[0] == 'b' || v[0] == 'i' || v[0] == 'q' || v[0] == 's' || v[0] == 'u';
    case 2: return v == "em" || v == "tt";
    case 3: return any({"bdi", "bdo", "big", "dfn", "kbd", "sub", "sup", "var", "wbr"});
    case 4: return any({"abbr", "cite", "code", "data", "font", "mark", "samp", "span", "time"});
    case 5: return v == "small";
    case 6: return v == "strike" || v == "strong";
    default: return false;
  }
}

bool IsHeading(const Name& tag) {
  const std::string_view v = tag.view();
  return v.size() == 2 && v[0] == 'h' && v[1] >= '1' && v[1] <= '6';
}

// Link schemes that are not pages to fetch. Browsers drop tabs and newlines
// anywhere in a URL, so "java\nscript:" is still javascript.
bool IsSkippedScheme(std::string_view href) {
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
