// crawlctl's local tools, which need no name server: robots, url, cld and
// page. Each prints its answer on stdout and returns why it could not.
#pragma once

#include <string>
#include <vector>

#include "common/base/status.h"
#include "common/url/url.h"
#include "fetcher/page/page_report.h"

namespace crawl::crawlctl {

struct RobotsOptions {
  std::string file;
  std::string agent;
  std::string url;
};

struct UrlOptions {
  std::string url;
  std::string base;
  std::vector<std::string> tracking_params;
  bool keep_tracking = false;
};

struct CldOptions {
  std::string host;
  std::string rule = "psl";
};

struct PageOptions {
  crawl::fetcher::LocalPage page;
  std::string file;
};

// Prints "allowed" or "disallowed"; the answer is whether `url` is allowed.
[[nodiscard]] Result<bool> RunRobots(const RobotsOptions& options);

// The query parameters `url` removes: none with --keep-tracking-params,
// else --tracking-params or the default list.
[[nodiscard]] Result<crawl::url::TrackingParams> TrackingParamsFromFlags(const UrlOptions& options);

[[nodiscard]] Status RunUrl(const UrlOptions& options, const crawl::url::TrackingParams& tracking);

[[nodiscard]] Status RunCld(const CldOptions& options);

// A failure to write stdout is reported by the exit code alone (a Status
// with no message).
[[nodiscard]] Status RunPage(PageOptions options);

}  // namespace crawl::crawlctl
