// Link and metadata extraction from HTML: a one-pass tag scanner after the
// WHATWG HTML tokenizer (section 13.2.5). See html_links.h for what it
// handles and what it leaves out.
#include "fetcher/html_links.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>

namespace crawl::html {
namespace {

constexpr auto npos = std::string_view::npos;
constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";  // U+FFFD

// HTML "ASCII whitespace" (tab, LF, FF, CR, space).
bool IsHtmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }
bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAsciiAlnum(char c) { return IsAsciiAlpha(c) || IsAsciiDigit(c); }
char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

std::string_view TrimHtmlSpace(std::string_view s) {
  while (!s.empty() && IsHtmlSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsHtmlSpace(s.back())) s.remove_suffix(1);
  return s;
}

// ------------------------------------------------------------ entities --

// Appends the UTF-8 form of `cp` (REQUIRES: a scalar value) to buf; returns
// the number of bytes.
std::size_t EncodeUtf8(uint32_t cp, char* buf) {
  if (cp < 0x80) {
    buf[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    buf[0] = static_cast<char>(0xC0 | (cp >> 6));
    buf[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    buf[0] = static_cast<char>(0xE0 | (cp >> 12));
    buf[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  buf[0] = static_cast<char>(0xF0 | (cp >> 18));
  buf[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
  buf[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  buf[3] = static_cast<char>(0x80 | (cp & 0x3F));
  return 4;
}

// WHATWG HTML 13.2.5.80 (numeric character reference end state).
uint32_t NumericReferenceCodePoint(uint32_t v) {
  // 0x80-0x9F are read as Windows-1252, as browsers do.
  static constexpr std::array<uint16_t, 32> kC1 = {
      0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
      0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
      0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
  if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0xFFFD;
  if (v >= 0x80 && v <= 0x9F) return kC1[v - 0x80];
  return v;
}

// Latin-1 entity names in code point order, U+00A0 to U+00FF. These are
// also the "legacy" names the standard decodes without a ";".
constexpr std::array<std::string_view, 96> kLatin1Names = {
    "nbsp",   "iexcl",  "cent",   "pound",  "curren", "yen",    "brvbar", "sect",   "uml",    "copy",
    "ordf",   "laquo",  "not",    "shy",    "reg",    "macr",   "deg",    "plusmn", "sup2",   "sup3",
    "acute",  "micro",  "para",   "middot", "cedil",  "sup1",   "ordm",   "raquo",  "frac14", "frac12",
    "frac34", "iquest", "Agrave", "Aacute", "Acirc",  "Atilde", "Auml",   "Aring",  "AElig",  "Ccedil",
    "Egrave", "Eacute", "Ecirc",  "Euml",   "Igrave", "Iacute", "Icirc",  "Iuml",   "ETH",    "Ntilde",
    "Ograve", "Oacute", "Ocirc",  "Otilde", "Ouml",   "times",  "Oslash", "Ugrave", "Uacute", "Ucirc",
    "Uuml",   "Yacute", "THORN",  "szlig",  "agrave", "aacute", "acirc",  "atilde", "auml",   "aring",
    "aelig",  "ccedil", "egrave", "eacute", "ecirc",  "euml",   "igrave", "iacute", "icirc",  "iuml",
    "eth",    "ntilde", "ograve", "oacute", "ocirc",  "otilde", "ouml",   "divide", "oslash", "ugrave",
    "uacute", "ucirc",  "uuml",   "yacute", "thorn",  "yuml"};

struct NamedEntity {
  std::string_view name;
  uint32_t cp;
  bool legacy;  // decoded without ";" too
};

// Besides Latin-1: the XML five, upper-case legacy aliases, and the
// typographic references common in titles and anchor text.
constexpr NamedEntity kOtherEntities[] = {
    {"amp", '&', true},        {"lt", '<', true},         {"gt", '>', true},
    {"quot", '"', true},       {"apos", '\'', false},     {"AMP", '&', true},
    {"LT", '<', true},         {"GT", '>', true},         {"QUOT", '"', true},
    {"COPY", 0xA9, true},      {"REG", 0xAE, true},       {"mdash", 0x2014, false},
    {"ndash", 0x2013, false},  {"hellip", 0x2026, false}, {"lsquo", 0x2018, false},
    {"rsquo", 0x2019, false},  {"sbquo", 0x201A, false},  {"ldquo", 0x201C, false},
    {"rdquo", 0x201D, false},  {"bdquo", 0x201E, false},  {"bull", 0x2022, false},
    {"trade", 0x2122, false},  {"euro", 0x20AC, false},   {"ensp", 0x2002, false},
    {"emsp", 0x2003, false},   {"thinsp", 0x2009, false}, {"zwnj", 0x200C, false},
    {"zwj", 0x200D, false},    {"lrm", 0x200E, false},    {"rlm", 0x200F, false},
    {"dagger", 0x2020, false}, {"Dagger", 0x2021, false}, {"permil", 0x2030, false},
    {"lsaquo", 0x2039, false}, {"rsaquo", 0x203A, false}, {"prime", 0x2032, false},
    {"larr", 0x2190, false},   {"rarr", 0x2192, false},   {"uarr", 0x2191, false},
    {"darr", 0x2193, false},   {"hearts", 0x2665, false}, {"star", 0x2606, false},
};

std::optional<NamedEntity> FindEntity(std::string_view name) {
  for (const NamedEntity& e : kOtherEntities) {
    if (e.name == name) return e;
  }
  for (std::size_t i = 0; i < kLatin1Names.size(); ++i) {
    if (kLatin1Names[i] == name) return NamedEntity{kLatin1Names[i], static_cast<uint32_t>(0xA0 + i), true};
  }
  return std::nullopt;
}

// The longest legacy name that `run` starts with.
std::optional<NamedEntity> FindLegacyPrefix(std::string_view run) {
  std::optional<NamedEntity> best;
  auto consider = [&](std::string_view name, uint32_t cp) {
    if (run.starts_with(name) && (!best || name.size() > best->name.size()))
      best = NamedEntity{name, cp, true};
  };
  for (const NamedEntity& e : kOtherEntities) {
    if (e.legacy) consider(e.name, e.cp);
  }
  for (std::size_t i = 0; i < kLatin1Names.size(); ++i)
    consider(kLatin1Names[i], static_cast<uint32_t>(0xA0 + i));
  return best;
}

// Decodes the character reference at in[amp] == '&'. Returns the number of
// input bytes it covers (0: not a reference, the '&' is literal) and sets
// *out to its UTF-8 text (in `buf`, 4 bytes or more).
std::size_t DecodeReference(std::string_view in, std::size_t amp, bool in_attribute, char* buf,
                            std::string_view* out) {
  std::size_t p = amp + 1;
  if (p >= in.size()) return 0;
  if (in[p] == '#') {
    std::size_t q = p + 1;
    const bool hex = q < in.size() && (in[q] == 'x' || in[q] == 'X');
    if (hex) ++q;
    const std::size_t digits = q;
    uint32_t value = 0;
    for (; q < in.size(); ++q) {
      const char c = in[q];
      uint32_t d;
      if (IsAsciiDigit(c)) {
        d = static_cast<uint32_t>(c - '0');
      } else if (hex && Lower(c) >= 'a' && Lower(c) <= 'f') {
        d = static_cast<uint32_t>(Lower(c) - 'a' + 10);
      } else {
        break;
      }
      // Saturate: anything past U+10FFFF is replaced anyway.
      value = value > 0x10FFFF ? value : value * (hex ? 16 : 10) + d;
    }
    if (q == digits) return 0;  // "&#" or "&#x" without digits
    if (q < in.size() && in[q] == ';') ++q;
    *out = std::string_view(buf, EncodeUtf8(NumericReferenceCodePoint(value), buf));
    return q - amp;
  }
  std::size_t q = p;
  while (q < in.size() && q - p < 32 && IsAsciiAlnum(in[q])) ++q;
  if (q == p) return 0;
  const std::string_view run = in.substr(p, q - p);
  if (q < in.size() && in[q] == ';') {
    if (const auto e = FindEntity(run)) {
      *out = std::string_view(buf, EncodeUtf8(e->cp, buf));
      return q + 1 - amp;
    }
  }
  const auto legacy = FindLegacyPrefix(run);
  if (!legacy) return 0;
  const std::size_t end = p + legacy->name.size();
  // In attribute values "&copy=" and "&copyx" stay literal (URL queries).
  if (in_attribute && end < in.size() && (in[end] == '=' || IsAsciiAlnum(in[end]))) return 0;
  *out = std::string_view(buf, EncodeUtf8(legacy->cp, buf));
  return end - amp;
}

// Passes the decoded form of `in` to sink(std::string_view) piece by piece;
// stops early when the sink returns false. NUL becomes U+FFFD in attribute
// values and is dropped from text (as the HTML tree builder does).
template <typename Sink>
void DecodeEntities(std::string_view in, bool in_attribute, Sink&& sink) {
  char buf[8];
  std::size_t i = 0;
  while (i < in.size()) {
    // Two memchr scans beat find_first_of's per-byte set test.
    const void* amp = std::memchr(in.data() + i, '&', in.size() - i);
    const std::size_t amp_at = amp == nullptr ? npos : static_cast<const char*>(amp) - in.data();
    const void* nul = std::memchr(in.data() + i, '\0', (amp_at == npos ? in.size() : amp_at) - i);
    const std::size_t special = nul != nullptr ? static_cast<const char*>(nul) - in.data() : amp_at;
    const std::size_t end = special == npos ? in.size() : special;
    if (end > i && !sink(in.substr(i, end - i))) return;
    if (special == npos) return;
    if (in[special] == '\0') {
      if (in_attribute && !sink(kReplacementChar)) return;
      i = special + 1;
      continue;
    }
    std::string_view text;
    const std::size_t used = DecodeReference(in, special, in_attribute, buf, &text);
    if (used == 0) {
      if (!sink("&")) return;
      i = special + 1;
    } else {
      if (!sink(text)) return;
      i = special + used;
    }
  }
}

// --------------------------------------------------------------- text --

// Builds whitespace-collapsed text of at most max_chars code points, cut at
// a UTF-8 character boundary. U+00A0 counts as whitespace.
class TextCollector {
 public:
  explicit TextCollector(std::size_t max_chars) : max_chars_(max_chars) {}

  // Appends decoded text to `out`; false once the limit is reached.
  bool Append(std::string_view text, std::string& out) {
    for (std::size_t i = 0; i < text.size() && !full_; ++i) {
      const auto b = static_cast<unsigned char>(text[i]);
      if (IsHtmlSpace(static_cast<char>(b))) {
        pending_space_ = true;
        continue;
      }
      if (b == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xA0) {
        pending_space_ = true;
        ++i;
        continue;
      }
      if (b == 0) continue;
      if ((b & 0xC0) != 0x80) {  // the first byte of a character
        const std::size_t need = (pending_space_ && !out.empty()) ? 2 : 1;
        if (chars_ + need > max_chars_) {
          full_ = true;
          break;
        }
        if (need == 2) out.push_back(' ');
        chars_ += need;
        pending_space_ = false;
      }
      out.push_back(static_cast<char>(b));
    }
    return !full_;
  }
  // A word boundary (a block tag, an image between words).
  void Break() { pending_space_ = true; }
  [[nodiscard]] bool full() const { return full_; }

 private:
  std::size_t max_chars_;
  std::size_t chars_ = 0;
  bool pending_space_ = false;
  bool full_ = false;
};

// --------------------------------------------------------------- tags --

// A lower-cased tag or attribute name; names longer than the buffer are
// none we care about and compare unequal to everything.
class Name {
 public:
  explicit Name(std::string_view raw) {
    if (raw.size() > buf_.size()) return;
    len_ = raw.size();
    for (std::size_t i = 0; i < len_; ++i) buf_[i] = Lower(raw[i]);
  }
  bool operator==(std::string_view s) const {
    return len_ != kTooLong && std::string_view(buf_.data(), len_) == s;
  }
  [[nodiscard]] std::string_view view() const {
    return len_ == kTooLong ? std::string_view() : std::string_view(buf_.data(), len_);
  }

 private:
  static constexpr std::size_t kTooLong = static_cast<std::size_t>(-1);
  std::array<char, 12> buf_{};
  std::size_t len_ = kTooLong;
};

enum Attr { kHref, kSrc, kAlt, kRel, kName, kContent, kLang, kXmlLang, kHttpEquiv, kAttrCount };

constexpr std::array<std::string_view, kAttrCount> kAttrNames = {
    "href", "src", "alt", "rel", "name", "content", "lang", "xml:lang", "http-equiv"};

// The raw (undecoded) values of the attributes we read; the first of
// duplicates wins (WHATWG 13.2.5.33).
struct Attributes {
  std::array<std::string_view, kAttrCount> value{};
  std::array<bool, kAttrCount> present{};

  void Set(std::string_view raw_name, std::string_view v) {
    const Name name(raw_name);
    for (std::size_t i = 0; i < kAttrCount; ++i) {
      if (name == kAttrNames[i]) {
        if (!present[i]) {
          present[i] = true;
          value[i] = v;
        }
        return;
      }
    }
  }
  [[nodiscard]] bool has(Attr a) const { return present[a]; }
  [[nodiscard]] std::string_view get(Attr a) const { return value[a]; }
};

enum class TextKind { kRawText, kEscapable };

// Elements whose content is not markup (WHATWG 13.2.5.2-13.2.5.3).
std::optional<TextKind> SpecialContent(const Name& tag) {
  for (std::string_view raw : {"script", "style", "xmp", "iframe", "noembed", "noframes"}) {
    if (tag == raw) return TextKind::kRawText;
  }
  if (tag == "title" || tag == "textarea") return TextKind::kEscapable;
  return std::nullopt;
}

// Tags that do not separate words in collected text; every other tag does.
bool IsInlineTag(const Name& tag) {
  static constexpr std::string_view kInline[] = {
      "a",      "abbr",   "b",   "bdi", "bdo",  "big", "cite", "code", "data",  "dfn",
      "em",     "font",   "i",   "kbd", "mark", "q",   "s",    "samp", "small", "span",
      "strike", "strong", "sub", "sup", "time", "tt",  "u",    "var",  "wbr"};
  for (std::string_view t : kInline) {
    if (tag == t) return true;
  }
  return false;
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
  for (std::string_view scheme : {"javascript:", "vbscript:", "mailto:", "data:", "tel:"}) {
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
      const std::size_t lt = s_.find('<', pos_);
      if (lt == npos) {
        Text(s_.substr(pos_));
        break;
      }
      if (lt > pos_) Text(s_.substr(pos_, lt - pos_));
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
      while (p < n && (IsHtmlSpace(s_[p]) || s_[p] == '/')) ++p;
      if (p >= n) return false;
      if (s_[p] == '>') {
        ++p;
        return true;
      }
      const std::size_t name_start = p++;  // a leading '=' belongs to the name
      while (p < n && !IsHtmlSpace(s_[p]) && s_[p] != '/' && s_[p] != '>' && s_[p] != '=') ++p;
      const std::string_view name = s_.substr(name_start, p - name_start);
      while (p < n && IsHtmlSpace(s_[p])) ++p;
      std::string_view value;
      if (p < n && s_[p] == '=') {
        ++p;
        while (p < n && IsHtmlSpace(s_[p])) ++p;
        if (p >= n) return false;
        if (s_[p] == '"' || s_[p] == '\'') {
          const std::size_t close = s_.find(s_[p], p + 1);
          if (close == npos) return false;
          value = s_.substr(p + 1, close - p - 1);
          p = close + 1;
        } else {
          const std::size_t start = p;
          while (p < n && !IsHtmlSpace(s_[p]) && s_[p] != '>') ++p;
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
    while (p < n && !IsHtmlSpace(s_[p]) && s_[p] != '/' && s_[p] != '>') ++p;
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
    if (!IsInlineTag(tag)) BreakText();
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
    } else if (tag == "meta") {
      Meta(attrs);
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
      return;
    }
    if (const auto kind = SpecialContent(tag)) SpecialText(tag, *kind);
  }

  void EndTag(const Name& tag) {
    if (!IsInlineTag(tag)) BreakText();
    if (tag == "a") {
      anchor_index_ = -1;
    } else if (IsHeading(tag)) {
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
        std::string content;
        DecodeEntities(attrs.get(kContent), true, [&](std::string_view piece) {
          content.append(piece);
          return true;
        });
        if (HasToken(content, "none")) page_.noindex = page_.nofollow = true;
        if (HasToken(content, "noindex")) page_.noindex = true;
        if (HasToken(content, "nofollow")) page_.nofollow = true;
        if (HasToken(content, "noarchive") || HasToken(content, "nocache")) page_.noarchive = true;
        if (HasToken(content, "nosnippet")) page_.nosnippet = true;
      }
    }
    if (meta_lang_.empty() && attrs.has(kHttpEquiv) && attrs.has(kContent) &&
        EqualsIgnoreCase(TrimHtmlSpace(attrs.get(kHttpEquiv)), "content-language")) {
      meta_lang_ = PrimaryLanguage(attrs.get(kContent));
    }
  }

  // The decoded value of a URL attribute, without surrounding whitespace
  // (the URL parser strips it too); "" if longer than max_href_bytes.
  std::string DecodeUrl(std::string_view raw) const {
    raw = TrimHtmlSpace(raw);
    std::string out;
    bool too_long = false;
    DecodeEntities(raw, true, [&](std::string_view piece) {
      out.append(piece);
      too_long = out.size() > opt_.max_href_bytes + 64;  // stop decoding early
      return !too_long;
    });
    if (too_long) return {};
    std::size_t b = 0;
    std::size_t e = out.size();
    while (b < e && static_cast<unsigned char>(out[b]) <= 0x20) ++b;
    while (e > b && static_cast<unsigned char>(out[e - 1]) <= 0x20) --e;
    return out.substr(b, e - b);
  }

  // Returns the index of the new link, or -1 if it is skipped.
  int AddLink(const char* tag, std::string_view raw_href, std::string_view rel) {
    std::string href = DecodeUrl(raw_href);
    if (href.empty() || href.size() > opt_.max_href_bytes || IsSkippedScheme(href)) return -1;
    if (page_.links.size() >= opt_.max_links) {
      page_.links_truncated = true;
      return -1;
    }
    Link& link = page_.links.emplace_back();
    link.href = std::move(href);
    link.tag = tag;
    link.nofollow = HasToken(rel, "nofollow");
    return static_cast<int>(page_.links.size() - 1);
  }

  void SetAltText(int index, std::string_view raw_alt) {
    TextCollector alt(opt_.max_anchor_chars);
    std::string& text = page_.links[index].anchor_text;
    DecodeEntities(raw_alt, true, [&](std::string_view piece) { return alt.Append(piece, text); });
  }

  void Text(std::string_view raw) {
    if (opt_.collect_text && !page_.text_truncated) {
      DecodeEntities(raw, false, [&](std::string_view piece) { return AppendBodyText(piece); });
    }
    if (anchor_index_ >= 0 && !anchor_.full()) {
      std::string& text = page_.links[anchor_index_].anchor_text;
      DecodeEntities(raw, false, [&](std::string_view piece) { return anchor_.Append(piece, text); });
    }
    if (heading_open_ && !heading_.full()) {
      DecodeEntities(raw, false,
                     [&](std::string_view piece) { return heading_.Append(piece, heading_text_); });
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
      // A run of ordinary bytes.
      std::size_t j = i + 1;
      while (j < n) {
        const auto c = static_cast<unsigned char>(piece[j]);
        if (IsHtmlSpace(static_cast<char>(c)) || c == 0xC2 || c == 0) break;
        ++j;
      }
      if (text_pending_ != 0 && !out.empty()) out.push_back(text_pending_ == 2 ? '\n' : ' ');
      text_pending_ = 0;
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
  TextCollector anchor_;
  bool heading_open_ = false;
  bool heading_done_ = false;  // a non-empty heading was found
  TextCollector heading_;
  std::string heading_text_;
  bool title_seen_ = false;
  TextCollector title_;
  std::string title_text_;
  bool base_seen_ = false;
  bool html_seen_ = false;
  std::string html_lang_;
  std::string meta_lang_;
  int text_pending_ = 0;  // separator owed before the next text: 0 none, 1 space, 2 line break
};

}  // namespace

void AppendDecodedEntities(std::string_view in, bool in_attribute, std::string& out) {
  DecodeEntities(in, in_attribute, [&](std::string_view piece) {
    out.append(piece);
    return true;
  });
}

PageLinks ExtractLinks(std::string_view html, const ExtractOptions& options) {
  return Scanner(html, options).Run();
}

}  // namespace crawl::html
