// Link and metadata extraction from HTML: a one-pass tag scanner after the
// WHATWG HTML tokenizer (section 13.2.5). See html_links.h for what it
// handles and what it leaves out.
#include "fetcher/page/html_links.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "fetcher/page/html_chars.h"
#include "fetcher/page/html_entities.h"
#include "fetcher/page/html_tags.h"
#include "fetcher/page/html_text_collector.h"

namespace crawl::html {
namespace {

using namespace internal;

// Bytes that end a run of body text (AppendBodyText): HTML spaces, NUL and
// 0xC2, the lead byte of U+00A0 (no-break space, also a word break).
constexpr std::array<bool, 256> kTextSpecial = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = IsHtmlSpace(static_cast<char>(c)) || c == 0 || c == 0xC2;
  return t;
}();

// Where a run of body text that reaches `j` ends, 16 bytes at a time: the
// first k >= j whose byte is special and is not a space before an ordinary
// byte, or where fewer than 17 bytes are left (the caller goes on byte by
// byte from there).
inline std::size_t RunEnd16(const unsigned char* p, std::size_t j, std::size_t n) {
#if defined(__SSE2__)
  auto special = [](__m128i v) {
    __m128i m = _mm_cmpeq_epi8(v, _mm_set1_epi8(' '));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\f')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_setzero_si128()));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(0xC2))));
    return static_cast<uint32_t>(_mm_movemask_epi8(m));
  };
  while (j + 17 <= n) {
    const __m128i here = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + j));
    const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + j + 1));
    const auto spaces = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(here, _mm_set1_epi8(' '))));
    const uint32_t stop = special(here) & (~spaces | special(next)) & 0xFFFFu;
    if (stop != 0) return j + static_cast<std::size_t>(std::countr_zero(stop));
    j += 16;
  }
#endif
  (void)p;
  (void)n;
  return j;
}

// The first '<', '&' or NUL at or after `from` (s.size() when there is
// none): where a piece of text that needs no decoding ends. 16 bytes at a
// time.
inline std::size_t NextTextStop(std::string_view s, std::size_t from) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = from;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i m = _mm_cmpeq_epi8(v, _mm_set1_epi8('<'));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('&')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_setzero_si128()));
    const auto stop = static_cast<uint32_t>(_mm_movemask_epi8(m));
    if (stop != 0) return i + static_cast<std::size_t>(std::countr_zero(stop));
  }
#endif
  for (; i < n; ++i) {
    if (p[i] == '<' || p[i] == '&' || p[i] == 0) return i;
  }
  return n;
}

// The first `q` at or after `from` in `s` (npos if none): where a quoted
// value ends. Most values are short, so 16 bytes are looked at here before
// a memchr call (whose cost would be most of the search).
inline std::size_t FindQuote(std::string_view s, char q, std::size_t from) {
#if defined(__SSE2__)
  if (from + 16 <= s.size()) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + from));
    const auto m = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(q))));
    if (m != 0) return from + static_cast<std::size_t>(std::countr_zero(m));
    from += 16;
  }
#endif
  return s.find(q, from);
}

// ------------------------------------------------------------- scanner --

class Scanner {
 public:
  Scanner(std::string_view html, const ExtractOptions& options)
      : s_(html),
        opt_(options),
        anchor_(options.max_anchor_chars),
        heading_(options.max_title_chars),
        title_(options.max_title_chars) {}

  PageLinks Run() && {
    while (pos_ < s_.size()) {
      // Text up to the next tag with no character reference and no NUL in
      // it goes to its sinks as it is: most of a page's pieces of text are
      // short, and looking for '<', then for '&' and NUL in each, would be
      // three memchr calls a piece.
      const std::size_t stop = NextTextStop(s_, pos_);
      const bool plain = stop == s_.size() || s_[stop] == '<';
      const std::size_t lt = plain ? stop : s_.find('<', stop);
      if (lt == npos || lt == s_.size()) {
        Text(s_.substr(pos_), plain);
        break;
      }
      if (lt > pos_) Text(s_.substr(pos_, lt - pos_), plain);
      pos_ = lt;
      Markup();
    }
    return Finish();
  }

