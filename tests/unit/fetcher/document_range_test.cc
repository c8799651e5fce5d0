// The size cap for documents (fetcher/http/http_fetcher.h FetchTarget::range_bytes,
// fetcher/crawl_worker.cc, fetcher/page/feed_processor.h NoteDocumentCut): a
// URL whose extension names a document type the crawl reads is asked with
// max_document_bytes, the others with page_range_bytes; a document cut
// anyway is recorded as unreadable.
#include "fetcher/http/http_fetcher.h"
#include "tests/unit/fetcher/fetch_test_util.h"
#include "tests/unit/fetcher/test_h2_server.h"
#include "tests/unit/fetcher/test_http_server.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <catch2/catch.hpp>

#include "fetcher/page/feed_processor.h"
#include "fetcher/page/page_processor.h"
#include "fetcher/page/url_extension.h"

namespace {

using crawl::fetcher::FetcherOptions;
using crawl::fetcher::FetchTarget;
using namespace crawl::fetcher::testing;  // NOLINT: test helpers

}  // namespace

TEST_CASE("a target's range_bytes replaces page_range_bytes for that URL only", "[unit][documents]") {
  const std::string doc(3000, 'd');
  TestServer server([&](const Request& request) -> Reply {
    return {Response(200, request.target() == "/after" ? std::string(3000, 'h') : doc)};
  });
  FetcherOptions options = TestOptions();
  options.page_range_bytes = 1000;
  FetchTarget document{server.base() + "/a.pdf", "", ""};
  document.range_bytes = 5000;
  auto results = FetchTargets(options, {document, {server.base() + "/after", "", ""}});
  CHECK(results[0].body == doc);  // whole: 3,000 bytes under its own cap
  CHECK_FALSE(results[0].truncated);
  CHECK(results[1].body.size() == 1000);  // the next URL keeps the page range
  CHECK(results[1].truncated);
  REQUIRE(server.requests().size() == 2);
  CHECK(server.requests()[0].range == "bytes=0-4999");
  CHECK(server.requests()[1].range == "bytes=0-999");
}

TEST_CASE("h2: a target's range_bytes is asked and kept", "[unit][documents]") {
  H2TestServer server([](const H2SeenRequest&) { return H2Reply{200, {}, std::string(300'000, 'a')}; });
  FetcherOptions options = TestOptions();
  options.h2_streams = 4;
  options.h2_prior_knowledge = true;
  options.accept_self_signed = true;
  options.page_range_bytes = 1000;
  FetchTarget document{server.base() + "/big.epub", "", ""};
  document.range_bytes = 200'000;
  auto results = FetchTargets(options, {document, {server.base() + "/page", "", ""}});
  CHECK(results[0].body.size() == 200'000);
  CHECK(results[0].truncated);
  CHECK(results[1].body.size() == 1000);
  CHECK(server.requests()[0].Field("range") == "bytes=0-199999");
}

TEST_CASE("the decoded cap of a document target is its range, not max_decoded_bytes", "[unit][documents]") {
  FetcherOptions options;
  options.page_range_bytes = 1000;
  options.max_decoded_bytes = 2000;
  FetchTarget page{"http://a.test/", "", ""};
  FetchTarget document{"http://a.test/a.pdf", "", ""};
  document.range_bytes = 50'000;
  CHECK(crawl::fetcher::RangeBytesOf(options, page) == 1000);
  CHECK(crawl::fetcher::DecodedCapOf(options, page) == 2000);
  CHECK(crawl::fetcher::RangeBytesOf(options, document) == 50'000);
  CHECK(crawl::fetcher::DecodedCapOf(options, document) == 50'000);
}

TEST_CASE("a cut response of a document type read is recorded as unreadable", "[unit][documents]") {
  crawl::v1::ScheduledUrl scheduled;
  scheduled.set_url("http://a.test/download?id=7");  // no extension: asked with the page range
  crawl::fetcher::FetchResult result;
  result.url = scheduled.url();
  result.status = 206;
  result.body = std::string(1000, '%');
  result.truncated = true;
  result.mime_type = "application/pdf";
  crawl::fetcher::ProcessOptions options;
  auto page = crawl::fetcher::ProcessFetch(scheduled, result, options);
  CHECK(page.record.document().type() == "pdf");
  CHECK(page.record.document().error() == "document cut at 1000 bytes");

  // Not read by this crawl: nothing said about it.
  options.document_types_enabled.reset(0);
  page = crawl::fetcher::ProcessFetch(scheduled, result, options);
  CHECK(page.record.document().error().empty());
  // Whole: readable.
  options.document_types_enabled.set();
  result.truncated = false;
  page = crawl::fetcher::ProcessFetch(scheduled, result, options);
  CHECK(page.record.document().error().empty());
}

TEST_CASE("links naming a document type the crawl reads are not likely non-HTML", "[unit][documents]") {
  using crawl::fetcher::LikelyNonHtml;
  crawl::DocumentTypeSet all;
  all.set();
  CHECK(LikelyNonHtml("http://a.test/report.PDF"));  // no type read: as before
  CHECK_FALSE(LikelyNonHtml("http://a.test/report.PDF", all));
  CHECK_FALSE(LikelyNonHtml("http://a.test/news.rss", all));
  CHECK_FALSE(LikelyNonHtml("http://a.test/news.atom?x=1", all));
  CHECK(LikelyNonHtml("http://a.test/photo.jpg", all));  // never a document
  CHECK(LikelyNonHtml("http://a.test/old.doc", all));    // .doc is not read
  crawl::DocumentTypeSet feeds_only;
  feeds_only.set(crawl::kFeedDocumentType);
  CHECK(LikelyNonHtml("http://a.test/report.pdf", feeds_only));
  CHECK_FALSE(LikelyNonHtml("http://a.test/feed.rss", feeds_only));
  CHECK(crawl::fetcher::UrlDocumentType("http://a.test/b.Docx#x") == 1u);
  CHECK(crawl::fetcher::UrlDocumentType("http://a.test/feed.atom") == crawl::kFeedDocumentType);
  CHECK_FALSE(crawl::fetcher::UrlDocumentType("http://a.test/index.html"));
}
