// Feeds through page processing (fetcher/page/feed_processor.h via
// fetcher/page/page_processor.h ProcessFetch): the record of the feed and a
// link per item with its title and summary as anchor text.
#include "fetcher/page/feed_processor.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "common/text/packed_terms.h"
#include "fetcher/page/page_processor.h"

using namespace crawl::fetcher;

namespace {

std::string ReadVector(const std::string& name) {
  std::ifstream in(std::string(CRAWL_SOURCE_DIR) + "/tests/data/feeds/" + name, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ProcessedPage Process(const std::string& url, const std::string& body, const std::string& mime,
                      const ProcessOptions& options = {}) {
  crawl::v1::ScheduledUrl scheduled;
  scheduled.set_url(url);
  scheduled.set_depth(1);
  FetchResult result;
  result.url = url;
  result.status = 200;
  result.body = body;
  result.mime_type = mime;
  result.content_type = mime;
  return ProcessFetch(scheduled, result, options);
}

bool IndexHas(const crawl::v1::FetchRecord& record, const std::string& term) {
  crawl::v1::MiniIndex index = record.mini_index();
  REQUIRE(crawl::text::UnpackTerms(&index).ok());
  for (const auto& t : index.terms())
    if (t.term() == term) return true;
  return false;
}

}  // namespace

TEST_CASE("an RSS feed becomes a record of type feed and a link per item, in feed order", "[unit][feed]") {
  const ProcessedPage page = Process("http://liftoff.msfc.nasa.gov/rss.xml",
                                     ReadVector("rss2_spec_sample.xml"), "application/rss+xml");
  const auto& r = page.record;
  CHECK(r.title() == "Liftoff News");
  CHECK(r.document().type() == "feed");
  CHECK(r.document().author() == "editor@example.com");
  CHECK(r.document().modified_unix_s() == 1055238061);
  CHECK(r.language() == "en");
  REQUIRE(r.description_size() == 1);
  CHECK(r.description(0).text() == "Liftoff to Space Exploration.");
  CHECK(IndexHas(r, "laundri"));  // an item's words are in the feed's index (stemmed)
  REQUIRE(page.links.size() == 4);
  for (std::size_t i = 0; i < page.links.size(); ++i) {
    const auto& l = page.links[i];
    CHECK(l.source() == "feed");
    CHECK(l.link_rank() == i);
    CHECK(l.links_on_page() == 4);
    CHECK(l.depth() == 2);
    CHECK_FALSE(l.from_sitemap());
  }
  CHECK(page.links[0].url() == "http://liftoff.msfc.nasa.gov/news/2003/news-starcity.asp");
  CHECK(page.links[0].anchor_text().starts_with("Star City How do Americans get ready"));
  CHECK(page.links[1].url() == "http://liftoff.msfc.nasa.gov/2003/05/30.html");  // the guid, canonical
}

TEST_CASE("application/xml whose root is an Atom feed is read as a feed, a sitemap still as a sitemap",
          "[unit][feed]") {
  const ProcessedPage atom =
      Process("http://example.org/feed", ReadVector("atom_rfc4287_brief.xml"), "application/xml");
  CHECK(atom.record.document().type() == "feed");
  CHECK(atom.record.document().author() == "John Doe");
  REQUIRE(atom.links.size() == 1);
  CHECK(atom.links[0].url() == "http://example.org/2003/12/13/atom03");
  CHECK(atom.links[0].anchor_text() == "Atom-Powered Robots Run Amok Some text.");
  const ProcessedPage sitemap = Process("http://a.test/sitemap.xml",
                                        "<urlset><url><loc>http://a.test/x</loc></url></urlset>", "text/xml");
  CHECK(sitemap.sitemap);
  CHECK(sitemap.record.document().type().empty());
}

TEST_CASE("with feeds off a feed is read as before (markup scan), with no item links", "[unit][feed]") {
  ProcessOptions options;
  options.document_types_enabled.reset(crawl::kFeedDocumentType);
  const ProcessedPage page = Process("http://liftoff.msfc.nasa.gov/rss.xml",
                                     ReadVector("rss2_spec_sample.xml"), "application/rss+xml", options);
  CHECK(page.record.document().type().empty());
  for (const auto& l : page.links) CHECK(l.source() != "feed");
}

TEST_CASE("a feed's anchor texts are capped, its links at max_links", "[unit][feed]") {
  std::string xml = "<rss><channel><title>t</title>";
  for (int i = 0; i < 50; ++i)
    xml += "<item><title>item " + std::to_string(i) + "</title><link>/p" + std::to_string(i) +
           "</link><description>" + std::string(2000, 'w') + "</description></item>";
  xml += "</channel></rss>";
  ProcessOptions options;
  options.max_links = 10;
  const ProcessedPage page = Process("http://a.test/feed.rss", xml, "application/rss+xml", options);
  REQUIRE(page.links.size() == 10);
  CHECK(page.links[9].url() == "http://a.test/p9");
  for (const auto& l : page.links) CHECK(l.anchor_text().size() <= kMaxFeedAnchorBytes);
  CHECK(page.links[0].anchor_text().starts_with("item 0 www"));
}

TEST_CASE("a feed in another encoding is decoded first", "[unit][feed]") {
  const std::string xml =
      "<?xml version='1.0' encoding='iso-8859-1'?><rss><channel><title>Caf\xE9</title>"
      "<item><title>Cr\xE8me</title><link>http://a.test/c</link></item></channel></rss>";
  const ProcessedPage page = Process("http://a.test/f", xml, "application/rss+xml");
  CHECK(page.record.title() == "Caf\xC3\xA9");
  CHECK(page.record.charset() == "windows-1252");
  REQUIRE(page.links.size() == 1);
  CHECK(page.links[0].anchor_text() == "Cr\xC3\xA8me");
}