 private:
  // At s_[pos_] == '<': consumes a tag, comment, or a literal '<'.
  void Markup() {
    const std::size_t n = s_.size();
    const char c = pos_ + 1 < n ? s_[pos_ + 1] : '\0';
    if (pos_ + 1 < n && IsAsciiAlpha(c)) {
      Tag(/*end=*/false);
    } else if (c == '/' && pos_ + 2 < n) {
      const char d = s_[pos_ + 2];
      if (IsAsciiAlpha(d)) {
        Tag(/*end=*/true);
      } else if (d == '>') {
        pos_ += 3;  // "</>" is dropped
      } else {
        SkipPast('>', pos_ + 2);  // bogus comment
      }
    } else if (c == '!') {
      if (s_.substr(pos_, 4) == "<!--") {
        Comment();
      } else {
        SkipPast('>', pos_ + 2);  // <!DOCTYPE>, <![CDATA[...]> in HTML: bogus comment
      }
    } else if (c == '?') {
      SkipPast('>', pos_ + 1);
    } else {
      Text(s_.substr(pos_, 1));
      ++pos_;
    }
  }

  void SkipPast(char c, std::size_t from) {
    const std::size_t at = s_.find(c, from);
    pos_ = at == npos ? s_.size() : at + 1;
  }

  // WHATWG 13.2.5.43-13.2.5.52: "<!-->" and "<!--->" end at once; otherwise
  // "-->" or "--!>" ends the comment, and EOF does if neither comes.
  void Comment() {
    std::size_t p = pos_ + 4;
    if (s_.substr(p, 1) == ">") {
      pos_ = p + 1;
      return;
    }
    if (s_.substr(p, 2) == "->") {
      pos_ = p + 2;
      return;
    }
    while ((p = s_.find("--", p)) != npos) {
      if (s_.substr(p + 2, 1) == ">") {
        pos_ = p + 3;
        return;
      }
      if (s_.substr(p + 2, 2) == "!>") {
        pos_ = p + 4;
        return;
      }
      ++p;
    }
    pos_ = s_.size();
  }

  // Reads attributes from `p` up to and past the closing '>'. Returns false
  // at end of input inside the tag (the tag is then dropped, as in browsers).
  bool ReadAttributes(std::size_t& p, Attributes& attrs) const {
    const std::size_t n = s_.size();
    while (true) {
      while (p < n && InByteClass(s_[p], kSpaceByte | kSlashByte)) ++p;
      if (p >= n) return false;
      if (s_[p] == '>') {
        ++p;
        return true;
      }
      const std::size_t name_start = p++;  // a leading '=' belongs to the name
      while (p < n && !InByteClass(s_[p], kSpaceByte | kSlashByte | kGtByte | kEqualsByte)) ++p;
      const std::string_view name = s_.substr(name_start, p - name_start);
      while (p < n && IsHtmlSpace(s_[p])) ++p;
      std::string_view value;
      if (p < n && s_[p] == '=') {
        ++p;
        while (p < n && IsHtmlSpace(s_[p])) ++p;
        if (p >= n) return false;
        if (s_[p] == '"' || s_[p] == '\'') {
          const std::size_t close = FindQuote(s_, s_[p], p + 1);
          if (close == npos) return false;
          value = s_.substr(p + 1, close - p - 1);
          p = close + 1;
        } else {
          const std::size_t start = p;
          while (p < n && !InByteClass(s_[p], kSpaceByte | kGtByte)) ++p;
          value = s_.substr(start, p - start);
        }
      }
      attrs.Set(name, value);
    }
  }

