// ProcessFetch with a page's statements about itself: X-Robots-Tag,
// rel=canonical, hreflang alternates, meta refresh
// (fetcher/page/page_directives.h).
#include "fetcher/page/page_directives.h"

#include <catch2/catch.hpp>

using crawl::fetcher::FetchResult;
using crawl::fetcher::ProcessedPage;
using crawl::fetcher::ProcessFetch;
using crawl::fetcher::ProcessOptions;

namespace {

const std::string kUrl = "http://a.test/dir/page.html";

crawl::v1::ScheduledUrl Scheduled() {
  crawl::v1::ScheduledUrl u;
  u.set_url(kUrl);
  u.set_depth(1);
  u.set_kind(crawl::v1::URL_KIND_PAGE);
  return u;
}

FetchResult Fetched(const std::string& body, const std::string& mime = "text/html") {
  FetchResult r;
  r.url = kUrl;
  r.status = 200;
  r.body = body;
  r.mime_type = mime;
  r.content_type = mime;
  return r;
}

ProcessedPage Process(const FetchResult& r, const std::string& token = "crawlbot") {
  ProcessOptions options;
  options.robots_meta_token = token;
  return ProcessFetch(Scheduled(), r, options);
}

std::vector<std::string> LinksFrom(const ProcessedPage& p, const std::string& source) {
  std::vector<std::string> out;
  for (const auto& l : p.links) {
    if (l.source() == source) out.push_back(l.url());
  }
  return out;
}

const std::string kPage =
    "<html><head><title>T</title></head><body><p>words here</p><a href=/x>x</a></body></html>";

}  // namespace

TEST_CASE("X-Robots-Tag noindex, noarchive, nosnippet reach the record of any type", "[unit][directives]") {
  FetchResult html = Fetched(kPage);
  html.x_robots_tag = "noindex, noarchive\nnosnippet";
  auto p = Process(html);
  CHECK(p.record.noindex());
  CHECK(p.record.noarchive());
  CHECK(p.record.nosnippet());
  CHECK_FALSE(p.record.nofollow());
  CHECK(LinksFrom(p, "a").size() == 1);

  FetchResult text = Fetched("plain words", "text/plain");
  text.x_robots_tag = "crawlbot: noindex";
  CHECK(Process(text).record.noindex());
  CHECK_FALSE(Process(text, "otherbot").record.noindex());
  CHECK_FALSE(Process(Fetched("plain words", "text/plain")).record.noindex());

  FetchResult pdf = Fetched("%PDF-1.4", "application/pdf");
  pdf.x_robots_tag = "none";
  CHECK(Process(pdf).record.noindex());
}

TEST_CASE("X-Robots-Tag nofollow drops the page's links like a robots meta nofollow", "[unit][directives]") {
  REQUIRE(Process(Fetched(kPage)).links.size() == 1);
  FetchResult r = Fetched(kPage);
  r.x_robots_tag = "nofollow";
  auto p = Process(r);
  CHECK(p.record.nofollow());
  CHECK(p.links.empty());
}

TEST_CASE("unavailable_after from the header and the meta: the earliest", "[unit][directives]") {
  FetchResult r = Fetched(kPage);
  r.x_robots_tag = "unavailable_after: 25 Jun 2010 15:00:00 GMT";
  CHECK(Process(r).record.unavailable_after_unix_s() == 1277478000);
  r = Fetched("<meta name=robots content='unavailable_after: 2010-06-24'>" + kPage);
  CHECK(Process(r).record.unavailable_after_unix_s() == 1277337600);
  r.x_robots_tag = "unavailable_after: 2030-01-01";
  CHECK(Process(r).record.unavailable_after_unix_s() == 1277337600);
}

