// Counting dropped over-long URLs (url_limit.h).
#include "fetcher/page/url_limit.h"

#include <string>

#include "common/base/metrics.h"

namespace crawl::fetcher {

void NoteUrlsTooLong(std::string_view source, uint64_t n) {
  static auto& family =
      metrics::CounterFamily("crawl_fetcher_urls_too_long_total",
                             "URLs over the URL length limit, dropped, by where they were found");
  family.Add({{"source", std::string(source)}}).Increment(static_cast<double>(n));
}

}  // namespace crawl::fetcher