  void Tag(bool end) {
    const std::size_t n = s_.size();
    std::size_t p = pos_ + (end ? 2 : 1);
    const std::size_t name_start = p;
    while (p < n && !InByteClass(s_[p], kSpaceByte | kSlashByte | kGtByte)) ++p;
    const Name name(s_.substr(name_start, p - name_start));
    Attributes attrs;
    if (!ReadAttributes(p, attrs)) {
      pos_ = n;
      return;
    }
    pos_ = p;
    if (end) {
      EndTag(name);
    } else {
      StartTag(name, attrs);
    }
  }

  void StartTag(const Name& tag, const Attributes& attrs) {
    const uint8_t traits = ClassifyTag(tag);
    if (!(traits & kInlineTag)) BreakText();
    // Most tags (span, div, li, code) are none the scanner acts on.
    if (traits & (kActedOnTag | kHeadingTag)) ActOnStartTag(tag, attrs);
    if (traits & kRawTextTag) {
      SpecialText(tag, TextKind::kRawText);
    } else if (traits & kEscapableTextTag) {
      SpecialText(tag, TextKind::kEscapable);
    }
  }

  // A start tag that makes a link, names the page's base, language or
  // robots rules, opens a heading or a <nav>, or ends markup (plaintext).
  // Out of line: what every other tag runs stays small.
  [[gnu::noinline]] void ActOnStartTag(const Name& tag, const Attributes& attrs) {
    if (tag == "nav") ++nav_depth_;
    if (tag == "a") {
      anchor_index_ = -1;  // a new <a> closes an open one
      if (attrs.has(kHref)) {
        const int index = AddLink("a", attrs.get(kHref), attrs.get(kRel));
        if (index >= 0) {
          anchor_index_ = index;
          anchor_ = TextCollector(opt_.max_anchor_chars);
        }
      }
    } else if (tag == "area") {
      if (attrs.has(kHref)) {
        const int index = AddLink("area", attrs.get(kHref), attrs.get(kRel));
        if (index >= 0) SetAltText(index, attrs.get(kAlt));
      }
    } else if (tag == "img") {
      if (attrs.has(kSrc)) {
        const int index = AddLink("img", attrs.get(kSrc), {});
        if (index >= 0) SetAltText(index, attrs.get(kAlt));
      }
      // An image inside a link names the link too.
      if (attrs.has(kAlt) && anchor_index_ >= 0 && !anchor_.full()) {
        std::string& text = page_.links[anchor_index_].anchor_text;
        anchor_.Break();
        DecodeEntities(attrs.get(kAlt), true,
                       [&](std::string_view piece) { return anchor_.Append(piece, text); });
        anchor_.Break();
      }
    } else if (tag == "frame" || tag == "iframe") {
      if (attrs.has(kSrc)) AddLink(tag == "frame" ? "frame" : "iframe", attrs.get(kSrc), {});
    } else if (tag == "base") {
      if (!base_seen_ && attrs.has(kHref)) {
        base_seen_ = true;
        page_.base_href = DecodeUrl(attrs.get(kHref));
      }
    } else if (tag == "link") {
      // A feed the page announces (<link rel="alternate"
      // type="application/rss+xml" href>): often the only way to it.
      if (attrs.has(kHref) && HasToken(attrs.get(kRel), "alternate") && IsFeedType(attrs.get(kType)))
        AddLink("link", attrs.get(kHref), {});
      if (!head_done_) HeadLink(attrs);
    } else if (tag == "meta") {
      Meta(attrs);
    } else if (tag == "body") {
      head_done_ = true;
    } else if (tag == "html") {
      if (!html_seen_) {
        html_seen_ = true;
        if (attrs.has(kLang)) {
          html_lang_ = PrimaryLanguage(attrs.get(kLang));
        } else if (attrs.has(kXmlLang)) {
          html_lang_ = PrimaryLanguage(attrs.get(kXmlLang));
        }
      }
    } else if (IsHeading(tag)) {
      EndHeading();
      if (!heading_done_) {
        heading_open_ = true;
        heading_ = TextCollector(opt_.max_title_chars);
        heading_text_.clear();
      }
    } else if (tag == "plaintext") {
      pos_ = s_.size();  // the rest of the input is text
    }
  }

