// `crawlctl page` report (fetcher/page/page_report.h).
#include "fetcher/page/page_report.h"

#include <boost/json.hpp>
#include <catch2/catch.hpp>

using namespace crawl::fetcher;

TEST_CASE("page report: MIME type from the file extension", "[unit]") {
  CHECK(GuessMime("a/b/page.HTML") == "text/html");
  CHECK(GuessMime("notes.txt") == "text/plain");
  CHECK(GuessMime("sitemap.xml") == "application/xml");
  CHECK(GuessMime("sitemap.xml.gz") == "application/gzip");
  CHECK(GuessMime("noextension") == "text/html");
}

TEST_CASE("page report: one JSON object with the record and the links", "[unit]") {
  LocalPage page;
  page.url = "HTTP://A.test/dir/";
  page.file_name = "p.html";
  page.body = "<title>T \"q\"</title><p>Some words here.</p><a href=x>X link</a>";
  auto json = PageReportJson(page);
  REQUIRE(json.ok());
  CHECK(json->starts_with("{\"url\":\"http://a.test/dir/\",\"kind\":\"page\",\"mime_type\":\"text/html\""));
  CHECK(json->find("\"title\":\"T \\\"q\\\"\"") != std::string::npos);
  CHECK(json->find("\"links\":[{\"url\":\"http://a.test/dir/x\"") != std::string::npos);
  CHECK(json->find("\"mini_index\":") != std::string::npos);
  // Each link names its page, as the queue server reads it (ProcessFetch
  // leaves the referrer to the batcher).
  CHECK(json->find("\"referrer\":\"http://a.test/dir/\"") != std::string::npos);
  CHECK(json->back() == '}');
}

TEST_CASE("page report: valid JSON whatever the page and the flags hold", "[unit]") {
  LocalPage page;
  page.url = "http://a.test/";
  page.mime = "text/html";
  page.charset = "x\"y\\z\x01\xff";  // --charset goes into content_type as given
  page.body = "<title>tab\there \"q\" \\ \x02</title><a href=\"/a%22b\">L</a>";
  auto json = PageReportJson(page);
  REQUIRE(json.ok());
  boost::json::error_code ec;
  const boost::json::value v = boost::json::parse(*json, ec);  // strict: valid UTF-8
  REQUIRE_FALSE(ec);
  CHECK(v.at("content_type").as_string() == "text/html; charset=x\"y\\z\x01\xef\xbf\xbd");
  CHECK(v.at("record").is_object());
  CHECK(v.at("record").at("title").as_string().starts_with("tab"));
  CHECK(v.at("links").at(0).at("referrer").as_string() == "http://a.test/");
}

TEST_CASE("page report: robots.txt URLs are robots fetches; bad URLs are errors", "[unit]") {
  LocalPage robots;
  robots.url = "http://a.test/robots.txt";
  robots.mime = "text/plain";
  robots.body = "Sitemap: http://a.test/s.xml\n";
  auto json = PageReportJson(robots);
  REQUIRE(json.ok());
  CHECK(json->find("\"kind\":\"robots\"") != std::string::npos);
  CHECK(json->find("\"from_sitemap\":true") != std::string::npos);
  LocalPage bad;
  bad.url = "ftp://a.test/";
  CHECK_FALSE(PageReportJson(bad).ok());
  bad.url = "relative/path";
  CHECK_FALSE(PageReportJson(bad).ok());
}