TEST_CASE("rel=canonical in the head names another URL: record and a canonical link", "[unit][directives]") {
  auto p =
      Process(Fetched("<head><base href='http://a.test/b/'><link rel=canonical href='c.html#frag'></head>"));
  CHECK(p.record.canonical_url() == "http://a.test/b/c.html");
  CHECK(LinksFrom(p, "canonical") == std::vector<std::string>{"http://a.test/b/c.html"});
  CHECK(p.links.back().link_rank() == 0);
  // Naming itself (after normalisation) is no canonical.
  p = Process(Fetched("<link rel=canonical href='HTTP://A.test:80/dir/./page.html'>"));
  CHECK(p.record.canonical_url().empty());
  CHECK(LinksFrom(p, "canonical").empty());
}

TEST_CASE("rel=canonical in the Link header, for any type; the HTML one wins", "[unit][directives]") {
  FetchResult pdf = Fetched("%PDF-1.4", "application/pdf");
  pdf.link = "<http://a.test/next>; rel=next, </doc.pdf>; rel=\"canonical\"";
  auto p = Process(pdf);
  CHECK(p.record.canonical_url() == "http://a.test/doc.pdf");
  CHECK(LinksFrom(p, "canonical") == std::vector<std::string>{"http://a.test/doc.pdf"});
  FetchResult html = Fetched("<link rel=canonical href=/from-html>");
  html.link = "</from-header>; rel=canonical";
  CHECK(Process(html).record.canonical_url() == "http://a.test/from-html");
}

TEST_CASE("hreflang alternates from head and header: record, links, deduplicated", "[unit][directives]") {
  FetchResult r = Fetched(
      "<head><link rel=alternate hreflang=de href=/de/page.html>"
      "<link rel=alternate hreflang=en href=/dir/page.html></head>");
  r.link =
      "</fr/page.html>; rel=\"alternate\"; hreflang=\"fr\", </de/page.html>; rel=alternate; hreflang=de, "
      "</bad>; rel=alternate; hreflang=\"\xff\xfe\"";
  auto p = Process(r);
  REQUIRE(p.record.alternates_size() == 3);
  CHECK(p.record.alternates(0).language() == "de");
  CHECK(p.record.alternates(0).url() == "http://a.test/de/page.html");
  CHECK(p.record.alternates(1).language() == "en");
  CHECK(p.record.alternates(2).language() == "fr");
  // The page itself is no link to queue.
  CHECK(LinksFrom(p, "hreflang") ==
        std::vector<std::string>{"http://a.test/de/page.html", "http://a.test/fr/page.html"});
}

TEST_CASE("hreflang alternates are capped", "[unit][directives]") {
  FetchResult r = Fetched("");
  for (int i = 0; i < 80; ++i) {
    if (!r.link.empty()) r.link += ", ";
    r.link += "</l" + std::to_string(i) + ">; rel=alternate; hreflang=x" + std::to_string(i);
  }
  CHECK(Process(r).record.alternates_size() == static_cast<int>(crawl::fetcher::kMaxAlternates));
}

TEST_CASE("meta refresh with delay 0 is a redirect page: redirect_url, a link, not indexed",
          "[unit][directives]") {
  auto p = Process(Fetched("<meta http-equiv=refresh content='0; url=../moved.html'>"));
  CHECK(p.record.redirect_url() == "http://a.test/moved.html");
  CHECK(LinksFrom(p, "refresh") == std::vector<std::string>{"http://a.test/moved.html"});
  CHECK(p.record.noindex());
  // A later refresh: a link and redirect_url, but the page is a page.
  p = Process(Fetched("<meta http-equiv=refresh content='30; url=/later'>" + kPage));
  CHECK(p.record.redirect_url() == "http://a.test/later");
  CHECK_FALSE(p.record.noindex());
  // A reload of the page itself is nothing.
  p = Process(Fetched("<meta http-equiv=refresh content='0'>" + kPage));
  CHECK(p.record.redirect_url().empty());
  CHECK_FALSE(p.record.noindex());
}

TEST_CASE("directive links stay under a robots nofollow", "[unit][directives]") {
  auto p = Process(
      Fetched("<head><meta name=robots content=nofollow><link rel=canonical href=/c></head>" + kPage));
  CHECK(LinksFrom(p, "a").empty());
  CHECK(LinksFrom(p, "canonical") == std::vector<std::string>{"http://a.test/c"});
}
