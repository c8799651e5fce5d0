#include "queueserver/frontier/crawl_scope.h"

#include <cctype>

#include "common/url/host_glob.h"

namespace crawl::queueserver {
namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::vector<std::string> Lowered(std::vector<std::string> v) {
  for (auto& s : v)
    for (char& c : s) c = Lower(c);
  return v;
}

}  // namespace

CrawlScope::CrawlScope(uint32_t max_depth, std::vector<std::string> include, std::vector<std::string> exclude)
    : max_depth_(max_depth), include_(Lowered(std::move(include))), exclude_(Lowered(std::move(exclude))) {}

bool CrawlScope::Keeps(std::string_view host, uint32_t depth) const {
  if (max_depth_ != 0 && depth > max_depth_) return false;
  for (const auto& p : exclude_)
    if (HostGlobMatch(p, host)) return false;
  if (include_.empty()) return true;
  for (const auto& p : include_)
    if (HostGlobMatch(p, host)) return true;
  return false;
}

}  // namespace crawl::queueserver
