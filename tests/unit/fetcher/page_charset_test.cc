// Encodings through the page processors: HTML and plain text are decoded as
// browsers decode them and the record names the encoding
// (fetcher/page/charset.h); sitemaps are UTF-8 (sitemaps.org)
// but one that declares another encoding is read in it, invalid bytes are
// U+FFFD and counted (fetcher/page/sitemap_processor.h); robots.txt is UTF-8
// (RFC 9309 2.2): a BOM is skipped and no byte breaks its parsing
// (common/url/robots.h).
#include <catch2/catch.hpp>

#include "common/url/robots.h"
#include "fetcher/page/charset.h"
#include "fetcher/page/page_processor.h"
#include "fetcher/page/sitemap_processor.h"
#include "tests/unit/fetcher/fetch_test_util.h"

using namespace crawl::fetcher;
using crawl::fetcher::testing::Compress;

namespace {

struct Scanned {
  SitemapScan scan;
  std::vector<std::string> urls;
};

Scanned Scan(const std::string& body, std::string_view header_charset = {}) {
  Scanned out;
  auto scan = ScanSitemap(
      body, {}, [&](std::string&& u) { out.urls.push_back(std::move(u)); }, header_charset);
  REQUIRE(scan.ok());
  out.scan = *scan;
  return out;
}

bool AllValid(const std::vector<std::string>& urls) {
  for (const std::string& u : urls) {
    if (ValidUtf8Prefix(u) != u.size()) return false;
  }
  return true;
}

// "Привет" in UTF-8.
const std::string kPrivet = "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82";

ProcessedPage Fetched(const std::string& body, const std::string& content_type, const std::string& mime) {
  crawl::v1::ScheduledUrl scheduled;
  scheduled.set_url("http://a.test/page");
  FetchResult r;
  r.url = scheduled.url();
  r.status = 200;
  r.body = body;
  r.content_type = content_type;
  r.mime_type = mime;
  return ProcessFetch(scheduled, r, {});
}

}  // namespace

TEST_CASE("legacy-encoded pages reach the record decoded, with the standard's name", "[unit]") {
  // "日本語" in Shift_JIS: labelled in a meta, in the header, and not at all.
  const std::string sjis = "\x93\xFA\x96\x7B\x8C\xEA";
  const std::string utf8 = "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E";
  const std::string page = "<html><head><meta charset=x-sjis><title>" + sjis + "</title></head><body><p>" +
                           sjis + "</p><a href=/x>" + sjis + "</a></body></html>";
  const ProcessedPage meta = Fetched(page, "text/html", "text/html");
  CHECK(meta.record.charset() == "shift_jis");
  CHECK(meta.record.invalid_bytes() == 0);
  CHECK(meta.record.title() == utf8);
  REQUIRE(meta.links.size() == 1);
  CHECK(meta.links[0].anchor_text() == utf8);
  CHECK(Fetched(page, "text/html; charset=EUC-JP", "text/html").record.charset() == "euc-jp");
  // Plain text has no meta: the header, else the detector (KOI8-R prose).
  const std::string koi8 =
      "\xf0\xd2\xc9\xd7\xc5\xd4, \xcd\xc9\xd2! \xfc\xd4\xcf \xd4\xc5\xd3\xd4\xcf\xd7\xd9\xca "
      "\xd4\xc5\xcb\xd3\xd4 \xce\xc1 \xd2\xd5\xd3\xd3\xcb\xcf\xcd \xd1\xda\xd9\xcb\xc5, "
      "\xcb\xcf\xd4\xcf\xd2\xd9\xca \xce\xc9\xcb\xd4\xcf \xce\xc5 \xd0\xcf\xcd\xc5\xd4\xc9\xcc "
      "\xd7 \xcb\xcf\xc4\xc9\xd2\xcf\xd7\xcb\xd5.";
  const ProcessedPage text = Fetched(koi8, "text/plain", "text/plain");
  CHECK(text.record.charset() == "koi8-r");
  CHECK(text.record.invalid_bytes() == 0);
  CHECK(Fetched(koi8, "text/plain; charset=windows-1251", "text/plain").record.charset() == "windows-1251");
}

TEST_CASE("a sitemap declaring windows-1251 or Shift_JIS is read in it", "[unit]") {
  const Scanned cyrillic = Scan(
      "<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<urlset><url><loc>http://a.test/"
      "\xCF\xF0\xE8\xE2\xE5\xF2</loc></url></urlset>");
  CHECK(cyrillic.scan.charset == "windows-1251");
  CHECK(cyrillic.scan.invalid_bytes == 0);
  REQUIRE(cyrillic.urls.size() == 1);
  CHECK(cyrillic.urls[0] == "http://a.test/" + kPrivet);
  // "日本" in Shift_JIS, gzip'd.
  const Scanned japanese = Scan(Compress(
      "<?xml version='1.0' encoding='Shift_JIS'?><urlset><url><loc>http://a.test/\x93\xFA\x96\x7B</loc></url>"
      "</urlset>",
      15 + 16));
  CHECK(japanese.scan.charset == "shift_jis");
  REQUIRE(japanese.urls.size() == 1);
  CHECK(japanese.urls[0] == "http://a.test/\xE6\x97\xA5\xE6\x9C\xAC");
}

