// Follows robots.txt redirects within a schedule (RFC 9309 2.3.1.2: at least
// five hops): which scheduled robots.txt URL a hop's answer belongs to,
// whether to fetch the next hop, and the one result reported for the whole
// chain, so the queue server never mistakes a hop for the rules. Pure: the
// caller fetches.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "fetcher/http/http_fetcher.h"

namespace crawl::fetcher {

class RobotsRedirects {
 public:
  static constexpr int kMaxRedirects = 5;

  // The scheduled URL a fetched URL answers for, and the redirects that led
  // to it (0: the URL itself was scheduled).
  struct Chain {
    std::string scheduled_url;
    int hops = 0;
  };

  // The chain `fetched_url` ends: the one a followed hop started (which is
  // then forgotten), or the URL itself with no hops.
  [[nodiscard]] Chain Take(const std::string& fetched_url);

  // If `result` (the answer at the end of `chain`, for a scheduled
  // robots.txt URL) is a redirect to follow, the URL to fetch next, which is
  // remembered as a hop of the chain. nullopt: report `result`.
  [[nodiscard]] std::optional<std::string> Follow(const FetchResult& result, const Chain& chain);

  // Turns the last answer of a chain with hops into one attempt of the
  // scheduled URL: its status and body are the last hop's, its start the
  // first's. Leaves a result without hops alone.
  void Report(const Chain& chain, FetchResult& result) const;

 private:
  // Hop URL -> (scheduled robots.txt URL, hops so far).
  std::unordered_map<std::string, std::pair<std::string, int>> hops_;
  // Scheduled robots.txt URL -> start of its first request (unix us).
  std::unordered_map<std::string, int64_t> started_us_;
};

}  // namespace crawl::fetcher
