// The document parsers on hostile and broken input: random bytes,
// truncated files, a zip bomb, too many entries, billion laughs, deep
// nesting, a locked PDF. Each is an error (or a bounded, truncated result),
// never a crash or unbounded memory.
#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "common/text/utf8.h"
#include "fetcher/document/document.h"
#include "tests/unit/fetcher/document_test_zip.h"

namespace crawl::fetcher {
namespace {

std::string ReadVector(const std::string& name) {
  std::ifstream in(std::string(CRAWL_SOURCE_DIR) + "/tests/data/documents/" + name, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

const char kContentTypes[] =
    "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>";
const char kWordNs[] = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

std::string Docx(const std::string& document_xml) {
  testing::TestZip zip;
  zip.Add("[Content_Types].xml", kContentTypes);
  zip.Add("word/document.xml", document_xml);
  return zip.Finish();
}

}  // namespace

TEST_CASE("random bytes are an error for every type", "[document]") {
  std::mt19937 random(42);
  for (int round = 0; round < 20; ++round) {
    std::string body(1 + random() % 5000, '\0');
    for (char& c : body) c = static_cast<char>(random());
    for (const DocumentType type : kAllDocumentTypes) {
      CHECK_FALSE(ParseDocument(type, body, {}).ok());
    }
  }
  CHECK_FALSE(ParseDocument(DocumentType::kPdf, "", {}).ok());
  CHECK_FALSE(ParseDocument(DocumentType::kRtf, "", {}).ok());
}

TEST_CASE("truncated zip documents are an error, truncated PDF and RTF stay valid UTF-8", "[document]") {
  const std::pair<const char*, DocumentType> zips[] = {
      {"gpl_preamble.docx", DocumentType::kDocx},  {"mpl_definitions.xlsx", DocumentType::kXlsx},
      {"mpl_slides.pptx", DocumentType::kPptx},    {"gpl_preamble.odt", DocumentType::kOdt},
      {"mpl_definitions.ods", DocumentType::kOds}, {"mpl_slides.odp", DocumentType::kOdp},
      {"gpl_preamble.epub", DocumentType::kEpub}};
  for (const auto& [name, type] : zips) {
    INFO(name);
    const std::string body = ReadVector(name);
    CHECK_FALSE(ParseDocument(type, body.substr(0, body.size() / 2), {}).ok());
  }
  for (const auto& [name, type] : {std::pair{"gpl_preamble.pdf", DocumentType::kPdf},
                                   std::pair{"gpl_preamble.rtf", DocumentType::kRtf}}) {
    const std::string body = ReadVector(name);
    const auto doc = ParseDocument(type, body.substr(0, body.size() / 2), {});
    if (doc.ok()) CHECK(text::ValidUtf8Prefix(doc->text()) == doc->text().size());
  }
}

TEST_CASE("a zip bomb stops at the inflate budget", "[document]") {
  testing::TestZip zip;
  zip.Add("[Content_Types].xml", kContentTypes);
  zip.AddZeros("word/document.xml", 200u << 20);  // 200 MB of zeros, ~200 KB compressed
  const std::string body = zip.Finish();
  REQUIRE(body.size() < (1u << 20));
  DocumentLimits limits;
  limits.max_inflated_bytes = 8u << 20;
  const auto doc = ParseDocument(DocumentType::kDocx, body, limits);
  REQUIRE_FALSE(doc.ok());
  CHECK(doc.status().message().find("inflates past the limit") != std::string::npos);
}

TEST_CASE("a zip with more entries than allowed is an error", "[document]") {
  testing::TestZip zip;
  zip.Add("[Content_Types].xml", kContentTypes);
  zip.Add("word/document.xml", "<w:document xmlns:w=\"x\"/>");
  zip.Add("extra", "x");
  DocumentLimits limits;
  limits.max_zip_entries = 2;
  CHECK_FALSE(ParseDocument(DocumentType::kDocx, zip.Finish(), limits).ok());
  limits.max_zip_entries = 3;
  CHECK(ParseDocument(DocumentType::kDocx, zip.Finish(), limits).ok());
}

TEST_CASE("billion laughs inside a docx is an error", "[document]") {
  std::string dtd = "<?xml version=\"1.0\"?><!DOCTYPE w:document [<!ENTITY l0 \"hahahahahahahahahaha\">";
  for (int i = 1; i < 10; ++i) {
    dtd += "<!ENTITY l" + std::to_string(i) + " \"";
    for (int j = 0; j < 10; ++j) dtd += "&l" + std::to_string(i - 1) + ";";
    dtd += "\">";
  }
  const std::string xml = dtd + "]><w:document xmlns:w=\"" + kWordNs +
                          "\"><w:body><w:p><w:r><w:t>&l9;</w:t>" + "</w:r></w:p></w:body></w:document>";
  const auto doc = ParseDocument(DocumentType::kDocx, Docx(xml), {});
  REQUIRE_FALSE(doc.ok());
  CHECK(doc.status().message().find("xml:") != std::string::npos);
}

TEST_CASE("deeply nested XML is an error", "[document]") {
  std::string xml = std::string("<w:document xmlns:w=\"") + kWordNs + "\">";
  for (int i = 0; i < 5000; ++i) xml += "<w:sdt>";
  for (int i = 0; i < 5000; ++i) xml += "</w:sdt>";
  xml += "</w:document>";
  const auto doc = ParseDocument(DocumentType::kDocx, Docx(xml), {});
  REQUIRE_FALSE(doc.ok());
  CHECK(doc.status().message().find("deeper") != std::string::npos);
}

TEST_CASE("a docx is read from a hand-made package, hyperlinks through its relationships", "[document]") {
  testing::TestZip zip;
  zip.Add("[Content_Types].xml", kContentTypes);
  zip.Add("word/_rels/document.xml.rels",
          "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
          "<Relationship Id=\"rId9\" Type=\"http://x/hyperlink\" Target=\"http://example.test/a%20b\" "
          "TargetMode=\"External\"/></Relationships>");
  zip.Add("word/document.xml",
          std::string("<w:document xmlns:w=\"") + kWordNs +
              "\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"><w:body>"
              "<w:p><w:r><w:t>First   one</w:t></w:r><w:r><w:tab/><w:t>x</w:t></w:r></w:p>"
              "<w:p><w:hyperlink r:id=\"rId9\"><w:r><w:t>the link</w:t></w:r></w:hyperlink></w:p>"
              "<w:p><w:r><w:instrText> HYPERLINK \"https://field.test/\" </w:instrText></w:r></w:p>"
              "</w:body></w:document>");
  const auto doc = ParseDocument(DocumentType::kDocx, zip.Finish(), {});
  REQUIRE(doc.ok());
  CHECK(doc->text() == "First one x\n\nthe link");
  REQUIRE(doc->links_size() == 2);
  CHECK(doc->links(0).url() == "http://example.test/a%20b");
  CHECK(doc->links(0).anchor_text() == "the link");
  CHECK(doc->links(1).url() == "https://field.test/");
}

TEST_CASE("a PDF that needs a password is an error", "[document]") {
  const auto doc = ParseDocument(DocumentType::kPdf, ReadVector("locked_bsd_notice.pdf"), {});
  REQUIRE_FALSE(doc.ok());
  CHECK(doc.status().message().find("password") != std::string::npos);
  CHECK(ParseDocument(DocumentType::kPdf, ReadVector("bsd_notice.pdf"), {}).ok());
}

}  // namespace crawl::fetcher
