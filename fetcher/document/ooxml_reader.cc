// Word documents and presentations of Office Open XML (ECMA-376 Part 1:
// WordprocessingML 17, PresentationML 19, DrawingML text 21.1): paragraphs
// (w:p, a:p) of runs' text (w:t, a:t), hyperlinks through the part's
// relationships (w:hyperlink r:id, HYPERLINK field codes, a:hlinkClick),
// slides in the order presentation.xml lists them.
#include <string>

#include "fetcher/document/document_text.h"
#include "fetcher/document/format_readers.h"
#include "fetcher/document/ooxml_parts.h"
#include "fetcher/document/xml_events.h"
#include "fetcher/document/xml_fields.h"

namespace crawl::fetcher::document {
namespace {

// The r: attributes of both the transitional and the strict schema.
std::string_view RelId(const XmlAttributes& attrs) { return attrs.GetLocal("id"); }

// The URL of `"HYPERLINK "url" \o ..."` field code, or "".
std::string HyperlinkField(std::string_view code) {
  const size_t at = code.find("HYPERLINK");
  if (at == std::string_view::npos) return "";
  const size_t open = code.find('"', at);
  if (open == std::string_view::npos) return "";
  const size_t close = code.find('"', open + 1);
  if (close == std::string_view::npos) return "";
  return std::string(code.substr(open + 1, close - open - 1));
}

// WordprocessingML body text (w:document) and PresentationML slide text
// (p:sld): both are paragraphs of runs.
class RunText : public XmlHandler {
 public:
  RunText(DocumentText* text, const std::vector<Relationship>* rels) : text_(text), rels_(rels) {}

  void Start(const XmlName& name, const XmlAttributes& attrs) override {
    const std::string_view l = name.local;
    if (l == "t") {
      in_text_ = true;
    } else if (l == "instrText") {
      in_field_ = true;
      field_.clear();
    } else if (l == "tab" || l == "br" || l == "cr") {
      text_->Append(" ");
    } else if (l == "hyperlink" || l == "hlinkClick") {
      const Relationship* rel = FindRelationship(*rels_, RelId(attrs));
      if (rel != nullptr && rel->external) StartLink(rel->target, l == "hyperlink" ? 1 : 2);
    } else if (l == "r" && link_kind_ == 2) {
      ++run_depth_;
    }
  }

  void End(const XmlName& name) override {
    const std::string_view l = name.local;
    if (l == "t") {
      in_text_ = false;
    } else if (l == "instrText") {
      in_field_ = false;
      if (std::string url = HyperlinkField(field_); !url.empty()) text_->AddLink(url, "");
    } else if (l == "p") {
      if (link_kind_ == 2) EndLink();
      text_->EndParagraph();
    } else if (l == "hyperlink" && link_kind_ == 1) {
      EndLink();
    } else if (l == "r" && link_kind_ == 2 && run_depth_ > 0 && --run_depth_ == 0) {
      EndLink();
    }
  }

  void Text(std::string_view text) override {
    if (in_field_ && field_.size() < 4096) field_.append(text);
    if (!in_text_) return;
    text_->Append(text);
    if (link_kind_ != 0 && anchor_.size() < 1024) anchor_.append(text);
  }

  [[nodiscard]] bool WantsMore() const override { return !text_->full(); }

 private:
  // kind 1: w:hyperlink (ends with its element); 2: a:hlinkClick (inside a
  // run's properties: ends with the run).
  void StartLink(const std::string& url, int kind) {
    if (link_kind_ != 0) EndLink();
    link_url_ = url;
    link_kind_ = kind;
    anchor_.clear();
    run_depth_ = kind == 2 ? 1 : 0;
  }
  void EndLink() {
    text_->AddLink(link_url_, anchor_);
    link_kind_ = 0;
    run_depth_ = 0;
  }

  DocumentText* text_;
  const std::vector<Relationship>* rels_;
  bool in_text_ = false;
  bool in_field_ = false;
  std::string field_;
  int link_kind_ = 0;
  int run_depth_ = 0;
  std::string link_url_;
  std::string anchor_;
};

Result<std::unique_ptr<ZipContainer>> OpenPackage(std::string_view body, const DocumentLimits& limits) {
  auto zip = ZipContainer::Open(body, limits);
  if (!zip.ok()) return zip.status();
  if (!(*zip)->Has("[Content_Types].xml")) return Status::InvalidArgument("not an OOXML package");
  return zip;
}

// Reads `part` (with its relationships) into *text.
Status ReadRunPart(ZipContainer& zip, const std::string& part, DocumentText* text) {
  auto rels = ReadRelationships(zip, part);
  if (!rels.ok()) return rels.status();
  auto xml = zip.Read(part);
  if (!xml.ok()) return xml.status();
  RunText handler(text, &*rels);
  Status status = ParseXml(*xml, handler);
  text->EndParagraph();
  return status;
}

}  // namespace

Result<v1::ParsedDocument> ReadDocx(std::string_view body, const DocumentLimits& limits) {
  auto zip = OpenPackage(body, limits);
  if (!zip.ok()) return zip.status();
  v1::ParsedDocument doc;
  if (Status core = ReadCoreProperties(**zip, &doc); !core.ok()) return core;
  const std::string main = MainPart(**zip, "word/document.xml");
  DocumentText text(limits);
  if (Status read = ReadRunPart(**zip, main, &text); !read.ok()) return read;
  text.MoveTo(&doc);
  return doc;
}

Result<v1::ParsedDocument> ReadPptx(std::string_view body, const DocumentLimits& limits) {
  auto zip = OpenPackage(body, limits);
  if (!zip.ok()) return zip.status();
  v1::ParsedDocument doc;
  if (Status core = ReadCoreProperties(**zip, &doc); !core.ok()) return core;
  const std::string main = MainPart(**zip, "ppt/presentation.xml");
  auto rels = ReadRelationships(**zip, main);
  if (!rels.ok()) return rels.status();
  auto xml = (*zip)->Read(main);
  if (!xml.ok()) return xml.status();
  XmlFields order({}, {"sldId"});
  if (Status parsed = ParseXml(*xml, order); !parsed.ok()) return parsed;
  DocumentText text(limits);
  uint32_t slides = 0;
  for (const auto& slide : order.elements()) {
    const auto id = slide.attributes.find("ns:id");  // r:id (the plain id is a number)
    if (id == slide.attributes.end()) continue;
    const Relationship* rel = FindRelationship(*rels, id->second);
    if (rel == nullptr || rel->external) continue;
    ++slides;
    if (text.full()) continue;
    if (Status read = ReadRunPart(**zip, rel->target, &text); !read.ok()) return read;
  }
  doc.mutable_info()->set_parts(slides);
  text.MoveTo(&doc);
  return doc;
}

}  // namespace crawl::fetcher::document
