// Documents in ProcessFetch (fetcher/page/document_processor.h): a PDF or
// Office file becomes a record with title, language, description, mini
// index and links, parsed in the document worker; one that cannot be read
// is recorded with document.error and nothing indexed.
#include "fetcher/page/document_processor.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "fetcher/document/worker_client.h"
#include "fetcher/page/page_processor.h"

using crawl::fetcher::DocumentParser;
using crawl::fetcher::FetchResult;
using crawl::fetcher::ProcessFetch;
using crawl::fetcher::ProcessOptions;

namespace {

std::string TestDocument(const std::string& name) {
  std::ifstream in(std::string(CRAWL_SOURCE_DIR) + "/tests/data/documents/" + name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const DocumentParser& Parser() {
  static const DocumentParser* parser = [] {
    crawl::fetcher::DocumentParserOptions options;
    options.executable = CRAWL_FETCHER_BINARY;
    options.timeout = std::chrono::seconds(20);
    return new DocumentParser(options);
  }();
  return *parser;
}

crawl::fetcher::ProcessedPage Process(const std::string& url, const std::string& mime,
                                      const std::string& body, bool truncated = false) {
  crawl::v1::ScheduledUrl scheduled;
  scheduled.set_url(url);
  scheduled.set_depth(1);
  scheduled.set_kind(crawl::v1::URL_KIND_PAGE);
  FetchResult r;
  r.url = url;
  r.status = 200;
  r.body = body;
  r.mime_type = mime;
  r.truncated = truncated;
  ProcessOptions options;
  options.document_parser = &Parser();
  return ProcessFetch(scheduled, r, options);
}

}  // namespace

TEST_CASE("A PDF becomes a record with title, text index, language and links", "[document_processor]") {
  const auto page =
      Process("http://docs.test/licences/gpl.pdf", "application/pdf", TestDocument("gpl_preamble.pdf"));
  const auto& r = page.record;
  CHECK(r.status() == 200);
  CHECK(r.title() == "GNU General Public License Preamble");
  CHECK(r.document().type() == "pdf");
  CHECK(r.document().error().empty());
  CHECK(r.document().author() == "Free Software Foundation");
  CHECK(r.language() == "en");
  CHECK_FALSE(r.description().empty());
  CHECK(r.text_hash() != 0);
  CHECK(r.has_mini_index());
  bool gnu = false;
  for (const auto& l : page.links) {
    CHECK(l.source() == "document");
    CHECK(l.depth() == 2);
    CHECK(l.links_on_page() == page.links.size());
    if (l.url() == "https://www.gnu.org/licenses/gpl-3.0.html") gnu = true;
  }
  CHECK(gnu);
}

TEST_CASE("A document served as octet-stream is known by its URL's extension", "[document_processor]") {
  const auto page = Process("http://docs.test/a/apache.docx", "application/octet-stream",
                            TestDocument("apache_definitions.docx"));
  CHECK(page.record.document().type() == "docx");
  CHECK(page.record.title() == "Apache License Definitions");
}

TEST_CASE("A document without a title is named by its URL's file name", "[document_processor]") {
  const auto page =
      Process("http://docs.test/x/bsd_notice.pdf?v=2", "application/pdf", TestDocument("bsd_notice.pdf"));
  CHECK(page.record.title() == "bsd_notice.pdf");
  CHECK(page.record.has_mini_index());
}

TEST_CASE("A cut document is not parsed and says where it was cut", "[document_processor]") {
  const std::string body = TestDocument("gpl_preamble.pdf").substr(0, 1000);
  const auto page = Process("http://docs.test/cut.pdf", "application/pdf", body, true);
  CHECK(page.record.document().error() == "document cut at 1000 bytes (max_document_bytes)");
  CHECK_FALSE(page.record.has_mini_index());
  CHECK(page.record.title().empty());
}

TEST_CASE("A broken document is recorded with its error and nothing indexed", "[document_processor]") {
  const auto page = Process("http://docs.test/broken.pdf", "application/pdf", "%PDF-1.4\nnot a pdf at all");
  CHECK(page.record.status() == 200);
  CHECK(page.record.document().type() == "pdf");
  CHECK_FALSE(page.record.document().error().empty());
  CHECK_FALSE(page.record.has_mini_index());
  CHECK(page.links.empty());
}
