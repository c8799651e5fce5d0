// The document parameters as the name server checks them when a crawl
// starts or `crawlctl set-param` changes them (nameserver/service.h
// NormalizeParams, common/crawl/document_types.h).
#include <catch2/catch.hpp>

#include "common/crawl/param_text.h"
#include "nameserver/service.h"

using crawl::nameserver::NormalizeParams;

TEST_CASE("document_types takes the type names, all or none; a wrong name is refused with the list",
          "[unit][documents]") {
  for (const char* ok : {"", "none", "pdf", "feed,pdf", "pdf, docx ,xlsx,pptx,odt,ods,odp,epub,rtf,feed"}) {
    crawl::v1::CrawlParams p;
    p.set_document_types(ok);
    INFO(ok);
    CHECK(NormalizeParams(&p).ok());
  }
  for (const char* bad : {"pdf,doc", "PDF", "none,pdf", "rss", "pdf,,feed"}) {
    crawl::v1::CrawlParams p;
    p.set_document_types(bad);
    INFO(bad);
    const crawl::Status s = NormalizeParams(&p);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message().find("document_types") != std::string::npos);
    CHECK(s.message().find("pdf, docx, xlsx, pptx, odt, ods, odp, epub, rtf, feed") != std::string::npos);
  }
}

TEST_CASE("max_document_bytes defaults to 20,000,000 and is at most 100 MB", "[unit][documents]") {
  crawl::v1::CrawlParams p;
  REQUIRE(NormalizeParams(&p).ok());
  CHECK(p.max_document_bytes() == 20'000'000);
  p.set_max_document_bytes(5'000'000);
  REQUIRE(NormalizeParams(&p).ok());
  CHECK(p.max_document_bytes() == 5'000'000);
  p.set_max_document_bytes(100'000'001);
  const crawl::Status s = NormalizeParams(&p);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find("max_document_bytes") != std::string::npos);
}

TEST_CASE("set-param changes the document parameters mid-crawl, and they are checked again",
          "[unit][documents]") {
  crawl::v1::CrawlParams p;
  REQUIRE(crawl::SetParamFromText(&p, "document_types", "feed").ok());
  REQUIRE(crawl::SetParamFromText(&p, "max_document_bytes", "3000000").ok());
  REQUIRE(NormalizeParams(&p).ok());
  CHECK(p.document_types() == "feed");
  CHECK(p.max_document_bytes() == 3'000'000);
  REQUIRE(crawl::SetParamFromText(&p, "document_types", "feeds").ok());
  CHECK_FALSE(NormalizeParams(&p).ok());
}
