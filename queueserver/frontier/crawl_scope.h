// Which discovered URLs a crawl keeps (crawlctl start --max-depth,
// --include-hosts, --exclude-hosts): link depth from the seeds at most
// max_depth (0: no limit); host matching at least one include pattern when
// any is given, and no exclude pattern. Patterns are host globs, matched
// case-insensitively: '*' matches any run of characters, so "example.test"
// is that host only and "*.example.test" its subdomains. Seeds are always
// kept (the operator chose them). Pure; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace crawl::queueserver {

class CrawlScope {
 public:
  CrawlScope() = default;
  CrawlScope(uint32_t max_depth, std::vector<std::string> include, std::vector<std::string> exclude);

  // True when a link to `host` at `depth` stays in the crawl.
  [[nodiscard]] bool Keeps(std::string_view host, uint32_t depth) const;
  [[nodiscard]] bool unlimited() const { return max_depth_ == 0 && include_.empty() && exclude_.empty(); }

 private:
  uint32_t max_depth_ = 0;
  std::vector<std::string> include_;  // lower-cased
  std::vector<std::string> exclude_;
};

}  // namespace crawl::queueserver