  void EndTag(const Name& tag) {
    const uint8_t traits = ClassifyTag(tag);
    if (!(traits & kInlineTag)) BreakText();
    if (!(traits & (kActedOnTag | kHeadingTag))) return;
    if (tag == "nav" && nav_depth_ > 0) --nav_depth_;
    if (tag == "head") head_done_ = true;
    if (tag == "a") {
      anchor_index_ = -1;
    } else if (traits & kHeadingTag) {
      EndHeading();
    }
  }

  // After the start tag of a raw text or escapable raw text element: skips
  // to its end tag (which the main loop then reads), or to EOF.
  void SpecialText(const Name& tag, TextKind kind) {
    const std::string_view name = tag.view();
    const std::size_t n = s_.size();
    std::size_t end = npos;
    for (std::size_t p = s_.find("</", pos_); p != npos; p = s_.find("</", p + 2)) {
      const std::size_t after = p + 2 + name.size();
      if (after < n && EqualsIgnoreCase(s_.substr(p + 2, name.size()), name) &&
          (IsHtmlSpace(s_[after]) || s_[after] == '/' || s_[after] == '>')) {
        end = p;
        break;
      }
    }
    if (end == npos) end = n;
    if (kind == TextKind::kEscapable && tag == "title" && !title_seen_) {
      title_seen_ = true;
      DecodeEntities(s_.substr(pos_, end - pos_), false,
                     [&](std::string_view piece) { return title_.Append(piece, title_text_); });
    }
    pos_ = end;
  }

  void Meta(const Attributes& attrs) {
    if (attrs.has(kName) && attrs.has(kContent)) {
      const std::string_view name = TrimHtmlSpace(attrs.get(kName));
      if (EqualsIgnoreCase(name, "robots") ||
          (!opt_.robots_meta_token.empty() && EqualsIgnoreCase(name, opt_.robots_meta_token))) {
        page_.Merge(fetcher::ParseRobotsMeta(Decoded(attrs.get(kContent))));
      }
    }
    if (!refresh_seen_ && attrs.has(kHttpEquiv) && attrs.has(kContent) &&
        EqualsIgnoreCase(TrimHtmlSpace(attrs.get(kHttpEquiv)), "refresh")) {
      refresh_seen_ = true;
      page_.refresh = Decoded(attrs.get(kContent));
    }
    if (meta_lang_.empty() && attrs.has(kHttpEquiv) && attrs.has(kContent) &&
        EqualsIgnoreCase(TrimHtmlSpace(attrs.get(kHttpEquiv)), "content-language")) {
      meta_lang_ = PrimaryLanguage(attrs.get(kContent));
    }
  }

  std::string Decoded(std::string_view raw) const {
    std::string out;
    DecodeEntities(raw, true, [&](std::string_view piece) {
      out.append(piece);
      return true;
    });
    return out;
  }

  // <link rel=canonical> and <link rel=alternate hreflang> in the head.
  void HeadLink(const Attributes& attrs) {
    if (!attrs.has(kHref) || !attrs.has(kRel)) return;
    const std::string rel = Decoded(attrs.get(kRel));
    if (!canonical_seen_ && HasToken(rel, "canonical")) {
      canonical_seen_ = true;
      page_.canonical_href = DecodeUrl(attrs.get(kHref));
    } else if (attrs.has(kHreflang) && HasToken(rel, "alternate") &&
               page_.alternates.size() < opt_.max_alternates) {
      std::string lang(TrimHtmlSpace(Decoded(attrs.get(kHreflang))));
      for (char& c : lang) c = Lower(c);
      std::string href = DecodeUrl(attrs.get(kHref));
      if (!lang.empty() && !href.empty()) page_.alternates.emplace_back(std::move(lang), std::move(href));
    }
  }

