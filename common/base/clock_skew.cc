#include "common/base/clock_skew.h"

#include <spdlog/spdlog.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <string>

#include "common/base/clock.h"

namespace crawl {

void StartClockSkewFromEnvironment() {
  const char* path = std::getenv("CRAWL_TEST_CLOCK_SKEW_FILE");
  if (path == nullptr || *path == '\0') return;
  std::ifstream in(path);
  std::string text;
  int64_t ms = 0;
  if (in && std::getline(in, text)) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
    if (ec != std::errc()) ms = 0;
  }
  g_clock_skew_ms.store(ms, std::memory_order_relaxed);
  spdlog::warn("test clock skew: this machine's wall clock reads {} ms off ({}: CRAWL_TEST_CLOCK_SKEW_FILE)",
               ms, path);
}

}  // namespace crawl
