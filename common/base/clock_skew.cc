#include "common/base/clock_skew.h"

#include <spdlog/spdlog.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

#include "common/base/clock.h"

namespace crawl {
namespace {

// The skew the file says, or 0 if it says nothing readable.
int64_t ReadSkewMs(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!in || !std::getline(in, text)) return 0;
  int64_t ms = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, ms);
  return ec == std::errc() ? ms : 0;
}

}  // namespace

void StartClockSkewFromEnvironment() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* path = std::getenv("CRAWL_TEST_CLOCK_SKEW_FILE");
    if (path == nullptr || *path == '\0') return;
    spdlog::warn("test clock skew: the wall clock follows the offset in {} (CRAWL_TEST_CLOCK_SKEW_FILE)",
                 path);
    // Detached: it only stores into an atomic, and lives as long as the
    // process.
    std::thread([file = std::string(path)] {
      int64_t last = 0;
      for (;;) {
        const int64_t skew = ReadSkewMs(file);
        if (skew != last) spdlog::warn("test clock skew: now {} ms", skew);
        last = skew;
        g_clock_skew_ms.store(skew, std::memory_order_relaxed);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }).detach();
  });
}

}  // namespace crawl
