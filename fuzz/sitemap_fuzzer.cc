// Fuzz target: sitemaps (fetcher/page/sitemap_processor.h, sitemaps.org 0.9):
// the XML scanner for <urlset> and <sitemapindex>, the bounded gunzip, and
// page processing of XML and gzip bodies (fetcher/page/page_processor.h).
// Input: one byte choosing the media type (XML, gzip, or XML whose body may
// be gzip), then the body.
// Checks, besides ASan/UBSan: the URL, URL-text and byte limits hold (the
// streaming scanner with small limits), and every link
// found is canonical; the record survives a proto round trip.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/url/url.h"
#include "fetcher/page/page_processor.h"
#include "fetcher/page/sitemap_processor.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static constexpr const char* kMimes[] = {"application/xml", "text/xml", "application/gzip",
                                           "application/x-gzip"};
  const char* mime = kMimes[data[0] % std::size(kMimes)];
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);

  // The parser alone, with a small URL cap so the cap is exercised.
  const crawl::fetcher::SitemapEntries entries = crawl::fetcher::ParseSitemap(body, 8);
  FUZZ_CHECK(entries.urls.size() <= 8, "%zu urls over a cap of 8", entries.urls.size());
  (void)crawl::fetcher::LooksLikeSitemap(body);

  // The streaming scanner with small limits, so each one is exercised.
  const crawl::fetcher::SitemapLimits limits{
      .max_urls = 8, .max_bytes = 4096, .max_url_bytes = 64, .max_url_text_bytes = 200};
  size_t handed_out = 0, text = 0;
  auto scan = crawl::fetcher::ScanSitemap(body, limits, [&](std::string&& url) {
    FUZZ_CHECK(url.size() <= 64, "a URL of %zu bytes over a limit of 64", url.size());
    ++handed_out;
    text += url.size();
  });
  if (scan.ok()) {
    FUZZ_CHECK(handed_out == scan->urls && handed_out <= 8, "%zu urls handed out, %zu counted, cap 8",
               handed_out, scan->urls);
    FUZZ_CHECK(text == scan->url_bytes && text <= 200, "%zu bytes of URLs over a cap of 200", text);
    FUZZ_CHECK(scan->bytes <= 4096, "%zu bytes scanned over a cap of 4096", scan->bytes);
  }

  // Gunzip with a small output cap: a bomb stops there.
  bool truncated = false;
  constexpr size_t kCap = 64 * 1024;
  if (auto plain = crawl::fetcher::Gunzip(body, kCap, &truncated); plain.ok()) {
    FUZZ_CHECK(plain->size() <= kCap, "gunzip wrote %zu bytes over a cap of %zu", plain->size(), kCap);
    (void)crawl::fetcher::ParseSitemap(*plain, 8);
  }

  // The path the fetcher takes for a 200 of that type.
  static const std::string kUrl = "http://www.example.test/sitemap.xml";
  crawl::v1::ScheduledUrl scheduled;
  scheduled.set_url(kUrl);
  crawl::fetcher::FetchResult result;
  result.url = kUrl;
  result.status = 200;
  result.body = std::string(body);
  result.content_type = mime;
  result.mime_type = mime;
  const crawl::fetcher::ProcessedPage page = crawl::fetcher::ProcessFetch(scheduled, result, {});
  for (const auto& link : page.links) {
    auto canonical = crawl::url::Canonicalize(link.url());
    FUZZ_CHECK(canonical.ok() && *canonical == link.url(), "link not canonical: '%s'", link.url().c_str());
  }
  std::string wire;
  FUZZ_CHECK(page.record.SerializeToString(&wire), "record does not serialise");
  crawl::v1::FetchRecord back;
  FUZZ_CHECK(back.ParseFromString(wire), "record does not parse back");
  return 0;
}
