// RTF documents (Microsoft RTF 1.9.1): a bounded, single-pass reader of
// groups and control words. Text in the document's code page (\ansicpgN,
// \'hh escapes) through the WHATWG decoders (fetcher/page/charset.h), \uN
// with its \ucN fallback skipped; destinations that are not text skipped
// (\*, fonttbl, colortbl, stylesheet, pict, ...), \info's title, author,
// subject/doccomm and creation/revision times read; HYPERLINK fields
// become links with their result as anchor text. Groups nest at most
// kMaxDepth deep.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "common/text/utf8_append.h"
#include "fetcher/document/document_text.h"
#include "fetcher/document/format_readers.h"
#include "fetcher/page/charset.h"

namespace crawl::fetcher::document {
namespace {

using text::AppendUtf8;

constexpr size_t kMaxDepth = 256;
constexpr size_t kMaxField = 4096;

enum class Dest : uint8_t { kText, kSkip, kTitle, kAuthor, kSubject, kComment, kFldinst, kCreatim, kRevtim };

constexpr std::string_view kSkippedDestinations[] = {
    "fonttbl",   "colortbl",          "stylesheet", "pict",      "object",    "themedata",    "datastore",
    "listtable", "listoverridetable", "rsidtbl",    "generator", "xmlnstbl",  "latentstyles", "filetbl",
    "revtbl",    "pgdsctbl",          "header",     "footer",    "headerl",   "headerr",      "headerf",
    "footerl",   "footerr",           "footerf",    "footnote",  "bkmkstart", "bkmkend",      "info",
    "operator",  "keywords",          "company",    "manager",   "category",  "hlinkbase",    "nonshppict"};

struct GroupState {
  Dest dest = Dest::kText;
  int uc = 1;  // fallback characters after \uN
};

struct Time {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
};

struct ControlWordAt {
  std::string_view name;
  bool has_arg = false;
  int arg = 0;
  size_t next = 0;  // just past the word and its delimiting space
};

// The control word at rtf[at] == '\\' followed by a letter.
ControlWordAt ParseWord(std::string_view rtf, size_t at) {
  ControlWordAt word;
  size_t i = at + 1;
  while (i < rtf.size() && i - at <= 32 &&
         ((rtf[i] >= 'a' && rtf[i] <= 'z') || (rtf[i] >= 'A' && rtf[i] <= 'Z'))) {
    ++i;
  }
  word.name = rtf.substr(at + 1, i - at - 1);
  const bool negative = i < rtf.size() && rtf[i] == '-';
  if (negative) ++i;
  int64_t value = 0;
  size_t digits = 0;
  while (i < rtf.size() && rtf[i] >= '0' && rtf[i] <= '9' && digits < 10) {
    value = value * 10 + (rtf[i] - '0');
    ++i;
    ++digits;
  }
  word.has_arg = digits > 0;
  value = std::min<int64_t>(value, INT32_MAX);
  word.arg = static_cast<int>(negative ? -value : value);
  if (i < rtf.size() && rtf[i] == ' ') ++i;
  word.next = i;
  return word;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// The URL of a `HYPERLINK "url"` field instruction, or "".
std::string HyperlinkUrl(std::string_view code) {
  const size_t at = code.find("HYPERLINK");
  if (at == std::string_view::npos) return "";
  const size_t open = code.find('"', at);
  if (open == std::string_view::npos) return "";
  const size_t close = code.find('"', open + 1);
  return close == std::string_view::npos ? "" : std::string(code.substr(open + 1, close - open - 1));
}

// The encoding \ansicpgN names (windows-1252 when it names none the
// standard has).
Encoding CodePage(int cp) {
  std::string label = "windows-" + std::to_string(cp);
  if (cp == 932) label = "shift_jis";
  if (cp == 936) label = "gbk";
  if (cp == 949) label = "euc-kr";
  if (cp == 950) label = "big5";
  if (cp == 10000) label = "macintosh";
  if (cp == 20866) label = "koi8-r";
  if (cp >= 28591 && cp <= 28606) label = "iso-8859-" + std::to_string(cp - 28590);
  return EncodingForLabel(label).value_or(Encoding::kWindows1252);
}

class RtfReader {
 public:
  explicit RtfReader(const DocumentLimits& limits) : text_(limits) {}

  // Reads the whole document; an error when it is not RTF or nests too
  // deep.
  Status Read(std::string_view rtf);
  void MoveTo(v1::ParsedDocument* doc);

 private:
  size_t Control(std::string_view rtf, size_t at);
  size_t Word(const ControlWordAt& word, std::string_view rtf);
  bool SetDestination(std::string_view name);
  void Byte(char c);
  void CodePoint(uint32_t cp);
  void Emit(std::string_view utf8);
  void Flush();
  void EndGroup();
  size_t SkipFallback(std::string_view rtf, size_t at);
  void EndParagraph();
  std::string* FieldFor(Dest dest);

  DocumentText text_;
  Encoding cp_ = Encoding::kWindows1252;
  std::vector<GroupState> stack_{GroupState{}};
  bool star_ = false;  // \* seen: the next control word is an optional destination
  std::string bytes_;  // pending code-page bytes of the current destination
  uint32_t high_surrogate_ = 0;
  std::string title_, author_, subject_, comment_, fldinst_;
  Time created_, revised_;
  // The innermost HYPERLINK field: the depth of its \field group, its URL
  // and the text of its result so far.
  size_t field_depth_ = 0;
  std::string field_url_, field_anchor_;
};

std::string* RtfReader::FieldFor(Dest dest) {
  switch (dest) {
    case Dest::kTitle:
      return &title_;
    case Dest::kAuthor:
      return &author_;
    case Dest::kSubject:
      return &subject_;
    case Dest::kComment:
      return &comment_;
    case Dest::kFldinst:
      return &fldinst_;
    default:
      return nullptr;
  }
}

void RtfReader::Emit(std::string_view utf8) {
  const Dest dest = stack_.back().dest;
  if (dest == Dest::kText) {
    text_.Append(utf8);
    if (field_depth_ != 0 && field_anchor_.size() < kMaxField) field_anchor_.append(utf8);
  } else if (std::string* field = FieldFor(dest); field != nullptr && field->size() < kMaxField) {
    field->append(utf8);
  }
}

void RtfReader::Flush() {
  if (bytes_.empty()) return;
  uint32_t invalid = 0;
  const std::string utf8 = ToUtf8(bytes_, cp_, &invalid);
  bytes_.clear();
  Emit(utf8);
}

void RtfReader::Byte(char c) {
  const Dest dest = stack_.back().dest;
  if (dest == Dest::kSkip || dest == Dest::kCreatim || dest == Dest::kRevtim) return;
  bytes_.push_back(c);
  if (bytes_.size() >= 4096) Flush();
}

void RtfReader::CodePoint(uint32_t cp) {
  Flush();
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    high_surrogate_ = cp;
    return;
  }
  if (cp >= 0xDC00 && cp <= 0xDFFF) {
    cp = high_surrogate_ != 0 ? 0x10000 + ((high_surrogate_ - 0xD800) << 10) + (cp - 0xDC00) : 0xFFFD;
  } else if (high_surrogate_ != 0) {
    Emit("\xEF\xBF\xBD");
  }
  high_surrogate_ = 0;
  if (cp == 0) return;
  std::string utf8;
  AppendUtf8(cp, &utf8);
  Emit(utf8);
}

void RtfReader::EndParagraph() {
  Flush();
  if (stack_.back().dest == Dest::kText) {
    text_.EndParagraph();
  } else {
    Byte(' ');
  }
}

void RtfReader::EndGroup() {
  Flush();
  const Dest closing = stack_.back().dest;
  if (stack_.size() == field_depth_) {
    if (!field_url_.empty()) text_.AddLink(field_url_, field_anchor_);
    field_depth_ = 0;
    field_url_.clear();
  }
  stack_.pop_back();
  if (closing == Dest::kFldinst && (stack_.empty() || stack_.back().dest != Dest::kFldinst) &&
      field_depth_ != 0) {
    field_url_ = HyperlinkUrl(fldinst_);
    field_anchor_.clear();
  }
  star_ = false;
}

bool RtfReader::SetDestination(std::string_view name) {
  Dest dest;
  if (name == "title") {
    dest = Dest::kTitle;
  } else if (name == "author") {
    dest = Dest::kAuthor;
  } else if (name == "subject") {
    dest = Dest::kSubject;
  } else if (name == "doccomm") {
    dest = Dest::kComment;
  } else if (name == "creatim") {
    dest = Dest::kCreatim;
  } else if (name == "revtim") {
    dest = Dest::kRevtim;
  } else if (name == "fldinst") {
    dest = Dest::kFldinst;
    fldinst_.clear();
  } else if (std::find(std::begin(kSkippedDestinations), std::end(kSkippedDestinations), name) !=
             std::end(kSkippedDestinations)) {
    dest = Dest::kSkip;
  } else {
    return false;
  }
  Flush();
  // The first of each \info field counts (LibreOffice writes \author twice).
  const std::string* field = FieldFor(dest);
  stack_.back().dest = field != nullptr && dest != Dest::kFldinst && !field->empty() ? Dest::kSkip : dest;
  return true;
}

// One control word (the symbols are Control's); returns where reading goes
// on.
size_t RtfReader::Word(const ControlWordAt& word, std::string_view rtf) {
  const std::string_view w = word.name;
  if (star_) {
    star_ = false;
    if (!SetDestination(w)) {
      Flush();
      stack_.back().dest = Dest::kSkip;  // an optional destination this reader does not know
    }
    return word.next;
  }
  if (SetDestination(w)) return word.next;
  Time* time = stack_.back().dest == Dest::kCreatim  ? &created_
               : stack_.back().dest == Dest::kRevtim ? &revised_
                                                     : nullptr;
  if (time != nullptr) {
    if (w == "yr") time->year = word.arg;
    if (w == "mo") time->month = word.arg;
    if (w == "dy") time->day = word.arg;
    if (w == "hr") time->hour = word.arg;
    if (w == "min") time->minute = word.arg;
    if (w == "sec") time->second = word.arg;
  } else if (w == "ansicpg" && word.has_arg) {
    Flush();
    cp_ = CodePage(word.arg);
  } else if (w == "mac") {
    Flush();
    cp_ = Encoding::kMacintosh;
  } else if (w == "uc" && word.has_arg) {
    stack_.back().uc = std::clamp(word.arg, 0, 8);
  } else if (w == "u" && word.has_arg) {
    CodePoint(static_cast<uint32_t>(word.arg < 0 ? word.arg + 65536 : word.arg));
    return SkipFallback(rtf, word.next);
  } else if (w == "par" || w == "sect" || w == "page" || w == "row") {
    EndParagraph();
  } else if (w == "line" || w == "tab" || w == "cell") {
    Byte(' ');
  } else if (w == "field") {
    Flush();
    field_depth_ = stack_.size();
    field_url_.clear();
    field_anchor_.clear();
  } else if (w == "bin" && word.has_arg && word.arg > 0) {
    return std::min(rtf.size(), word.next + static_cast<size_t>(word.arg));
  } else {
    static constexpr std::pair<std::string_view, uint32_t> kChars[] = {
        {"emdash", 0x2014}, {"endash", 0x2013},    {"bullet", 0x2022},    {"lquote", 0x2018},
        {"rquote", 0x2019}, {"ldblquote", 0x201C}, {"rdblquote", 0x201D}, {"emspace", 0x20}};
    for (const auto& [name, cp] : kChars) {
      if (w == name) CodePoint(cp);
    }
  }
  return word.next;
}

// The control word or symbol at rtf[at] == '\\'; returns where reading
// goes on.
size_t RtfReader::Control(std::string_view rtf, size_t at) {
  if (at + 1 >= rtf.size()) return rtf.size();
  const char next = rtf[at + 1];
  if (IsLetter(next)) return Word(ParseWord(rtf, at), rtf);
  if (next == '\'') {
    if (at + 3 < rtf.size() && HexDigit(rtf[at + 2]) >= 0 && HexDigit(rtf[at + 3]) >= 0) {
      Byte(static_cast<char>(HexDigit(rtf[at + 2]) * 16 + HexDigit(rtf[at + 3])));
      return at + 4;
    }
    return at + 2;
  }
  if (next == '*') {
    star_ = true;
  } else if (next == '~') {
    Byte(' ');
  } else if (next == '_') {
    Byte('-');
  } else if (next == '\\' || next == '{' || next == '}') {
    Byte(next);
  } else if (next == '\n' || next == '\r') {
    EndParagraph();
  }
  return at + 2;
}

// Skips the `uc` fallback characters after a \uN: plain characters,
// \'hh escapes and control words each count one; a brace ends the skip.
size_t RtfReader::SkipFallback(std::string_view rtf, size_t at) {
  for (int left = stack_.back().uc; left > 0 && at < rtf.size();) {
    const char c = rtf[at];
    if (c == '{' || c == '}') break;
    if (c == '\r' || c == '\n') {
      ++at;
      continue;
    }
    if (c == '\\' && at + 1 < rtf.size()) {
      if (rtf[at + 1] == '\'') {
        at += 4;
      } else if (IsLetter(rtf[at + 1])) {
        at = ParseWord(rtf, at).next;
      } else {
        at += 2;
      }
    } else {
      ++at;
    }
    --left;
  }
  return std::min(at, rtf.size());
}

Status RtfReader::Read(std::string_view rtf) {
  if (!rtf.starts_with("{\\rtf")) return Status::InvalidArgument("not RTF: no {\\rtf header");
  size_t at = 0;
  while (at < rtf.size() && !text_.full()) {
    const char c = rtf[at];
    if (c == '{') {
      if (stack_.size() >= kMaxDepth) {
        return Status::InvalidArgument("rtf: groups nested deeper than " + std::to_string(kMaxDepth));
      }
      Flush();
      stack_.push_back(stack_.back());
      star_ = false;
      ++at;
    } else if (c == '}') {
      EndGroup();
      ++at;
      if (stack_.empty()) break;
    } else if (c == '\\') {
      at = Control(rtf, at);
    } else {
      if (c != '\r' && c != '\n') Byte(c);
      ++at;
    }
  }
  if (!stack_.empty()) Flush();
  return Status::Ok();
}

void RtfReader::MoveTo(v1::ParsedDocument* doc) {
  doc->set_title(CleanField(title_));
  doc->mutable_info()->set_author(CleanField(author_));
  doc->set_summary(CleanField(subject_.empty() ? comment_ : subject_));
  doc->mutable_info()->set_created_unix_s(UnixSeconds(created_.year, created_.month, created_.day,
                                                      created_.hour, created_.minute, created_.second));
  doc->mutable_info()->set_modified_unix_s(UnixSeconds(revised_.year, revised_.month, revised_.day,
                                                       revised_.hour, revised_.minute, revised_.second));
  text_.MoveTo(doc);
}

}  // namespace

Result<v1::ParsedDocument> ReadRtf(std::string_view body, const DocumentLimits& limits) {
  RtfReader reader(limits);
  if (Status read = reader.Read(body); !read.ok()) return read;
  v1::ParsedDocument doc;
  reader.MoveTo(&doc);
  return doc;
}

}  // namespace crawl::fetcher::document
