// Directive parsers: robots meta / X-Robots-Tag (with agent prefixes and
// unavailable_after dates), the Link header (RFC 8288) and meta refresh
// (fetcher/page/robots_directives.h, fetcher/page/link_header.h), and what
// the HTML scan reports of the head (fetcher/page/html_links.h).
#include "fetcher/page/robots_directives.h"

#include <catch2/catch.hpp>

#include "fetcher/page/html_links.h"
#include "fetcher/page/link_header.h"

using crawl::fetcher::ParseDirectiveDate;
using crawl::fetcher::ParseLinkHeader;
using crawl::fetcher::ParseMetaRefresh;
using crawl::fetcher::ParseRobotsMeta;
using crawl::fetcher::ParseXRobotsTag;

namespace {
constexpr int64_t k2010Jun25_15h = 1277478000;  // 2010-06-25T15:00:00Z
}  // namespace

TEST_CASE("robots meta content: comma or space separated directives, none, nocache", "[unit][directives]") {
  auto d = ParseRobotsMeta("NoIndex, nofollow");
  CHECK(d.noindex);
  CHECK(d.nofollow);
  CHECK_FALSE(d.noarchive);
  d = ParseRobotsMeta("none");
  CHECK((d.noindex && d.nofollow));
  d = ParseRobotsMeta("nocache nosnippet");
  CHECK(d.noarchive);
  CHECK(d.nosnippet);
  d = ParseRobotsMeta(
      "all, max-snippet:50, max-image-preview:large, notranslate, noimageindex, indexifembedded");
  CHECK_FALSE((d.noindex || d.nofollow || d.noarchive || d.nosnippet));
  CHECK(d.unavailable_after_unix_s == 0);
}

TEST_CASE("unavailable_after in a robots meta, with the weekday's comma", "[unit][directives]") {
  CHECK(ParseRobotsMeta("noindex, unavailable_after: 2010-06-25T15:00:00Z").unavailable_after_unix_s ==
        k2010Jun25_15h);
  // RFC 850 with its weekday: the comma after "Friday" is not a separator.
  auto d = ParseRobotsMeta("unavailable_after: Friday, 25-Jun-10 07:00:00 PST, nosnippet");
  CHECK(d.unavailable_after_unix_s == k2010Jun25_15h);
  CHECK(d.nosnippet);
  // The earliest of two dates wins; a bad date is ignored.
  CHECK(ParseRobotsMeta("unavailable_after: 2030-01-01, unavailable_after: 2010-06-25T15:00:00Z")
            .unavailable_after_unix_s == k2010Jun25_15h);
  CHECK(ParseRobotsMeta("unavailable_after: next tuesday").unavailable_after_unix_s == 0);
}

TEST_CASE("directive dates: RFC 822, RFC 850, asctime, ISO 8601 with zones", "[unit][directives]") {
  CHECK(ParseDirectiveDate("25 Jun 2010 15:00:00 GMT") == k2010Jun25_15h);
  CHECK(ParseDirectiveDate("Fri, 25 Jun 2010 10:00:00 EST") == k2010Jun25_15h);
  CHECK(ParseDirectiveDate("25 Jun 2010 17:00:00 +0200") == k2010Jun25_15h);
  CHECK(ParseDirectiveDate("Friday, 25-Jun-10 15:00:00 GMT") == k2010Jun25_15h);
  CHECK(ParseDirectiveDate("Fri Jun 25 15:00:00 2010") == k2010Jun25_15h);
  CHECK(ParseDirectiveDate("2010-06-25T15:00:00Z") == k2010Jun25_15h);
  CHECK(ParseDirectiveDate("2010-06-25T17:00:00+02:00") == k2010Jun25_15h);
  CHECK(ParseDirectiveDate("2010-06-25T15:00:00.250Z") == k2010Jun25_15h);
  CHECK(ParseDirectiveDate("2010-06-25") == k2010Jun25_15h - 15 * 3600);
  CHECK_FALSE(ParseDirectiveDate("2010-13-25").has_value());
  CHECK_FALSE(ParseDirectiveDate("25 Foo 2010").has_value());
  CHECK_FALSE(ParseDirectiveDate("").has_value());
  CHECK_FALSE(ParseDirectiveDate("2010-06-25T15:00:00 junk").has_value());
}

TEST_CASE("X-Robots-Tag: unprefixed for all, an agent prefix for that agent only", "[unit][directives]") {
  auto d = ParseXRobotsTag("noindex, nofollow", "crawlbot");
  CHECK((d.noindex && d.nofollow));
  d = ParseXRobotsTag("googlebot: noindex, nofollow", "crawlbot");
  CHECK_FALSE((d.noindex || d.nofollow));  // both scoped to googlebot
  d = ParseXRobotsTag("CrawlBot: noindex", "crawlbot");
  CHECK(d.noindex);
  // The prefix scopes up to the next one: nosnippet is otherbot's.
  d = ParseXRobotsTag("crawlbot: noarchive, otherbot: nosnippet", "crawlbot");
  CHECK(d.noarchive);
  CHECK_FALSE(d.nosnippet);
  // Several fields (one per line): a prefix does not reach into the next.
  d = ParseXRobotsTag("googlebot: noindex\nnofollow", "crawlbot");
  CHECK_FALSE(d.noindex);
  CHECK(d.nofollow);
  // Without a product token only unprefixed directives apply.
  CHECK_FALSE(ParseXRobotsTag("crawlbot: noindex", "").noindex);
  // unavailable_after is a directive, not an agent; behind an agent prefix too.
  CHECK(ParseXRobotsTag("unavailable_after: 25 Jun 2010 15:00:00 GMT", "x").unavailable_after_unix_s ==
        k2010Jun25_15h);
  CHECK(ParseXRobotsTag("crawlbot: unavailable_after: 2010-06-25T15:00:00Z", "crawlbot")
            .unavailable_after_unix_s == k2010Jun25_15h);
  CHECK(ParseXRobotsTag("otherbot: unavailable_after: 2010-06-25T15:00:00Z", "crawlbot")
            .unavailable_after_unix_s == 0);
  d = ParseXRobotsTag("max-snippet: 20, max-image-preview: none, none", "crawlbot");
  CHECK((d.noindex && d.nofollow));
}

