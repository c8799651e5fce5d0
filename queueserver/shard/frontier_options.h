// A crawl's parameters (crawl.v1.CrawlParams) as its frontier's options:
// order, host budgeting, trap rules, scoring chain, backoff, robots.txt
// ages and host delays, each checked so that a bad one fails the crawl's
// start rather than the crawl. Pure: no state.
#pragma once

#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/frontier/frontier.h"

namespace crawl::queueserver {

// The frontier options `params` ask for; InvalidArgument for an unknown
// order, increment, split or scoring filter, or bad bounds (the recrawl
// settings included).
[[nodiscard]] Result<FrontierOptions> FrontierOptionsFor(const v1::CrawlParams& params);

// The crawl's per-origin URL caps (CrawlParams fields 96-98; 0: default).
[[nodiscard]] HostCaps HostCapsOf(const v1::CrawlParams& params);

}  // namespace crawl::queueserver
