// When an idle worker asks the name server for a crawl (crawl_worker.h).
#include <algorithm>
#include <chrono>
#include <cstdint>

#include "fetcher/crawl_worker.h"

namespace crawl::fetcher {

std::chrono::milliseconds IdlePollPeriod(std::chrono::milliseconds poll_interval) {
  return std::min(poll_interval, rpc::kCrawlStateMaxHold);
}

std::chrono::milliseconds UntilPollSlot(std::chrono::milliseconds now, std::chrono::milliseconds period,
                                        std::chrono::milliseconds offset) {
  if (period.count() <= 0) return std::chrono::milliseconds(1);
  const int64_t p = period.count();
  const int64_t wait = ((offset.count() % p) - (now.count() % p) + 2 * p) % p;
  return std::chrono::milliseconds(wait == 0 ? p : wait);
}

}  // namespace crawl::fetcher
