// EPUB publications (EPUB 3.3 and 2.0.1 OCF/OPF): META-INF/container.xml
// names the package document (OPF); its metadata gives title, creator,
// language, date and description; its spine orders the XHTML chapters,
// whose text and outward links are read in that order (links to the
// publication's own files are left out).
#include <map>
#include <string>

#include "fetcher/document/document_text.h"
#include "fetcher/document/format_readers.h"
#include "fetcher/document/xhtml_text.h"
#include "fetcher/document/xml_fields.h"
#include "fetcher/document/zip_container.h"

namespace crawl::fetcher::document {
namespace {

std::string Attribute(const XmlFields::Element& element, const std::string& key) {
  const auto it = element.attributes.find(key);
  return it == element.attributes.end() ? std::string() : it->second;
}

Result<std::string> PackagePath(ZipContainer& zip) {
  auto xml = zip.Read("META-INF/container.xml");
  if (!xml.ok()) return Status::InvalidArgument("not an EPUB: " + xml.status().message());
  XmlFields fields({}, {"rootfile"});
  if (Status parsed = ParseXml(*xml, fields); !parsed.ok()) return parsed;
  for (const auto& rootfile : fields.elements()) {
    const std::string path = Attribute(rootfile, "full-path");
    if (!path.empty()) return ResolvePartPath("", path);
  }
  return Status::InvalidArgument("EPUB: container.xml names no package document");
}

void SetMetadata(const XmlFields& opf, v1::ParsedDocument* doc) {
  doc->set_title(CleanField(opf.text("title")));
  doc->mutable_info()->set_author(CleanField(opf.text("creator")));
  doc->set_summary(CleanField(opf.text("description")));
  doc->set_declared_language(CleanField(opf.text("language"), 64));
  doc->mutable_info()->set_created_unix_s(ParseIsoDate(opf.text("date")));
}

bool IsBudgetError(const Status& status) {
  return status.message().find("inflates past") != std::string::npos;
}

struct Chapter {
  std::string path;
  std::string media_type;
};

// The spine's chapters in reading order.
std::vector<Chapter> Spine(const XmlFields& opf, const std::string& folder) {
  std::map<std::string, Chapter> manifest;
  std::vector<Chapter> spine;
  for (const auto& element : opf.elements()) {
    if (element.local == "item") {
      manifest[Attribute(element, "id")] = {ResolvePartPath(folder, Attribute(element, "href")),
                                            Attribute(element, "media-type")};
    } else if (element.local == "itemref") {
      const auto it = manifest.find(Attribute(element, "idref"));
      if (it != manifest.end()) spine.push_back(it->second);
    }
  }
  return spine;
}

}  // namespace

Result<v1::ParsedDocument> ReadEpub(std::string_view body, const DocumentLimits& limits) {
  auto zip = ZipContainer::Open(body, limits);
  if (!zip.ok()) return zip.status();
  auto package = PackagePath(**zip);
  if (!package.ok()) return package.status();
  auto xml = (*zip)->Read(*package);
  if (!xml.ok()) return xml.status();
  XmlFields opf({"title", "creator", "language", "date", "description"}, {"item", "itemref"});
  if (Status parsed = ParseXml(*xml, opf); !parsed.ok()) return parsed;
  v1::ParsedDocument doc;
  SetMetadata(opf, &doc);
  DocumentText text(limits);
  uint32_t chapters = 0;
  Status last_error = Status::Ok();
  for (const Chapter& chapter : Spine(opf, PartFolder(*package))) {
    if (text.full()) break;
    if (chapter.media_type.find("html") == std::string::npos) continue;
    auto xhtml = (*zip)->Read(chapter.path);
    if (!xhtml.ok() && IsBudgetError(xhtml.status())) return xhtml.status();
    if (!xhtml.ok()) continue;
    const std::string folder = PartFolder(chapter.path);
    const std::function<bool(std::string_view)> keep = [&](std::string_view href) {
      return href[0] != '#' && !(*zip)->Has(ResolvePartPath(folder, href));
    };
    Status read = ReadXhtml(*xhtml, keep, &text);
    if (!read.ok()) last_error = read;
    if (read.ok()) ++chapters;
  }
  if (chapters == 0 && !last_error.ok()) return last_error;
  doc.mutable_info()->set_parts(chapters);
  text.MoveTo(&doc);
  return doc;
}

}  // namespace crawl::fetcher::document
