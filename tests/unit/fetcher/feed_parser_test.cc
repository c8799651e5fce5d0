// RSS 2.0, RSS 1.0 and Atom 1.0 feeds (fetcher/page/feed_parser.h) on the
// specifications' own examples (tests/data/feeds/README.md), and hostile
// feeds: entity bombs, deep nesting, a million items.
#include "fetcher/page/feed_parser.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace crawl::fetcher;

namespace {

std::string ReadVector(const std::string& name) {
  std::ifstream in(std::string(CRAWL_SOURCE_DIR) + "/tests/data/feeds/" + name, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("the RSS 2.0 specification's sample feed: channel, items, links, HTML descriptions as text",
          "[unit][feed]") {
  const Feed feed = ParseFeed(ReadVector("rss2_spec_sample.xml"), "http://liftoff.msfc.nasa.gov/rss.xml", {});
  CHECK(feed.format == FeedFormat::kRss);
  CHECK(feed.error.empty());
  CHECK(feed.title == "Liftoff News");
  CHECK(feed.description == "Liftoff to Space Exploration.");
  CHECK(feed.language == "en-us");
  CHECK(feed.author == "editor@example.com");
  CHECK(feed.updated_unix_s == 1055238061);  // lastBuildDate Tue, 10 Jun 2003 09:41:01 GMT
  REQUIRE(feed.items.size() == 4);
  CHECK(feed.items[0].title == "Star City");
  CHECK(feed.items[0].link == "http://liftoff.msfc.nasa.gov/news/2003/news-starcity.asp");
  // The description's escaped <a> is markup, not text.
  CHECK(
      feed.items[0].summary ==
      "How do Americans get ready to work with Russians aboard the International Space Station? They take a "
      "crash course in culture, language and protocol at Russia's Star City.");
  // The second item has no title and no <link>: its permalink guid is the
  // link (resolved, so canonical: no fragment).
  CHECK(feed.items[1].title.empty());
  CHECK(feed.items[1].link == "http://liftoff.msfc.nasa.gov/2003/05/30.html");
  CHECK(feed.items[3].title == "Astronauts' Dirty Laundry");
}

TEST_CASE("the RSS 1.0 specification's sample: items outside the channel, namespaced elements",
          "[unit][feed]") {
  const Feed feed = ParseFeed(ReadVector("rss1_spec_sample.xml"), "http://www.xml.com/xml/news.rss", {});
  CHECK(feed.format == FeedFormat::kRdf);
  CHECK(feed.error.empty());
  CHECK(feed.title == "XML.com");
  CHECK(feed.description == "XML.com features a rich mix of information and services for the XML community.");
  REQUIRE(feed.items.size() == 2);  // not the image or the textinput
  CHECK(feed.items[0].title == "Processing Inclusions with XSLT");
  CHECK(feed.items[0].link == "http://xml.com/pub/2000/08/09/xslt/xslt.html");
  CHECK(feed.items[1].summary.starts_with("Tool and API support for the Resource Description Framework"));
}

TEST_CASE("RFC 4287's brief Atom feed: the link without rel, the summary, author and updated",
          "[unit][feed][rfc4287]") {
  const Feed feed = ParseFeed(ReadVector("atom_rfc4287_brief.xml"), "http://example.org/feed.atom", {});
  CHECK(feed.format == FeedFormat::kAtom);
  CHECK(feed.error.empty());
  CHECK(feed.title == "Example Feed");
  CHECK(feed.author == "John Doe");
  CHECK(feed.updated_unix_s == 1071340202);  // 2003-12-13T18:30:02Z
  REQUIRE(feed.items.size() == 1);
  CHECK(feed.items[0].title == "Atom-Powered Robots Run Amok");
  CHECK(feed.items[0].link == "http://example.org/2003/12/13/atom03");
  CHECK(feed.items[0].summary == "Some text.");
}

TEST_CASE("RFC 4287's extensive Atom feed: html subtitle, the alternate link, xhtml content as the summary",
          "[unit][feed][rfc4287]") {
  const Feed feed = ParseFeed(ReadVector("atom_rfc4287_extensive.xml"), "http://example.org/feed.atom", {});
  CHECK(feed.error.empty());
  CHECK(feed.title == "dive into mark");
  CHECK(feed.description == "A lot of effort went into making this effortless");
  CHECK(feed.updated_unix_s == 1122812969);  // 2005-07-31T12:29:29Z
  REQUIRE(feed.items.size() == 1);
  CHECK(feed.items[0].link == "http://example.org/2005/04/02/atom");  // not the enclosure
  CHECK(feed.items[0].summary == "[Update: The Atom draft is finished.]");
  CHECK(feed.author.empty());  // the entry's author is not the feed's
}

TEST_CASE("xml:base resolves Atom links, relative RSS links resolve against the feed URL", "[unit][feed]") {
  const Feed atom = ParseFeed(
      "<feed xmlns='http://www.w3.org/2005/Atom' xml:base='http://b.test/blog/' xml:lang='de-AT'>"
      "<entry xml:base='2024/'><title>Eins</title><link rel='alternate' href='one.html'/></entry>"
      "<entry><link rel='self' href='self'/><link href='/two'/></entry></feed>",
      "http://a.test/feed", {});
  CHECK(atom.language == "de-AT");
  REQUIRE(atom.items.size() == 2);
  CHECK(atom.items[0].link == "http://b.test/blog/2024/one.html");
  CHECK(atom.items[1].link == "http://b.test/two");
  const Feed rss = ParseFeed("<rss><channel><item><link> posts/1 </link></item></channel></rss>",
                             "http://a.test/feeds/main.rss", {});
  REQUIRE(rss.items.size() == 1);
  CHECK(rss.items[0].link == "http://a.test/feeds/posts/1");
}

TEST_CASE("the root element decides what is a feed", "[unit][feed]") {
  CHECK(SniffFeedRoot("<?xml version='1.0'?><!-- a > b --><rss version='2.0'>") == FeedFormat::kRss);
  CHECK(SniffFeedRoot("<?xml version='1.0'?>\n<rdf:RDF xmlns:rdf='x'>") == FeedFormat::kRdf);
  CHECK(SniffFeedRoot("<!DOCTYPE feed><feed xmlns='http://www.w3.org/2005/Atom'>") == FeedFormat::kAtom);
  CHECK_FALSE(SniffFeedRoot("<?xml version='1.0'?><urlset>"));
  CHECK_FALSE(SniffFeedRoot("<html><body><rss>"));
  const Feed html = ParseFeed("<html><item><link>http://a.test/</link></item></html>", "http://a.test/", {});
  CHECK(html.items.empty());
  CHECK_FALSE(html.error.empty());
}

TEST_CASE("a billion laughs stops at expat's amplification limit with nothing expanded",
          "[unit][feed][hostile]") {
  std::string xml = "<?xml version='1.0'?><!DOCTYPE rss [<!ENTITY l0 'hahahahahahahahahaha'>";
  for (int i = 1; i <= 12; ++i) {
    xml += "<!ENTITY l" + std::to_string(i) + " '";
    for (int k = 0; k < 10; ++k) xml += "&l" + std::to_string(i - 1) + ";";
    xml += "'>";
  }
  xml +=
      "]><rss><channel><title>&l12;</title><item><title>&l12;</title><link>http://a.test/x</link></item>"
      "</channel></rss>";
  const Feed feed = ParseFeed(xml, "http://a.test/", {});
  CHECK_FALSE(feed.error.empty());  // 20 * 10^12 bytes were never produced
  CHECK(feed.title.size() <= FeedLimits().max_field_bytes);
}

TEST_CASE("external entities are never loaded", "[unit][feed][hostile]") {
  const Feed feed = ParseFeed(
      "<?xml version='1.0'?><!DOCTYPE rss [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>"
      "<rss><channel><title>a&x;b</title></channel></rss>",
      "http://a.test/", {});
  CHECK(feed.title.find("root:") == std::string::npos);
}

TEST_CASE("nesting deeper than the limit stops the parse", "[unit][feed][hostile]") {
  std::string xml = "<rss><channel><item><title>kept</title><link>http://a.test/1</link></item>";
  for (int i = 0; i < 100'000; ++i) xml += "<x>";
  const Feed feed = ParseFeed(xml, "http://a.test/", {});
  CHECK(feed.truncated);
  CHECK(feed.error.find("nested deeper") != std::string::npos);
  REQUIRE(feed.items.size() == 1);
  CHECK(feed.items[0].title == "kept");
}

TEST_CASE("a million items: at most max_items are read", "[unit][feed][hostile]") {
  std::string xml = "<rss><channel><title>big</title>";
  xml.reserve(60'000'000);
  for (int i = 0; i < 1'000'000; ++i)
    xml += "<item><title>t</title><link>http://a.test/" + std::to_string(i) + "</link></item>";
  xml += "</channel></rss>";
  FeedLimits limits;
  limits.max_items = 300;
  const Feed feed = ParseFeed(xml, "http://a.test/", limits);
  CHECK(feed.items.size() == 300);
  CHECK(feed.truncated);
  CHECK(feed.items.back().link == "http://a.test/299");
}

TEST_CASE("a huge field is cut at max_field_bytes, a summary at max_summary_bytes", "[unit][feed][hostile]") {
  const std::string big(1'000'000, 'a');
  const Feed feed = ParseFeed("<rss><channel><title>" + big + "</title><item><description>" + big +
                                  "</description></item></channel></rss>",
                              "http://a.test/", {});
  CHECK(feed.title.size() == FeedLimits().max_field_bytes);
  REQUIRE(feed.items.size() == 1);
  CHECK(feed.items[0].summary.size() == FeedLimits().max_summary_bytes);
}

TEST_CASE("malformed XML keeps the items read before the error", "[unit][feed]") {
  const Feed feed = ParseFeed(
      "<rss><channel><item><title>one</title><link>http://a.test/1</link></item>"
      "<item><title>caf&eacute;</title></item></channel></rss>",
      "http://a.test/", {});
  CHECK(feed.error.find("undefined entity") != std::string::npos);
  REQUIRE_FALSE(feed.items.empty());
  CHECK(feed.items[0].link == "http://a.test/1");
}

TEST_CASE("feed dates: RFC 3339 and RSS's RFC 822", "[unit][feed]") {
  CHECK(ParseFeedDate("2003-12-13T18:30:02Z") == 1071340202);
  CHECK(ParseFeedDate("2003-12-13T18:30:02.25+01:00") == 1071340202 - 3600);
  CHECK(ParseFeedDate("2003-12-13") == 1071273600);
  CHECK(ParseFeedDate("Sat, 07 Sep 2002 00:00:01 GMT") == 1031356801);
  CHECK(ParseFeedDate("07 Sep 2002 00:00:01 +0200") == 1031356801 - 7200);
  CHECK(ParseFeedDate("Sat, 7 Sep 02 00:00 EST") == 1031356800 + 5 * 3600);
  CHECK_FALSE(ParseFeedDate("yesterday"));
  CHECK_FALSE(ParseFeedDate("2003-13-13T00:00:00Z"));
}
