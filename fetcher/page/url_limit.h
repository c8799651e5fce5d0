// The fetcher's side of the URL length limit (common/url/url.h kMaxUrlBytes):
// links, sitemap entries and redirect targets longer than it are dropped
// where they are found and counted here, by where they came from.
#pragma once

#include <cstdint>
#include <string_view>

namespace crawl::fetcher {

// Counts `n` dropped URLs of `source` ("link", "sitemap", "redirect") in
// crawl_fetcher_urls_too_long_total. Thread-safe.
void NoteUrlsTooLong(std::string_view source, uint64_t n = 1);

}  // namespace crawl::fetcher
