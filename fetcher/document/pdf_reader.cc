// PDF documents (PDF 32000-1) through poppler's C++ API (poppler-cpp):
// each page's text in reading order (poppler's non-raw, non-physical
// layout), lines joined, blank lines ending paragraphs; the Info
// dictionary's Title, Author, Subject (Keywords when no Subject),
// CreationDate and ModDate; the page count. poppler-cpp exposes no link
// annotations, so the links are the URI actions (PDF 32000-1 12.6.4.7)
// written uncompressed in the file, then the http(s) URLs in the text.
// Documents that need a password are an error. poppler's own messages are
// silenced (set_debug_error_function).
#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>

#include <memory>
#include <mutex>
#include <string>

#include "fetcher/document/document_text.h"
#include "fetcher/document/format_readers.h"

namespace crawl::fetcher::document {
namespace {

void Quiet(const std::string&, void*) {}

std::string Utf8(const poppler::ustring& s) {
  const poppler::byte_array bytes = s.to_utf8();
  return std::string(bytes.begin(), bytes.end());
}

bool IsUrlChar(char c) {
  return static_cast<unsigned char>(c) > 0x20 && c != '"' && c != '<' && c != '>' && c != '{' && c != '}' &&
         c != '|' && c != '\\' && c != '^' && c != '`' && static_cast<unsigned char>(c) < 0x7F;
}

// The http(s) URLs written in `text`, trailing punctuation left off.
void AddTextLinks(std::string_view text, DocumentText* out) {
  size_t at = 0;
  while (true) {
    const size_t http = text.find("http", at);
    if (http == std::string_view::npos) return;
    size_t end = http;
    while (end < text.size() && IsUrlChar(text[end])) ++end;
    std::string_view url = text.substr(http, end - http);
    while (!url.empty() && std::string_view(".,;:!?)]'").find(url.back()) != std::string_view::npos) {
      url.remove_suffix(1);
    }
    const bool preceded_by_word = http > 0 && IsUrlChar(text[http - 1]) && text[http - 1] != '(';
    if (!preceded_by_word && (url.starts_with("http://") || url.starts_with("https://")) && url.size() > 8) {
      out->AddLink(url, "");
    }
    at = std::max(end, http + 4);
  }
}

// The PDF string (7.3.4) at s[at] ('(' literal or '<' hexadecimal), at
// most 4096 bytes; "" when there is none.
std::string PdfString(std::string_view s, size_t at) {
  std::string out;
  if (at < s.size() && s[at] == '<') {
    int high = -1;
    for (size_t i = at + 1; i < s.size() && s[i] != '>' && out.size() < 4096; ++i) {
      const char c = static_cast<char>(s[i] | 0x20);
      const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (v < 0) continue;
      if (high < 0) {
        high = v;
      } else {
        out.push_back(static_cast<char>(high * 16 + v));
        high = -1;
      }
    }
    return out;
  }
  if (at >= s.size() || s[at] != '(') return out;
  int depth = 1;
  for (size_t i = at + 1; i < s.size() && out.size() < 4096; ++i) {
    const char c = s[i];
    if (c == '\\' && i + 1 < s.size()) {
      out.push_back(s[++i]);
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) return out;
    out.push_back(c);
  }
  return out;
}

// The URIs of the URI actions written as plain objects in `body`.
void AddUriActions(std::string_view body, DocumentText* out) {
  size_t at = 0;
  while ((at = body.find("/URI", at)) != std::string_view::npos) {
    at += 4;
    size_t value = at;
    while (value < body.size() && (body[value] == ' ' || body[value] == '\r' || body[value] == '\n')) ++value;
    const std::string uri = PdfString(body, value);
    if (!uri.empty() && uri.find_first_of(" \r\n\t") == std::string::npos) out->AddLink(uri, "");
  }
}

// One page's text: lines joined by spaces, a blank line ends a paragraph.
void AppendPage(std::string_view page, DocumentText* out) {
  size_t at = 0;
  while (at <= page.size() && !out->full()) {
    size_t end = page.find('\n', at);
    if (end == std::string_view::npos) end = page.size();
    std::string_view line = page.substr(at, end - at);
    if (line.find_first_not_of(" \t\r\f") == std::string_view::npos) {
      out->EndParagraph();
    } else {
      out->Append(line);
      out->Append(" ");
    }
    at = end + 1;
  }
  out->EndParagraph();
}

int64_t InfoDate(const poppler::document& pdf, const std::string& key) {
  const int64_t parsed = ParsePdfDate(Utf8(pdf.info_key(key)));
  if (parsed != 0) return parsed;
  const time_t t = pdf.info_date_t(key);
  return t > 0 ? static_cast<int64_t>(t) : 0;
}

void ReadInfo(const poppler::document& pdf, v1::ParsedDocument* doc) {
  doc->set_title(CleanField(Utf8(pdf.info_key("Title"))));
  doc->mutable_info()->set_author(CleanField(Utf8(pdf.info_key("Author"))));
  std::string summary = CleanField(Utf8(pdf.info_key("Subject")));
  doc->set_summary(summary.empty() ? CleanField(Utf8(pdf.info_key("Keywords"))) : std::move(summary));
  doc->mutable_info()->set_created_unix_s(InfoDate(pdf, "CreationDate"));
  doc->mutable_info()->set_modified_unix_s(InfoDate(pdf, "ModDate"));
  doc->set_declared_language("");
}

}  // namespace

Result<v1::ParsedDocument> ReadPdf(std::string_view body, const DocumentLimits& limits) {
  static std::once_flag quiet;
  std::call_once(quiet, [] { poppler::set_debug_error_function(Quiet, nullptr); });
  if (body.size() > static_cast<size_t>(INT32_MAX)) return Status::InvalidArgument("pdf: over 2 GB");
  if (body.find("%PDF-") == std::string_view::npos)
    return Status::InvalidArgument("not a PDF: no %PDF- header");
  std::unique_ptr<poppler::document> pdf(
      poppler::document::load_from_raw_data(body.data(), static_cast<int>(body.size())));
  if (pdf == nullptr) return Status::InvalidArgument("pdf: poppler cannot open the document");
  if (pdf->is_locked()) return Status::InvalidArgument("pdf: encrypted, needs a password");
  v1::ParsedDocument doc;
  ReadInfo(*pdf, &doc);
  const int pages = std::max(pdf->pages(), 0);
  doc.mutable_info()->set_parts(static_cast<uint32_t>(pages));
  DocumentText text(limits);
  AddUriActions(body, &text);
  for (int i = 0; i < pages && !text.full(); ++i) {
    std::unique_ptr<poppler::page> page(pdf->create_page(i));
    if (page == nullptr) continue;
    const std::string utf8 = Utf8(page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout));
    AppendPage(utf8, &text);
    AddTextLinks(utf8, &text);
  }
  text.MoveTo(&doc);
  return doc;
}

}  // namespace crawl::fetcher::document
