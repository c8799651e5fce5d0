// OpenDocument text, spreadsheets and presentations (OASIS OpenDocument
// 1.3 Part 3): content.xml's paragraphs and headings (text:p, text:h;
// text:s, text:tab and text:line-break as spaces), table rows as one
// paragraph each, links (text:a xlink:href), tables (sheets) and draw:page
// (slides) counted as parts; meta.xml's Dublin Core and meta: fields.
#include <string>

#include "fetcher/document/document_text.h"
#include "fetcher/document/format_readers.h"
#include "fetcher/document/xml_events.h"
#include "fetcher/document/xml_fields.h"
#include "fetcher/document/zip_container.h"

namespace crawl::fetcher::document {
namespace {

constexpr std::string_view kTextNs = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";
constexpr std::string_view kTableNs = "urn:oasis:names:tc:opendocument:xmlns:table:1.0";
constexpr std::string_view kDrawNs = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0";
constexpr std::string_view kXlinkNs = "http://www.w3.org/1999/xlink";

class OdfText : public XmlHandler {
 public:
  explicit OdfText(DocumentText* text) : text_(text) {}

  void Start(const XmlName& name, const XmlAttributes& attrs) override {
    if (name.uri == kTextNs) {
      StartText(name.local, attrs);
    } else if (name.Is(kTableNs, "table")) {
      ++tables_;
      text_->Append(attrs.Get(kTableNs, "name"));
      text_->EndParagraph();
    } else if (name.Is(kTableNs, "table-cell")) {
      ++in_cell_;
    } else if (name.Is(kDrawNs, "page")) {
      ++pages_;
    }
  }

  void End(const XmlName& name) override {
    if (name.uri == kTextNs) {
      EndText(name.local);
    } else if (name.Is(kTableNs, "table-cell")) {
      --in_cell_;
      text_->Append(" ");
    } else if (name.Is(kTableNs, "table-row") || name.Is(kDrawNs, "page") || name.Is(kDrawNs, "frame")) {
      text_->EndParagraph();
    }
  }

  void Text(std::string_view text) override {
    if (in_paragraph_ == 0 || in_deleted_ > 0) return;
    text_->Append(text);
    if (in_link_ && anchor_.size() < 1024) anchor_.append(text);
  }

  [[nodiscard]] bool WantsMore() const override { return !text_->full(); }
  [[nodiscard]] uint32_t tables() const { return tables_; }
  [[nodiscard]] uint32_t pages() const { return pages_; }

 private:
  void StartText(std::string_view l, const XmlAttributes& attrs) {
    if (l == "p" || l == "h") {
      ++in_paragraph_;
    } else if (l == "s" || l == "tab" || l == "line-break") {
      text_->Append(" ");
    } else if (l == "a") {
      in_link_ = true;
      link_ = std::string(attrs.Get(kXlinkNs, "href"));
      anchor_.clear();
    } else if (l == "tracked-changes" || l == "note-citation") {
      ++in_deleted_;
    }
  }

  void EndText(std::string_view l) {
    if (l == "p" || l == "h") {
      --in_paragraph_;
      if (in_cell_ > 0) {
        text_->Append(" ");
      } else {
        text_->EndParagraph();
      }
    } else if (l == "a" && in_link_) {
      in_link_ = false;
      if (!link_.empty() && link_[0] != '#') text_->AddLink(link_, anchor_);
    } else if (l == "tracked-changes" || l == "note-citation") {
      --in_deleted_;
    }
  }

  DocumentText* text_;
  int in_paragraph_ = 0;
  int in_cell_ = 0;
  int in_deleted_ = 0;
  bool in_link_ = false;
  std::string link_;
  std::string anchor_;
  uint32_t tables_ = 0;
  uint32_t pages_ = 0;
};

void ReadMeta(ZipContainer& zip, v1::ParsedDocument* doc) {
  if (!zip.Has("meta.xml")) return;
  auto xml = zip.Read("meta.xml");
  if (!xml.ok()) return;
  XmlFields fields(
      {"title", "initial-creator", "creator", "creation-date", "date", "language", "description", "subject"},
      {});
  if (!ParseXml(*xml, fields).ok()) return;
  doc->set_title(CleanField(fields.text("title")));
  std::string author = CleanField(fields.text("initial-creator"));
  doc->mutable_info()->set_author(author.empty() ? CleanField(fields.text("creator")) : std::move(author));
  std::string summary = CleanField(fields.text("description"));
  doc->set_summary(summary.empty() ? CleanField(fields.text("subject")) : std::move(summary));
  doc->set_declared_language(CleanField(fields.text("language"), 64));
  doc->mutable_info()->set_created_unix_s(ParseIsoDate(fields.text("creation-date")));
  doc->mutable_info()->set_modified_unix_s(ParseIsoDate(fields.text("date")));
}

}  // namespace

Result<v1::ParsedDocument> ReadOdf(std::string_view body, const DocumentLimits& limits) {
  auto zip = ZipContainer::Open(body, limits);
  if (!zip.ok()) return zip.status();
  if (!(*zip)->Has("content.xml"))
    return Status::InvalidArgument("not an OpenDocument package: no content.xml");
  v1::ParsedDocument doc;
  auto content = (*zip)->Read("content.xml");
  if (!content.ok()) return content.status();
  ReadMeta(**zip, &doc);
  DocumentText text(limits);
  OdfText handler(&text);
  if (Status parsed = ParseXml(*content, handler); !parsed.ok()) return parsed;
  std::string mimetype;
  if ((*zip)->Has("mimetype")) {
    auto read = (*zip)->Read("mimetype");
    if (read.ok()) mimetype = read->substr(0, 128);
  }
  if (mimetype.ends_with("presentation")) {
    doc.mutable_info()->set_parts(handler.pages());
  } else if (mimetype.ends_with("spreadsheet")) {
    doc.mutable_info()->set_parts(handler.tables());
  }
  text.MoveTo(&doc);
  return doc;
}

}  // namespace crawl::fetcher::document
