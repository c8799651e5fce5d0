// Sitemaps: urlset, sitemapindex, gzip (fetcher/page/sitemap_processor.h), and
// their links through ProcessFetch (fetcher/page/page_processor.h).
#include "fetcher/page/sitemap_processor.h"

#include <catch2/catch.hpp>

#include "fetcher/page/page_processor.h"
#include "tests/unit/fetcher/fetch_test_util.h"

using namespace crawl::fetcher;
using crawl::fetcher::testing::Compress;

namespace {

const std::string kUrlset =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
    "xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n"
    "  <url><loc>http://a.test/one</loc><lastmod>2024-01-01</lastmod></url>\n"
    "  <url><loc>\n   http://a.test/two?x=1&amp;y=2\n  </loc>"
    "<image:image><image:loc>http://a.test/pic.jpg</image:loc></image:image></url>\n"
    "  <url><loc><![CDATA[http://a.test/three]]></loc></url>\n"
    "  <url><location>not a loc</location></url>\n"
    "</urlset>\n";

crawl::v1::ScheduledUrl Scheduled(const std::string& url) {
  crawl::v1::ScheduledUrl u;
  u.set_url(url);
  u.set_depth(1);
  return u;
}

FetchResult Ok(const std::string& url, std::string body, const std::string& mime) {
  FetchResult r;
  r.url = url;
  r.status = 200;
  r.body = std::move(body);
  r.mime_type = mime;
  r.content_type = mime;
  return r;
}

}  // namespace

TEST_CASE("urlset: every <loc> in order, decoded and trimmed; image:loc ignored", "[unit]") {
  CHECK(LooksLikeSitemap(kUrlset));
  const SitemapEntries e = ParseSitemap(kUrlset);
  CHECK_FALSE(e.is_index);
  CHECK(e.urls ==
        std::vector<std::string>{"http://a.test/one", "http://a.test/two?x=1&y=2", "http://a.test/three"});
}

TEST_CASE("sitemap index: entries are sitemaps", "[unit]") {
  const std::string index =
      "<?xml version='1.0'?><sitemapindex xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
      "<sitemap><loc>http://a.test/s1.xml</loc></sitemap><sitemap><loc>http://a.test/s2.xml.gz</loc></"
      "sitemap>"
      "</sitemapindex>";
  const SitemapEntries e = ParseSitemap(index);
  CHECK(e.is_index);
  CHECK(e.urls.size() == 2);
}

TEST_CASE("malformed sitemaps yield what can be read, capped at max_urls", "[unit]") {
  CHECK(ParseSitemap("<urlset><url><loc>http://a.test/x</loc><url><loc>http://a.test/y").urls.size() == 2);
  CHECK(ParseSitemap("<urlset><loc").urls.empty());
  std::string many = "<urlset>";
  for (int i = 0; i < 20; ++i) many += "<url><loc>http://a.test/" + std::to_string(i) + "</loc></url>";
  const auto capped = ParseSitemap(many, 5);
  CHECK(capped.urls.size() == 5);
  CHECK(capped.truncated);
  CHECK_FALSE(LooksLikeSitemap("<html><body>urlset</body></html>"));
}

TEST_CASE("gunzip: round trip, size cap against bombs, corrupt data, cut stream", "[unit]") {
  const std::string gz = Compress(kUrlset, 15 + 16);
  REQUIRE(IsGzip(gz));
  bool cut = false;
  auto plain = Gunzip(gz, kMaxSitemapBytes, &cut);
  REQUIRE(plain.ok());
  CHECK(*plain == kUrlset);
  CHECK_FALSE(cut);
  // A bomb: 20 MB of zeros compresses to ~20 KB; the cap stops it.
  const std::string bomb = Compress(std::string(20 * 1024 * 1024, '\0'), 15 + 16);
  auto capped = Gunzip(bomb, 1024 * 1024, &cut);
  REQUIRE(capped.ok());
  CHECK(capped->size() == 1024 * 1024);
  CHECK(cut);
  std::string corrupt = gz;
  corrupt[12] ^= 0x55;
  corrupt[13] ^= 0x55;
  corrupt[20] ^= 0x55;
  auto bad = Gunzip(corrupt, kMaxSitemapBytes, &cut);
  CHECK((!bad.ok() || *bad != kUrlset));
  auto half = Gunzip(gz.substr(0, gz.size() / 2), kMaxSitemapBytes, &cut);
  REQUIRE(half.ok());
  CHECK(cut);
  CHECK(kUrlset.starts_with(*half));
}

