// Document types by name, media type and URL (fetcher/document/document.h).
#include <catch2/catch.hpp>

#include "fetcher/document/document.h"

namespace crawl::fetcher {

TEST_CASE("document types round-trip through their names", "[document]") {
  for (const DocumentType type : kAllDocumentTypes) {
    CHECK(DocumentTypeFromName(DocumentTypeName(type)) == type);
  }
  CHECK(DocumentTypeFromName("PDF") == DocumentType::kPdf);
  CHECK_FALSE(DocumentTypeFromName("html").has_value());
}

TEST_CASE("document types are found by media type", "[document]") {
  CHECK(DocumentTypeForMime("application/pdf") == DocumentType::kPdf);
  CHECK(DocumentTypeForMime("application/vnd.openxmlformats-officedocument.wordprocessingml.document") ==
        DocumentType::kDocx);
  CHECK(DocumentTypeForMime("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet") ==
        DocumentType::kXlsx);
  CHECK(DocumentTypeForMime("application/vnd.openxmlformats-officedocument.presentationml.presentation") ==
        DocumentType::kPptx);
  CHECK(DocumentTypeForMime("application/vnd.oasis.opendocument.text") == DocumentType::kOdt);
  CHECK(DocumentTypeForMime("application/vnd.oasis.opendocument.spreadsheet") == DocumentType::kOds);
  CHECK(DocumentTypeForMime("application/vnd.oasis.opendocument.presentation") == DocumentType::kOdp);
  CHECK(DocumentTypeForMime("application/epub+zip") == DocumentType::kEpub);
  CHECK(DocumentTypeForMime("text/rtf") == DocumentType::kRtf);
  CHECK(DocumentTypeForMime("application/rtf") == DocumentType::kRtf);
  CHECK(DocumentTypeForMime("application/rss+xml") == DocumentType::kFeed);
  CHECK(DocumentTypeForMime("application/atom+xml") == DocumentType::kFeed);
  CHECK_FALSE(DocumentTypeForMime("text/html").has_value());
}

TEST_CASE("document types are found by URL path extension, any case, query ignored", "[document]") {
  CHECK(DocumentTypeForUrl("https://example.test/a/b/Report.PDF?x=1.docx#p.rtf") == DocumentType::kPdf);
  CHECK(DocumentTypeForUrl("http://example.test/slides.pptx") == DocumentType::kPptx);
  CHECK(DocumentTypeForUrl("http://example.test/news.rss") == DocumentType::kFeed);
  CHECK(DocumentTypeForUrl("http://example.test/feed.atom") == DocumentType::kFeed);
  CHECK(DocumentTypeForUrl("book.epub") == DocumentType::kEpub);
  CHECK_FALSE(DocumentTypeForUrl("http://example.test/dir.pdf/page").has_value());
  CHECK_FALSE(DocumentTypeForUrl("http://example.pdf/").has_value());
  CHECK_FALSE(DocumentTypeForUrl("http://example.test/index.html").has_value());
}

TEST_CASE("feeds are left to the feed processor", "[document]") {
  const auto doc = ParseDocument(DocumentType::kFeed, "<rss/>", {});
  REQUIRE_FALSE(doc.ok());
  CHECK(doc.status().message() == "feeds are parsed by the feed processor");
}

}  // namespace crawl::fetcher
