// The bounds of one sitemap and of every URL (fetcher/page/sitemap_processor.h
// ScanSitemap, fetcher/sitemap_gate.h, common/url/url.h kMaxUrlBytes): a
// sitemap is streamed, never held whole, and stops at the sitemaps.org
// limits; URLs over 2,048 bytes are dropped wherever the fetcher finds them.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "fetcher/page/page_processor.h"
#include "fetcher/page/sitemap_processor.h"
#include "fetcher/sitemap_gate.h"
#include "tests/unit/fetcher/fetch_test_util.h"

using namespace crawl::fetcher;
using crawl::fetcher::testing::Compress;

namespace {

std::string Urlset(size_t urls, size_t url_bytes, const std::string& tail = "") {
  std::string xml =
      "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (size_t n = 0; n < urls; ++n) {
    std::string url = "http://a.test/" + std::to_string(n) + "-";
    url.append(url_bytes > url.size() ? url_bytes - url.size() : 0, 'x');
    xml += "<url><loc>" + url + "</loc></url>\n";
  }
  return xml + tail + "</urlset>\n";
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

crawl::v1::ScheduledUrl Scheduled(const std::string& url) {
  crawl::v1::ScheduledUrl u;
  u.set_url(url);
  return u;
}

}  // namespace

TEST_CASE("a gzip sitemap of 50,500 URLs of 1 KB: handed out one by one up to 16 MiB of URLs, truncated",
          "[unit]") {
  const std::string gz = Compress(Urlset(50'500, 1000), 15 + 16);
  size_t n = 0;
  auto scan = ScanSitemap(gz, {}, [&](std::string&& u) {
    CHECK(u.size() == 1000);
    ++n;
  });
  REQUIRE(scan.ok());
  CHECK(scan->is_sitemap);
  CHECK(scan->truncated);
  CHECK(n == kMaxSitemapUrlTextBytes / 1000);
  CHECK(scan->urls == n);
  CHECK(scan->url_bytes <= kMaxSitemapUrlTextBytes);
  CHECK(scan->bytes < kMaxSitemapBytes);
}

TEST_CASE("a sitemap of 50,500 URLs of ordinary length: the first 50,000 handed out, truncated", "[unit]") {
  const std::string gz = Compress(Urlset(50'500, 120), 15 + 16);
  size_t n = 0;
  auto scan = ScanSitemap(gz, {}, [&](std::string&&) { ++n; });
  REQUIRE(scan.ok());
  CHECK(scan->truncated);
  CHECK(n == kMaxSitemapUrls);
  // 50,000 URLs of 335 bytes fit the text limit: only longer ones reach it.
  CHECK(kMaxSitemapUrls * 335 <= kMaxSitemapUrlTextBytes);
}

TEST_CASE("a gzip sitemap inflating past 50 MB is read up to the limit only", "[unit]") {
  const std::string padding(60 << 20, ' ');
  const std::string gz =
      Compress(Urlset(3, 40, padding + "<url><loc>http://a.test/after</loc></url>\n"), 15 + 16);
  std::vector<std::string> urls;
  auto scan = ScanSitemap(gz, {}, [&](std::string&& u) { urls.push_back(std::move(u)); });
  REQUIRE(scan.ok());
  CHECK(scan->truncated);
  CHECK(scan->bytes == kMaxSitemapBytes);
  CHECK(urls.size() == 3);  // not http://a.test/after, past the limit
}

TEST_CASE("a <loc> split across pieces is read whole; one over the URL limit is dropped", "[unit]") {
  for (size_t bytes : {kSitemapChunkBytes - 7, kSitemapChunkBytes + 11}) {
    const std::string xml = Urlset(1, 40) + std::string(bytes, ' ') + Urlset(2, 60);
    size_t n = 0;
    auto scan = ScanSitemap(xml, {}, [&](std::string&& u) { n += u.size() == 40 || u.size() == 60; });
    REQUIRE(scan.ok());
    CHECK(n == 3);
  }
  auto scan =
      ScanSitemap(Urlset(4, 3000), {}, [](std::string&&) { FAIL("an over-long URL was handed out"); });
  REQUIRE(scan.ok());
  CHECK(scan->too_long == 4);
  // A <loc> that never ends within a piece's room: skipped, not held.
  const std::string endless = Urlset(0, 0).substr(0, 80) + "<url><loc>" +
                              std::string(3 * kSitemapChunkBytes, 'z') +
                              "</loc></url><url><loc>http://a.test/ok</loc></url></urlset>";
  std::vector<std::string> urls;
  scan = ScanSitemap(endless, {}, [&](std::string&& u) { urls.push_back(std::move(u)); });
  REQUIRE(scan.ok());
  CHECK(urls == std::vector<std::string>{"http://a.test/ok"});
}

TEST_CASE("ProcessFetch drops URLs over 2,048 bytes: sitemap entries, page links, redirect targets",
          "[unit]") {
  auto sitemap =
      ProcessFetch(Scheduled("http://a.test/s.xml"),
                   Ok("http://a.test/s.xml", Urlset(3, 2049) + Urlset(2, 2048), "application/xml"), {});
  REQUIRE(sitemap.links.size() == 2);
  for (const auto& l : sitemap.links) CHECK(l.url().size() <= crawl::url::kMaxUrlBytes);
  CHECK(sitemap.sitemap);

  const std::string long_url = "http://a.test/" + std::string(3000, 'y');
  auto page = ProcessFetch(
      Scheduled("http://a.test/"),
      Ok("http://a.test/",
         "<html><body><a href=\"" + long_url + "\">long</a> <a href=\"/short\">short</a></body></html>",
         "text/html"),
      {});
  REQUIRE(page.links.size() == 1);
  CHECK(page.links[0].url() == "http://a.test/short");

  FetchResult moved = Ok("http://a.test/m", "", "text/html");
  moved.status = 302;
  moved.location = long_url;
  auto redirect = ProcessFetch(Scheduled("http://a.test/m"), moved, {});
  CHECK(redirect.links.empty());
  CHECK(redirect.record.redirect_url().empty());
}

TEST_CASE("the sitemap gate admits one holder at a time, until its hold is let go", "[unit]") {
  auto gate = std::make_shared<SitemapGate>();
  std::shared_ptr<void> first = gate->Acquire();
  CHECK(gate->busy());
  std::atomic<bool> second_in{false};
  std::thread t([&] {
    std::shared_ptr<void> second = gate->Acquire();
    second_in = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(second_in);
  std::shared_ptr<void> copy = first;  // a batch holding it
  first.reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(second_in);
  copy.reset();
  t.join();
  CHECK(second_in);
  CHECK_FALSE(gate->busy());
}
