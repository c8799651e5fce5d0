// Sitemaps (sitemaps.org protocol 0.9; docs/DESIGN.md §6): the <loc> of
// every <url> of a <urlset>, or of every <sitemap> of a <sitemapindex>, in
// file order, from plain XML or gzip-compressed XML (.xml.gz, sent as
// application/gzip or with a gzip body). Each URL becomes a discovered link
// with from_sitemap = true and link_rank = its position (docs/DESIGN.md §5.1 and
// 5.2); a sitemap index's entries are sitemaps, fetched and processed the
// same way in turn.
//
// Limits (sitemaps.org): 50,000 URLs and 50 MB uncompressed per file, and
// no URL over common/url/url.h kMaxUrlBytes (2,048 bytes). Ours on top: at most
// kMaxSitemapUrlTextBytes of URL text per file, which holds 50,000 URLs of
// up to 335 bytes (real sitemaps' URLs are mostly under 150) but keeps a
// file of 50,000 kilobyte-long URLs from becoming 50 MB of links that the
// fetcher and then the queue server hold at once. ScanSitemap streams:
// it inflates and scans in pieces of kSitemapChunkBytes and hands each URL
// out as soon as its </loc> is read, so a file costs a few pieces of memory
// beyond the URLs the caller keeps, whatever its size; inflating stops at
// the byte limit (a decompression bomb costs no more than that) and the
// scan at the URL limit, and the result says it was truncated. XML is
// scanned, not validated: <loc> elements (not prefixed ones such as
// <image:loc>), with CDATA sections and XML character references decoded
// and surrounding whitespace trimmed; malformed input yields the <loc>s
// that can be read.
//
// Pure and reentrant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "common/url/url.h"

namespace crawl::fetcher {

inline constexpr std::size_t kMaxSitemapUrls = 50'000;
inline constexpr std::size_t kMaxSitemapBytes = 50 * 1024 * 1024;
inline constexpr std::size_t kMaxSitemapUrlTextBytes = 16 * 1024 * 1024;
// Inflate and scan step; also the room a <loc> element may take (markup,
// whitespace, CDATA) before it is dropped as too long.
inline constexpr std::size_t kSitemapChunkBytes = 64 * 1024;

// True if `body` starts with the gzip magic bytes (RFC 1952).
[[nodiscard]] bool IsGzip(std::string_view body);

// Decompresses a gzip (or zlib) stream, at most `max_bytes` of output;
// *truncated is set when there was more. Corrupt data gets an error.
// Materializes the output: tests and tools only; the fetcher streams.
[[nodiscard]] Result<std::string> Gunzip(std::string_view data, std::size_t max_bytes, bool* truncated);

// True if the (uncompressed) body is a sitemap: <urlset or <sitemapindex in
// its first 4 KiB.
[[nodiscard]] bool LooksLikeSitemap(std::string_view xml);

struct SitemapLimits {
  std::size_t max_urls = kMaxSitemapUrls;    // URLs handed out
  std::size_t max_bytes = kMaxSitemapBytes;  // (inflated) XML read
  std::size_t max_url_bytes = url::kMaxUrlBytes;
  std::size_t max_url_text_bytes = kMaxSitemapUrlTextBytes;  // sum of the URLs handed out
};

struct SitemapScan {
  bool is_sitemap = false;     // <urlset or <sitemapindex in the first 4 KiB
  bool is_index = false;       // a <sitemapindex>
  bool truncated = false;      // stopped at a limit, or a cut .gz
  std::size_t urls = 0;        // handed out
  std::size_t too_long = 0;    // <loc>s over max_url_bytes, dropped
  std::size_t bytes = 0;       // XML scanned (inflated)
  std::size_t url_bytes = 0;   // sum of the URLs handed out
  std::string charset;         // the encoding read (charset.h CharsetName): "utf-8" unless it says otherwise
  uint32_t invalid_bytes = 0;  // U+FFFDs written for invalid sequences
};

// Streams the <loc>s of `body` (plain XML, or gzip when IsGzip) to `emit`,
// in file order, as UTF-8: the XML is read in the encoding its BOM,
// `header_charset` (the Content-Type's) or XML declaration names, else UTF-8. Not a sitemap: nothing is
// handed out. Errors: corrupt gzip data (InvalidArgument; URLs before the damage were already handed out).
[[nodiscard]] Result<SitemapScan> ScanSitemap(std::string_view body, const SitemapLimits& limits,
                                              const std::function<void(std::string&&)>& emit,
                                              std::string_view header_charset = {});

struct SitemapEntries {
  std::vector<std::string> urls;  // as written (decoded, trimmed), in order
  bool is_index = false;          // a <sitemapindex>
  bool truncated = false;         // more than max_urls entries
};

// Plain XML into a vector (tests and fuzzers; the fetcher streams).
[[nodiscard]] SitemapEntries ParseSitemap(std::string_view xml, std::size_t max_urls = kMaxSitemapUrls);

}  // namespace crawl::fetcher
