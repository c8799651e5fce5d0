// OOXML relationships and core properties (fetcher/document/ooxml_parts.h).
#include "fetcher/document/ooxml_parts.h"

#include "fetcher/document/document_text.h"
#include "fetcher/document/xml_fields.h"

namespace crawl::fetcher::document {
namespace {

std::string RelsPartOf(std::string_view part) {
  const std::string folder = PartFolder(part);
  return folder + "_rels/" + std::string(part.substr(folder.size())) + ".rels";
}

bool IsBudgetError(const Status& status) {
  return status.message().find("inflates past") != std::string::npos;
}

}  // namespace

Result<std::vector<Relationship>> ReadRelationships(ZipContainer& zip, std::string_view part) {
  std::vector<Relationship> rels;
  const std::string rels_part = RelsPartOf(part);
  if (!zip.Has(rels_part)) return rels;
  auto xml = zip.Read(rels_part);
  if (!xml.ok()) return xml.status();
  XmlFields fields({}, {"Relationship"});
  if (Status parsed = ParseXml(*xml, fields); !parsed.ok()) return parsed;
  const std::string folder = PartFolder(part);
  for (const auto& element : fields.elements()) {
    Relationship rel;
    const auto get = [&](const char* key) {
      const auto it = element.attributes.find(key);
      return it == element.attributes.end() ? std::string() : it->second;
    };
    rel.id = get("Id");
    rel.type = get("Type");
    rel.external = get("TargetMode") == "External";
    rel.target = rel.external ? get("Target") : ResolvePartPath(folder, get("Target"));
    rels.push_back(std::move(rel));
  }
  return rels;
}

const Relationship* FindRelationship(const std::vector<Relationship>& rels, std::string_view id) {
  for (const auto& rel : rels) {
    if (rel.id == id) return &rel;
  }
  return nullptr;
}

Status ReadCoreProperties(ZipContainer& zip, v1::ParsedDocument* doc) {
  if (!zip.Has("docProps/core.xml")) return Status::Ok();
  auto xml = zip.Read("docProps/core.xml");
  if (!xml.ok()) return IsBudgetError(xml.status()) ? xml.status() : Status::Ok();
  XmlFields fields({"title", "creator", "subject", "description", "language", "created", "modified"}, {});
  if (!ParseXml(*xml, fields).ok()) return Status::Ok();  // metadata only: the text may still be read
  doc->set_title(CleanField(fields.text("title")));
  doc->mutable_info()->set_author(CleanField(fields.text("creator")));
  std::string summary = CleanField(fields.text("description"));
  doc->set_summary(summary.empty() ? CleanField(fields.text("subject")) : std::move(summary));
  doc->set_declared_language(CleanField(fields.text("language"), 64));
  doc->mutable_info()->set_created_unix_s(ParseIsoDate(fields.text("created")));
  doc->mutable_info()->set_modified_unix_s(ParseIsoDate(fields.text("modified")));
  return Status::Ok();
}

std::string MainPart(ZipContainer& zip, std::string_view fallback) {
  auto rels = ReadRelationships(zip, "");
  if (rels.ok()) {
    for (const auto& rel : *rels) {
      if (!rel.external && rel.type.ends_with("/officeDocument")) return rel.target;
    }
  }
  return std::string(fallback);
}

}  // namespace crawl::fetcher::document
