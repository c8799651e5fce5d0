// Follows robots.txt redirects within a schedule (see robots_redirects.h).
#include "fetcher/robots_redirects.h"

#include "common/url/url.h"

namespace crawl::fetcher {

RobotsRedirects::Chain RobotsRedirects::Take(const std::string& fetched_url) {
  auto hop = hops_.find(fetched_url);
  if (hop == hops_.end()) return Chain{fetched_url, 0};
  Chain chain{hop->second.first, hop->second.second};
  hops_.erase(hop);
  return chain;
}

std::optional<std::string> RobotsRedirects::Follow(const FetchResult& result, const Chain& chain) {
  if (result.status < 300 || result.status >= 400 || result.location.empty() || chain.hops >= kMaxRedirects)
    return std::nullopt;
  auto target = url::Resolve(result.url, result.location);
  if (!target.ok() || hops_.find(*target) != hops_.end() || *target == result.url) return std::nullopt;
  hops_.emplace(*target, std::make_pair(chain.scheduled_url, chain.hops + 1));
  started_us_.emplace(chain.scheduled_url, result.start_unix_us);
  return *target;
}

void RobotsRedirects::Report(const Chain& chain, FetchResult& result) const {
  if (chain.hops == 0) return;
  result.error = "robots.txt after " + std::to_string(chain.hops) + " redirect(s) to " + result.url;
  if (auto start = started_us_.find(chain.scheduled_url); start != started_us_.end()) {
    result.fetch_ms = static_cast<uint32_t>((result.start_unix_us - start->second) / 1000) + result.fetch_ms;
    result.start_unix_us = start->second;
  }
  result.url = chain.scheduled_url;
}

}  // namespace crawl::fetcher
