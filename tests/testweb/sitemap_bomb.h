// Bodies of the hostile preset's sitemap-bomb and long-links hosts
// (universe.h, "Hostile hosts"): sitemaps past the sitemaps.org limits
// (50,000 URLs and 50 MB uncompressed per file) and links past common/url/url.h
// kMaxUrlBytes. Each body is built once per origin and kept (the big ones
// are a few hundred KB compressed).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace crawl::testweb {

// /bomb-sitemaps/index.xml lists kBombSitemaps big sitemaps, the inflate
// bomb and the long-URL sitemap.
inline constexpr int kBombSitemaps = 4;
// URLs per big sitemap (/bomb-sitemaps/big-K.xml.gz), each about
// kBombUrlBytes long, all under /bomb-items/ (robots.txt disallows it).
inline constexpr uint64_t kBombSitemapUrls = 50'500;
inline constexpr uint64_t kBombUrlBytes = 1'000;
// /bomb-sitemaps/inflate.xml.gz: a urlset that inflates to this much, with
// a URL before the 50 MB limit and one after it.
inline constexpr uint64_t kInflateBombBytes = 64ULL << 20;
// /bomb-sitemaps/long.xml and /long-links.html: this many URLs of
// kLongUrlBytes, and one short URL.
inline constexpr int kLongUrls = 20;
inline constexpr uint64_t kLongUrlBytes = 3'000;

[[nodiscard]] std::string BombSitemapIndex(std::string_view origin);
// REQUIRES: 0 <= k < kBombSitemaps.
[[nodiscard]] std::string BigBombSitemapGz(std::string_view origin, int k);
[[nodiscard]] std::string InflateBombSitemapGz(std::string_view origin);
[[nodiscard]] std::string LongUrlSitemap(std::string_view origin);
[[nodiscard]] std::string LongLinksPage(std::string_view origin);
// A URL of kLongUrlBytes bytes on `origin` (number i).
[[nodiscard]] std::string LongUrl(std::string_view origin, int i);

}  // namespace crawl::testweb
