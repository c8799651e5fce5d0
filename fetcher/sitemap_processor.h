// Sitemaps (sitemaps.org protocol 0.9; DESIGN.md section 6): the <loc> of
// every <url> of a <urlset>, or of every <sitemap> of a <sitemapindex>, in
// file order, from plain XML or gzip-compressed XML (.xml.gz, sent as
// application/gzip or with a gzip body). Each URL becomes a discovered link
// with from_sitemap = true and link_rank = its position (DESIGN.md 5.1 and
// 5.2); a sitemap index's entries are sitemaps, fetched and processed the
// same way in turn.
//
// Limits (sitemaps.org): 50,000 URLs and 50 MB uncompressed per file; the
// gunzip stops at the byte limit (a decompression bomb costs no more than
// that) and the result says it was truncated. XML is scanned, not
// validated: <loc> elements (not prefixed ones such as <image:loc>), with
// CDATA sections and XML character references decoded and surrounding
// whitespace trimmed; malformed input yields the <loc>s that can be read.
//
// Pure and reentrant.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace crawl::fetcher {

inline constexpr std::size_t kMaxSitemapUrls = 50'000;
inline constexpr std::size_t kMaxSitemapBytes = 50 * 1024 * 1024;

// True if `body` starts with the gzip magic bytes (RFC 1952).
[[nodiscard]] bool IsGzip(std::string_view body);

// Decompresses a gzip (or zlib) stream, at most `max_bytes` of output;
// *truncated is set when there was more. Corrupt data gets an error.
[[nodiscard]] Result<std::string> Gunzip(std::string_view data, std::size_t max_bytes, bool* truncated);

// True if the (uncompressed) body is a sitemap: <urlset or <sitemapindex in
// its first 4 KiB.
[[nodiscard]] bool LooksLikeSitemap(std::string_view xml);

struct SitemapEntries {
  std::vector<std::string> urls;  // as written (decoded, trimmed), in order
  bool is_index = false;          // a <sitemapindex>
  bool truncated = false;         // more than max_urls entries
};

[[nodiscard]] SitemapEntries ParseSitemap(std::string_view xml, std::size_t max_urls = kMaxSitemapUrls);

}  // namespace crawl::fetcher