TEST_CASE("Link header: several links, quoted parameters with commas, first rel wins", "[unit][directives]") {
  const auto links = ParseLinkHeader(
      "<https://a.test/x,y>; rel=\"canonical\", <https://a.test/de>; rel=alternate; hreflang=\"DE\"; "
      "title=\"a, b; c\", <https://a.test/fr>;rel=\"alternate\";hreflang=fr;rel=canonical");
  REQUIRE(links.size() == 3);
  CHECK(links[0].target == "https://a.test/x,y");
  CHECK(links[0].rel == "canonical");
  CHECK(links[1].target == "https://a.test/de");
  CHECK(links[1].rel == "alternate");
  CHECK(links[1].hreflang == "de");
  CHECK(links[2].rel == "alternate");  // a second rel is ignored (RFC 8288 3.3)
  CHECK(links[2].hreflang == "fr");
  CHECK(crawl::fetcher::RelHas("prev Canonical", "canonical"));
  CHECK_FALSE(crawl::fetcher::RelHas("canonicalx", "canonical"));
}

TEST_CASE("Link header: malformed links are skipped, the rest kept, bounded", "[unit][directives]") {
  auto links = ParseLinkHeader("junk; rel=canonical, <https://a.test/ok>; rel=next, <unclosed; rel=x");
  REQUIRE(links.size() == 1);
  CHECK(links[0].target == "https://a.test/ok");
  CHECK(ParseLinkHeader("<a>, <b>, <c>", 2).size() == 2);
  CHECK(ParseLinkHeader("").empty());
  CHECK(ParseLinkHeader("<https://a.test/q>; rel=\"canon\\\"ical\"")[0].rel == "canon\"ical");
}

TEST_CASE("meta refresh: delay and URL in the forms browsers read", "[unit][directives]") {
  auto r = ParseMetaRefresh("0; url=https://a.test/next");
  REQUIRE(r);
  CHECK(r->delay_seconds == 0);
  CHECK(r->url == "https://a.test/next");
  r = ParseMetaRefresh(" 5 ;URL = '/quoted page' ");
  REQUIRE(r);
  CHECK(r->delay_seconds == 5);
  CHECK(r->url == "/quoted page");
  r = ParseMetaRefresh("3,/bare");
  REQUIRE(r);
  CHECK(r->url == "/bare");
  CHECK_FALSE(ParseMetaRefresh("30"));  // a reload, no URL
  CHECK_FALSE(ParseMetaRefresh("soon; url=/x"));
  CHECK_FALSE(ParseMetaRefresh(""));
}

TEST_CASE("the HTML scan reports head canonical, hreflang alternates and refresh", "[unit][directives]") {
  const auto page = crawl::html::ExtractLinks(
      "<html><head><meta http-equiv=Refresh content='0; url=/moved'>"
      "<link rel=canonical href=' /canon?a=1&amp;b=2 '><link rel=canonical href=/second>"
      "<link rel='alternate' hreflang='DE-de' href='/de'><link rel=alternate href=/feed.xml>"
      "<meta name=robots content='noindex, unavailable_after: 2010-06-25T15:00:00Z'>"
      "</head><body><link rel=alternate hreflang=fr href=/fr-in-body><p>text</body></html>");
  CHECK(page.canonical_href == "/canon?a=1&b=2");
  REQUIRE(page.alternates.size() == 1);  // no hreflang: not an alternate; the body's is ignored
  CHECK(page.alternates[0] == std::pair<std::string, std::string>("de-de", "/de"));
  CHECK(page.refresh == "0; url=/moved");
  CHECK(page.noindex);
  CHECK(page.unavailable_after_unix_s == k2010Jun25_15h);
}

TEST_CASE("a canonical link after the head's end (text, <body>, a link) is ignored", "[unit][directives]") {
  CHECK(crawl::html::ExtractLinks("<title>t</title>text<link rel=canonical href=/c>").canonical_href.empty());
  CHECK(crawl::html::ExtractLinks("<body><link rel=canonical href=/c>").canonical_href.empty());
  CHECK(crawl::html::ExtractLinks("<a href=/x>x</a><link rel=canonical href=/c>").canonical_href.empty());
  CHECK(crawl::html::ExtractLinks("<!doctype html>\n<link rel=canonical href=/c>").canonical_href == "/c");
  crawl::html::ExtractOptions options;
  options.max_alternates = 1;
  CHECK(crawl::html::ExtractLinks(
            "<link rel=alternate hreflang=a href=/a><link rel=alternate hreflang=b href=/b>", options)
            .alternates.size() == 1);
}
