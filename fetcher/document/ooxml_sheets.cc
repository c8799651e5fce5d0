// Spreadsheets of Office Open XML (ECMA-376 Part 1, SpreadsheetML 18):
// the shared strings table (sst/si), each worksheet the workbook lists
// (workbook.xml sheets/sheet r:id, in order) as its name then one
// paragraph per row of cell values (c/v, inline strings c/is/t).
#include <string>
#include <vector>

#include "fetcher/document/document_text.h"
#include "fetcher/document/format_readers.h"
#include "fetcher/document/ooxml_parts.h"
#include "fetcher/document/xml_events.h"
#include "fetcher/document/xml_fields.h"

namespace crawl::fetcher::document {
namespace {

// xl/sharedStrings.xml: each si's text (its t's, phonetic runs rPh left out).
class SharedStrings : public XmlHandler {
 public:
  explicit SharedStrings(size_t max_bytes) : max_bytes_(max_bytes) {}
  void Start(const XmlName& name, const XmlAttributes&) override {
    if (name.local == "si") strings_.emplace_back();
    if (name.local == "t") in_text_ = true;
    if (name.local == "rPh") in_phonetic_ = true;
  }
  void End(const XmlName& name) override {
    if (name.local == "t") in_text_ = false;
    if (name.local == "rPh") in_phonetic_ = false;
  }
  void Text(std::string_view text) override {
    if (!in_text_ || in_phonetic_ || strings_.empty() || bytes_ >= max_bytes_) return;
    strings_.back().append(text);
    bytes_ += text.size();
  }
  std::vector<std::string> strings_;

 private:
  size_t max_bytes_;
  size_t bytes_ = 0;
  bool in_text_ = false;
  bool in_phonetic_ = false;
};

// A worksheet: rows of cells.
class SheetText : public XmlHandler {
 public:
  SheetText(DocumentText* text, const std::vector<std::string>* shared) : text_(text), shared_(shared) {}
  void Start(const XmlName& name, const XmlAttributes& attrs) override {
    if (name.local == "c") {
      type_ = std::string(attrs.GetLocal("t"));
      value_.clear();
    } else if (name.local == "v" || name.local == "t") {
      in_value_ = true;
    } else if (name.local == "hyperlink") {
      hyperlinks_.push_back(std::string(attrs.Get(kRelNs, "id")));
    }
  }
  void End(const XmlName& name) override {
    if (name.local == "v" || name.local == "t") {
      in_value_ = false;
    } else if (name.local == "c") {
      text_->Append(CellText());
      text_->Append(" ");
    } else if (name.local == "row") {
      text_->EndParagraph();
    }
  }
  void Text(std::string_view text) override {
    if (in_value_ && value_.size() < 32768) value_.append(text);
  }
  [[nodiscard]] bool WantsMore() const override { return !text_->full(); }
  std::vector<std::string> hyperlinks_;  // r:id of each sheet hyperlink

 private:
  static constexpr std::string_view kRelNs =
      "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

  std::string CellText() const {
    if (type_ != "s") return value_;
    size_t index = 0;
    for (const char c : value_) {
      if (c < '0' || c > '9' || index > shared_->size()) return "";
      index = index * 10 + static_cast<size_t>(c - '0');
    }
    return index < shared_->size() ? (*shared_)[index] : "";
  }

  DocumentText* text_;
  const std::vector<std::string>* shared_;
  std::string type_;
  std::string value_;
  bool in_value_ = false;
};

Result<std::vector<std::string>> ReadSharedStrings(ZipContainer& zip, const std::string& folder,
                                                   const DocumentLimits& limits) {
  const std::string part = folder + "sharedStrings.xml";
  if (!zip.Has(part)) return std::vector<std::string>();
  auto xml = zip.Read(part);
  if (!xml.ok()) return xml.status();
  SharedStrings handler(limits.max_text_bytes);
  if (Status parsed = ParseXml(*xml, handler); !parsed.ok()) return parsed;
  return std::move(handler.strings_);
}

Status ReadSheet(ZipContainer& zip, const std::string& part, const std::vector<std::string>& shared,
                 DocumentText* text) {
  auto rels = ReadRelationships(zip, part);
  if (!rels.ok()) return rels.status();
  auto xml = zip.Read(part);
  if (!xml.ok()) return xml.status();
  SheetText handler(text, &shared);
  if (Status parsed = ParseXml(*xml, handler); !parsed.ok()) return parsed;
  for (const auto& id : handler.hyperlinks_) {
    const Relationship* rel = FindRelationship(*rels, id);
    if (rel != nullptr && rel->external) text->AddLink(rel->target, "");
  }
  return Status::Ok();
}

}  // namespace

Result<v1::ParsedDocument> ReadXlsx(std::string_view body, const DocumentLimits& limits) {
  auto zip = ZipContainer::Open(body, limits);
  if (!zip.ok()) return zip.status();
  if (!(*zip)->Has("[Content_Types].xml")) return Status::InvalidArgument("not an OOXML package");
  v1::ParsedDocument doc;
  if (Status core = ReadCoreProperties(**zip, &doc); !core.ok()) return core;
  const std::string main = MainPart(**zip, "xl/workbook.xml");
  auto rels = ReadRelationships(**zip, main);
  if (!rels.ok()) return rels.status();
  auto xml = (*zip)->Read(main);
  if (!xml.ok()) return xml.status();
  XmlFields sheets({}, {"sheet"});
  if (Status parsed = ParseXml(*xml, sheets); !parsed.ok()) return parsed;
  auto shared = ReadSharedStrings(**zip, PartFolder(main), limits);
  if (!shared.ok()) return shared.status();
  DocumentText text(limits);
  uint32_t parts = 0;
  for (const auto& sheet : sheets.elements()) {
    const auto id = sheet.attributes.find("ns:id");
    if (id == sheet.attributes.end()) continue;
    const Relationship* rel = FindRelationship(*rels, id->second);
    if (rel == nullptr || rel->external || !(*zip)->Has(rel->target)) continue;
    ++parts;
    if (text.full()) continue;
    const auto name = sheet.attributes.find("name");
    if (name != sheet.attributes.end()) text.Append(name->second);
    text.EndParagraph();
    if (Status read = ReadSheet(**zip, rel->target, *shared, &text); !read.ok()) return read;
  }
  doc.mutable_info()->set_parts(parts);
  text.MoveTo(&doc);
  return doc;
}

}  // namespace crawl::fetcher::document
