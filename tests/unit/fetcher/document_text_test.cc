// Text normalisation and dates of the document parsers
// (fetcher/document/document_text.h).
#include "fetcher/document/document_text.h"

#include <catch2/catch.hpp>

#include "common/text/utf8.h"

namespace crawl::fetcher::document {

TEST_CASE("document text collapses whitespace and separates paragraphs", "[document]") {
  const DocumentLimits limits;
  DocumentText text(limits);
  text.Append("  one \t two\n");
  text.Append("three");
  text.EndParagraph();
  text.EndParagraph();
  text.Append("  four ");
  text.EndParagraph();
  v1::ParsedDocument doc;
  text.MoveTo(&doc);
  CHECK(doc.text() == "one two three\n\nfour");
  CHECK_FALSE(doc.truncated());
}

TEST_CASE("document text stops at the byte limit on a character boundary", "[document]") {
  DocumentLimits limits;
  limits.max_text_bytes = 8;
  DocumentText text(limits);
  text.Append("ab \xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9");  // "ab éééé": 11 bytes
  v1::ParsedDocument doc;
  text.MoveTo(&doc);
  CHECK(doc.text() == "ab \xC3\xA9\xC3\xA9");
  CHECK(doc.truncated());
}

TEST_CASE("document text replaces ill-formed UTF-8", "[document]") {
  const DocumentLimits limits;
  DocumentText text(limits);
  text.Append("a\xFF\xFE b");
  text.AddLink("http://x.test/\xC0", "\xE2\x82");
  v1::ParsedDocument doc;
  text.MoveTo(&doc);
  CHECK(text::ValidUtf8Prefix(doc.text()) == doc.text().size());
  CHECK(doc.text().find("\xEF\xBF\xBD") != std::string::npos);
  REQUIRE(doc.links_size() == 1);
  CHECK(text::ValidUtf8Prefix(doc.links(0).url()) == doc.links(0).url().size());
}

TEST_CASE("ISO 8601 and PDF dates become Unix seconds", "[document]") {
  CHECK(ParseIsoDate("2023-11-14T22:13:20Z") == 1700000000);
  CHECK(ParseIsoDate("2023-11-14T23:13:20.25+01:00") == 1700000000);
  CHECK(ParseIsoDate("2023-11-14") == 1699920000);
  CHECK(ParseIsoDate("2023") == 1672531200);
  CHECK(ParseIsoDate("") == 0);
  CHECK(ParseIsoDate("yesterday") == 0);
  CHECK(ParseIsoDate("2023-13-01") == 0);
  CHECK(ParsePdfDate("D:20231114221320Z") == 1700000000);
  CHECK(ParsePdfDate("D:20231114231320+01'00'") == 1700000000);
  CHECK(ParsePdfDate("D:2023") == 1672531200);
  CHECK(ParsePdfDate("D:") == 0);
}

}  // namespace crawl::fetcher::document