  // The decoded value of a URL attribute, without surrounding whitespace
  // (the URL parser strips it too); "" if longer than max_href_bytes.
  std::string DecodeUrl(std::string_view raw) const {
    raw = TrimHtmlSpace(raw);
    std::string out;
    out.reserve(std::min(raw.size(), opt_.max_href_bytes + 64));
    bool too_long = false;
    DecodeEntities(raw, true, [&](std::string_view piece) {
      out.append(piece);
      too_long = out.size() > opt_.max_href_bytes + 64;  // stop decoding early
      return !too_long;
    });
    if (too_long) return {};
    // C0 controls and spaces trimmed in place (a copy per link was a
    // tenth of adding one).
    std::size_t e = out.size();
    while (e > 0 && static_cast<unsigned char>(out[e - 1]) <= 0x20) --e;
    out.resize(e);
    std::size_t b = 0;
    while (b < e && static_cast<unsigned char>(out[b]) <= 0x20) ++b;
    if (b > 0) out.erase(0, b);
    return out;
  }

  // Returns the index of the new link, or -1 if it is skipped.
  static bool IsFeedType(std::string_view type) {
    type = TrimHtmlSpace(type);
    return EqualsIgnoreCase(type, "application/rss+xml") || EqualsIgnoreCase(type, "application/atom+xml");
  }

  int AddLink(const char* tag, std::string_view raw_href, std::string_view rel) {
    std::string href = DecodeUrl(raw_href);
    if (href.empty() || href.size() > opt_.max_href_bytes || IsSkippedScheme(href)) return -1;
    if (page_.links.size() >= opt_.max_links) {
      page_.links_truncated = true;
      return -1;
    }
    head_done_ = true;  // links are body content
    Link& link = page_.links.emplace_back();
    link.href = std::move(href);
    link.tag = tag;
    link.nofollow = HasToken(rel, "nofollow");
    link.in_nav = nav_depth_ > 0;
    return static_cast<int>(page_.links.size() - 1);
  }

  void SetAltText(int index, std::string_view raw_alt) {
    TextCollector alt(opt_.max_anchor_chars);
    std::string& text = page_.links[index].anchor_text;
    DecodeEntities(raw_alt, true, [&](std::string_view piece) { return alt.Append(piece, text); });
  }

  // `plain`: raw holds no '&' and no NUL, so decoding would not change it.
  void Text(std::string_view raw, bool plain = false) {
    auto decoded = [&](auto&& sink) {
      if (plain) {
        sink(raw);
      } else {
        DecodeEntities(raw, false, sink);
      }
    };
    if (!head_done_) head_done_ = raw.find_first_not_of(" \t\n\r\f") != std::string_view::npos;
    if (opt_.collect_text && !page_.text_truncated) {
      decoded([&](std::string_view piece) { return AppendBodyText(piece); });
    }
    if (anchor_index_ >= 0 && !anchor_.full()) {
      std::string& text = page_.links[anchor_index_].anchor_text;
      decoded([&](std::string_view piece) { return anchor_.Append(piece, text); });
    }
    if (heading_open_ && !heading_.full()) {
      decoded([&](std::string_view piece) { return heading_.Append(piece, heading_text_); });
    }
  }

  void BreakText() {
    anchor_.Break();
    heading_.Break();
    text_pending_ = 2;
  }

