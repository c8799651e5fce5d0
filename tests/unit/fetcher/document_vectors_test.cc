// The document parsers on real documents made by pandoc, LibreOffice and
// groff (tests/data/documents/MANIFEST.tsv): title, author, a phrase of the
// body and a link, for every type.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/text/utf8.h"
#include "fetcher/document/document.h"

namespace crawl::fetcher {
namespace {

struct Vector {
  std::string file, type, title, phrase, author, link;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string DocumentsDir() { return std::string(CRAWL_SOURCE_DIR) + "/tests/data/documents/"; }

std::vector<Vector> Manifest() {
  std::istringstream in(ReadFile(DocumentsDir() + "MANIFEST.tsv"));
  std::vector<Vector> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::istringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, '\t')) f.push_back(cell);
    f.resize(6);
    rows.push_back({f[0], f[1], f[2], f[3], f[4], f[5]});
  }
  return rows;
}

}  // namespace

TEST_CASE("every test document parses to its title, author, phrase and link", "[document]") {
  const auto rows = Manifest();
  REQUIRE(rows.size() >= 18);
  for (const auto& row : rows) {
    INFO(row.file);
    const auto type = DocumentTypeFromName(row.type);
    REQUIRE(type.has_value());
    CHECK(DocumentTypeForUrl("http://example.test/docs/" + row.file) == type);
    const std::string body = ReadFile(DocumentsDir() + row.file);
    REQUIRE(!body.empty());
    const auto doc = ParseDocument(*type, body, DocumentLimits{});
    REQUIRE(doc.ok());
    CHECK(doc->info().type() == row.type);
    if (!row.title.empty()) CHECK(doc->title() == row.title);
    if (!row.author.empty()) CHECK(doc->info().author() == row.author);
    CHECK(doc->text().find(row.phrase) != std::string::npos);
    CHECK(text::ValidUtf8Prefix(doc->text()) == doc->text().size());
    CHECK_FALSE(doc->truncated());
    if (!row.link.empty()) {
      bool found = false;
      for (const auto& link : doc->links()) found = found || link.url() == row.link;
      CHECK(found);
    }
  }
}

TEST_CASE("document metadata gives dates, parts and language", "[document]") {
  const DocumentLimits limits;
  auto parse = [&](DocumentType type, const std::string& file) {
    auto doc = ParseDocument(type, ReadFile(DocumentsDir() + file), limits);
    REQUIRE(doc.ok());
    return *doc;
  };
  // pandoc wrote SOURCE_DATE_EPOCH (2023-11-14T22:13:20Z) as the creation date.
  const auto docx = parse(DocumentType::kDocx, "gpl_preamble.docx");
  CHECK(docx.info().created_unix_s() == 1700000000);
  CHECK(docx.declared_language() == "en");
  const auto odt = parse(DocumentType::kOdt, "gpl_preamble.odt");
  CHECK(odt.info().created_unix_s() == 1700000000);
  const auto epub = parse(DocumentType::kEpub, "gpl_preamble.epub");
  CHECK(epub.info().created_unix_s() == 1183075200);  // dc:date 2007-06-29
  CHECK(epub.summary() == "The preamble of the GNU GPL version 3.");
  CHECK(epub.info().parts() >= 1);
  // LibreOffice's \creatim has minutes only: 22:13.
  const auto rtf = parse(DocumentType::kRtf, "apache_definitions.rtf");
  CHECK(rtf.info().created_unix_s() == 1700000000 - 20);
  // pandoc's title slide and two slides of content.
  CHECK(parse(DocumentType::kPptx, "mpl_slides.pptx").info().parts() == 3);
  CHECK(parse(DocumentType::kOdp, "mpl_slides.odp").info().parts() == 3);
  CHECK(parse(DocumentType::kXlsx, "mpl_definitions.xlsx").info().parts() == 1);
  CHECK(parse(DocumentType::kOds, "mpl_definitions.ods").info().parts() == 1);
  const auto pdf = parse(DocumentType::kPdf, "gpl_preamble.pdf");
  CHECK(pdf.info().parts() >= 1);
  CHECK(pdf.info().created_unix_s() > 1600000000);
}

TEST_CASE("paragraphs are separated by a blank line and whitespace is collapsed", "[document]") {
  const auto doc = ParseDocument(DocumentType::kDocx, ReadFile(DocumentsDir() + "gpl_preamble.docx"), {});
  REQUIRE(doc.ok());
  CHECK(doc->text().find("\n\nThe GNU General Public License is a free") != std::string::npos);
  CHECK(doc->text().find("  ") == std::string::npos);
  CHECK(doc->text().find("\n\n\n") == std::string::npos);
}

TEST_CASE("the text limit cuts every type on a character boundary", "[document]") {
  DocumentLimits limits;
  limits.max_text_bytes = 100;
  for (const auto& row : Manifest()) {
    INFO(row.file);
    const auto doc =
        ParseDocument(*DocumentTypeFromName(row.type), ReadFile(DocumentsDir() + row.file), limits);
    REQUIRE(doc.ok());
    CHECK(doc->text().size() <= 100);
    CHECK(doc->truncated());
    CHECK(text::ValidUtf8Prefix(doc->text()) == doc->text().size());
  }
  limits.max_links = 0;
  const auto doc = ParseDocument(DocumentType::kDocx, ReadFile(DocumentsDir() + "gpl_preamble.docx"), limits);
  REQUIRE(doc.ok());
  CHECK(doc->links().empty());
}

}  // namespace crawl::fetcher
