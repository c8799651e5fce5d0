// Parts shared by the Office Open XML formats (ECMA-376 Part 2, Open
// Packaging Conventions): relationships and core properties. Internal to
// fetcher/document/.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "fetcher/document/zip_container.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher::document {

struct Relationship {
  std::string id;
  std::string type;    // the relationship type URI
  std::string target;  // as written (external) or the resolved part name
  bool external = false;
};

// The relationships of `part` ("word/document.xml" -> its
// "word/_rels/document.xml.rels"), in document order; none when the rels
// part is absent. An error when it is broken or over the inflate budget.
[[nodiscard]] Result<std::vector<Relationship>> ReadRelationships(ZipContainer& zip, std::string_view part);
// The relationship with `id`, or nullptr.
[[nodiscard]] const Relationship* FindRelationship(const std::vector<Relationship>& rels,
                                                   std::string_view id);

// docProps/core.xml (title, creator, subject/description, language,
// created, modified) into *doc; nothing when absent. An error only when the
// budget is spent.
[[nodiscard]] Status ReadCoreProperties(ZipContainer& zip, v1::ParsedDocument* doc);

// The main part the package's root relationships name (officeDocument), or
// `fallback`.
[[nodiscard]] std::string MainPart(ZipContainer& zip, std::string_view fallback);

}  // namespace crawl::fetcher::document
