// crawlctl's commands on what a crawl gathered: search its index, print a
// cached page, stream the crawl log.
#pragma once

#include <cstdint>
#include <string>

#include "common/base/status.h"
#include "crawlctl/crawl_commands.h"
#include "crawlctl/log_command.h"
#include "crawlctl/nameserver_client.h"

namespace crawl::crawlctl {

struct SearchOptions {
  uint64_t crawl_id = 0;
  std::string query;
  bool explain = false;
  uint32_t limit = 10;
  bool json = false;
};

struct NearDuplicatesOptions {
  uint64_t crawl_id = 0;
  uint32_t limit = 20;
  bool json = false;
};

struct CacheOptions {
  uint64_t crawl_id = 0;
  std::string url;
  bool info = false;
};

[[nodiscard]] Status RunSearch(const NameServerClient& client, const SearchOptions& options);

// `crawlctl near-duplicates`: the crawl's largest near-duplicate clusters.
[[nodiscard]] Status RunNearDuplicates(const NameServerClient& client, const NearDuplicatesOptions& options);

[[nodiscard]] Status RunCache(const NameServerClient& client, const CacheOptions& options);

}  // namespace crawl::crawlctl