TEST_CASE("a sitemap's BOM, then its Content-Type charset, then its declaration name the encoding",
          "[unit]") {
  std::string utf16 = "\xFF\xFE";
  for (char c : std::string("<urlset><url><loc>http://a.test/x</loc></url></urlset>")) {
    utf16.push_back(c);
    utf16.push_back('\0');
  }
  const Scanned bom = Scan(utf16, "iso-8859-1");
  CHECK(bom.scan.charset == "utf-16le");
  CHECK(bom.urls == std::vector<std::string>{"http://a.test/x"});
  const std::string declared_latin1 =
      "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><urlset><url><loc>http://a.test/"
      "\xCF\xF0\xE8</loc></url></urlset>";
  CHECK(Scan(declared_latin1).urls[0] == "http://a.test/\xC3\x8F\xC3\xB0\xC3\xA8");  // as declared
  CHECK(Scan(declared_latin1, "koi8-r").scan.charset == "koi8-r");                   // the header wins
  CHECK(Scan(declared_latin1, "bogus").scan.charset == "windows-1252");  // not a label: passed over
}

TEST_CASE("invalid bytes in a UTF-8 sitemap are U+FFFD and counted; every URL is valid UTF-8", "[unit]") {
  const Scanned s = Scan(
      "<urlset><url><loc>http://a.test/caf\xE9</loc></url><url><loc>http://a.test/\xFF\xFE"
      "</loc></url></urlset>");
  CHECK(s.scan.charset == "utf-8");
  CHECK(s.scan.invalid_bytes == 3);
  REQUIRE(s.urls.size() == 2);
  CHECK(s.urls[0] == "http://a.test/caf\xEF\xBF\xBD");
  CHECK(AllValid(s.urls));
  crawl::v1::ScheduledUrl scheduled;
  scheduled.set_url("http://a.test/sitemap.xml");
  FetchResult r;
  r.url = scheduled.url();
  r.status = 200;
  r.body = "<urlset><url><loc>http://a.test/caf\xE9</loc></url></urlset>";
  r.mime_type = r.content_type = "application/xml";
  const ProcessedPage p = ProcessFetch(scheduled, r, {});
  CHECK(p.record.charset() == "utf-8");
  CHECK(p.record.invalid_bytes() == 1);
  REQUIRE(p.links.size() == 1);
  CHECK(ValidUtf8Prefix(p.links[0].url()) == p.links[0].url().size());
}

TEST_CASE("a multi-byte sitemap larger than a scan step keeps every URL whole", "[unit]") {
  // Characters straddle the 64 KiB pieces the scanner reads.
  std::string body = "<?xml version=\"1.0\" encoding=\"euc-jp\"?>\n<urlset>";
  std::vector<std::string> want;
  for (int i = 0; i < 5000; ++i) {
    body += "<url><loc>http://a.test/" + std::to_string(i) + "/\xC6\xFC\xCB\xDC\xB8\xEC</loc></url>\n";
    want.push_back("http://a.test/" + std::to_string(i) + "/\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E");
  }
  body += "</urlset>";
  REQUIRE(body.size() > 3 * kSitemapChunkBytes);
  const Scanned s = Scan(body);
  CHECK(s.scan.charset == "euc-jp");
  CHECK(s.scan.invalid_bytes == 0);
  CHECK(s.urls == want);
}

TEST_CASE("robots.txt: a BOM is skipped and stray bytes break no rule", "[unit][rfc9309]") {
  const std::string body =
      "\xEF\xBB\xBFUser-agent: *\n"
      "Disallow: /caf\xE9\n"      // Latin-1, not UTF-8
      "# comment \xFF\xFE\x80\n"  // noise
      "Disallow: /\xE6\x97\xA5\n"
      "Sitemap: http://a.test/s\xE9.xml\n";
  const crawl::robots::RobotsRules rules = crawl::robots::Parse(body, "crawlbot");
  CHECK_FALSE(rules.IsAllowed("/caf\xE9"));
  CHECK_FALSE(rules.IsAllowed("/caf%E9"));
  CHECK(rules.IsAllowed("/cafe"));
  CHECK_FALSE(rules.IsAllowed("/%E6%97%A5/x"));
  CHECK(rules.IsAllowed("/other"));
  // Through the fetcher: the sitemap link is a valid (percent-encoded) URL.
  crawl::v1::ScheduledUrl scheduled;
  scheduled.set_url("http://a.test/robots.txt");
  scheduled.set_kind(crawl::v1::URL_KIND_ROBOTS);
  FetchResult r;
  r.url = scheduled.url();
  r.status = 200;
  r.body = body;
  r.mime_type = r.content_type = "text/plain";
  const ProcessedPage p = ProcessFetch(scheduled, r, {});
  REQUIRE(p.links.size() == 1);
  CHECK(ValidUtf8Prefix(p.links[0].url()) == p.links[0].url().size());
  CHECK(p.links[0].url() == "http://a.test/s%E9.xml");
}