TEST_CASE("gunzip: an exact fit is not truncated, one byte more is; the first member only", "[unit]") {
  const std::string gz = Compress(kUrlset, 15 + 16);
  bool cut = true;
  auto exact = Gunzip(gz, kUrlset.size(), &cut);
  REQUIRE(exact.ok());
  CHECK(*exact == kUrlset);
  CHECK_FALSE(cut);
  auto over = Gunzip(gz, kUrlset.size() - 1, &cut);
  REQUIRE(over.ok());
  CHECK(*over == kUrlset.substr(0, kUrlset.size() - 1));
  CHECK(cut);
  // Whatever follows the first member (a second member, padding) is ignored.
  auto two = Gunzip(gz + Compress("<url><loc>http://b.test/</loc></url>", 15 + 16), kMaxSitemapBytes, &cut);
  REQUIRE(two.ok());
  CHECK(*two == kUrlset);
  CHECK_FALSE(cut);
  auto empty = Gunzip("", kMaxSitemapBytes, &cut);
  REQUIRE(empty.ok());
  CHECK(empty->empty());
  CHECK(cut);
}

TEST_CASE("sitemap fetches become links with from_sitemap and link_rank = position", "[unit]") {
  for (const auto& [body, mime] :
       std::vector<std::pair<std::string, std::string>>{{kUrlset, "application/xml"},
                                                        {kUrlset, "text/xml"},
                                                        {Compress(kUrlset, 15 + 16), "application/gzip"},
                                                        {Compress(kUrlset, 15 + 16), "application/x-gzip"},
                                                        {Compress(kUrlset, 15 + 16), "application/xml"}}) {
    INFO(mime);
    auto p =
        ProcessFetch(Scheduled("http://a.test/sitemap.xml"), Ok("http://a.test/sitemap.xml", body, mime), {});
    REQUIRE(p.links.size() == 3);
    for (uint32_t i = 0; i < 3; ++i) {
      CHECK(p.links[i].from_sitemap());
      CHECK(p.links[i].link_rank() == i);
      CHECK(p.links[i].links_on_page() == 3);
      CHECK(p.links[i].depth() == 2);
      CHECK(p.links[i].source() == "sitemap");
    }
    CHECK(p.links[1].url() == "http://a.test/two?x=1&y=2");
    CHECK(p.record.links_found() == 3);
  }
}

TEST_CASE("a corrupt gzip sitemap is an error in the record, not a crash", "[unit]") {
  std::string gz = Compress(kUrlset, 15 + 16);
  for (std::size_t i = 10; i < gz.size(); i += 3) gz[i] = static_cast<char>(gz[i] ^ 0xA5);
  auto p = ProcessFetch(Scheduled("http://a.test/s.xml.gz"),
                        Ok("http://a.test/s.xml.gz", gz, "application/gzip"), {});
  CHECK(p.links.size() <= 3);
}

TEST_CASE("robots.txt Sitemap lines become sitemap links", "[unit][rfc9309]") {
  crawl::v1::ScheduledUrl s = Scheduled("http://a.test/robots.txt");
  s.set_kind(crawl::v1::URL_KIND_ROBOTS);
  auto r = Ok("http://a.test/robots.txt",
              "User-agent: *\nDisallow: /x\nSitemap: http://a.test/sitemap.xml\n"
              "User-agent: other\nSitemap: /relative-map.xml\nsitemap: ftp://a.test/no\n",
              "text/plain");
  auto p = ProcessFetch(s, r, {});
  CHECK_FALSE(p.record.robots_body().empty());
  REQUIRE(p.links.size() == 2);
  CHECK(p.links[0].url() == "http://a.test/sitemap.xml");
  CHECK(p.links[1].url() == "http://a.test/relative-map.xml");
  CHECK(p.links[1].link_rank() == 1);
  CHECK(p.links[0].from_sitemap());
}