  // Appends decoded text to page_.text, collapsing whitespace; false once
  // max_text_bytes is reached.
  bool AppendBodyText(std::string_view piece) {
    std::string& out = page_.text;
    const std::size_t n = piece.size();
    std::size_t i = 0;
    while (i < n) {
      const auto b = static_cast<unsigned char>(piece[i]);
      if (IsHtmlSpace(static_cast<char>(b))) {
        if (text_pending_ == 0) text_pending_ = 1;
        ++i;
        continue;
      }
      if (b == 0xC2 && i + 1 < n && static_cast<unsigned char>(piece[i + 1]) == 0xA0) {
        if (text_pending_ == 0) text_pending_ = 1;
        i += 2;
        continue;
      }
      if (b == 0) {
        ++i;
        continue;
      }
      // A run of ordinary bytes, through single spaces between words (a
      // single space collapses to itself), so that a sentence is appended
      // at once rather than word by word. One test per byte, no branch but
      // the run's end: a special byte ends it unless it is a space before
      // an ordinary byte.
      const auto* p = reinterpret_cast<const unsigned char*>(piece.data());
      std::size_t j = RunEnd16(p, i + 1, n);
      while (j + 1 < n) {
        const unsigned char c = p[j];
        const unsigned special = kTextSpecial[c], next_special = kTextSpecial[p[j + 1]];
        if (special & (static_cast<unsigned>(c != ' ') | next_special)) break;
        ++j;
      }
      if (j == n - 1 && !kTextSpecial[p[j]]) j = n;
      if (text_pending_ != 0 && !out.empty()) out.push_back(text_pending_ == 2 ? '\n' : ' ');
      text_pending_ = 0;
      // Near the text limit, word by word as always: the cut falls where it
      // did, after the run's first word (every space in the run is a single
      // one between words).
      if (out.size() + (j - i) > opt_.max_text_bytes) {
        if (const void* space = std::memchr(p + i + 1, ' ', j - i - 1))
          j = static_cast<const unsigned char*>(space) - p;
      }
      std::size_t len = j - i;
      if (out.size() + len > opt_.max_text_bytes) {
        len = opt_.max_text_bytes > out.size() ? opt_.max_text_bytes - out.size() : 0;
        // Back off to a character boundary.
        while (len > 0 && (static_cast<unsigned char>(piece[i + len]) & 0xC0) == 0x80) --len;
        out.append(piece.substr(i, len));
        page_.text_truncated = true;
        return false;
      }
      out.append(piece.substr(i, len));
      i = j;
    }
    return true;
  }

  void EndHeading() {
    if (!heading_open_) return;
    heading_open_ = false;
    if (!heading_text_.empty()) heading_done_ = true;
  }

  PageLinks Finish() {
    EndHeading();
    if (!title_text_.empty()) {
      page_.title = std::move(title_text_);
    } else if (heading_done_) {
      page_.title = std::move(heading_text_);
    }
    page_.lang = !html_lang_.empty() ? std::move(html_lang_) : std::move(meta_lang_);
    if (page_.nofollow) {
      for (Link& link : page_.links) link.nofollow = true;
    }
    return std::move(page_);
  }

  std::string_view s_;
  const ExtractOptions& opt_;
  std::size_t pos_ = 0;
  PageLinks page_;

  int anchor_index_ = -1;  // the open <a>'s link, if it was kept
  int nav_depth_ = 0;      // open <nav> elements
  TextCollector anchor_;
  bool heading_open_ = false;
  bool heading_done_ = false;  // a non-empty heading was found
  TextCollector heading_;
  std::string heading_text_;
  bool title_seen_ = false;
  TextCollector title_;
  std::string title_text_;
  bool base_seen_ = false;
  bool head_done_ = false;  // past the head: <body>, </head>, text or a link
  bool canonical_seen_ = false;
  bool refresh_seen_ = false;
  bool html_seen_ = false;
  std::string html_lang_;
  std::string meta_lang_;
  int text_pending_ = 0;  // separator owed before the next text: 0 none, 1 space, 2 line break
};

}  // namespace

PageLinks ExtractLinks(std::string_view html, const ExtractOptions& options) {
  return Scanner(html, options).Run();
}

}  // namespace crawl::html
