// crawlctl's local tools: robots, url, cld and page.
#include "crawlctl/local_commands.h"

#include <algorithm>
#include <iostream>

#include "common/base/process.h"
#include "common/url/cld.h"
#include "common/url/robots.h"

namespace crawl::crawlctl {

Result<bool> RunRobots(const RobotsOptions& options) {
  auto body = crawl::ReadFile(options.file);
  if (!body.ok()) return body.status();
  const auto rules = crawl::robots::Parse(*body, options.agent);
  const bool allowed = crawl::robots::IsAllowedUrl(rules, options.url);
  std::cout << (allowed ? "allowed" : "disallowed") << "\n";
  return allowed;
}

Result<crawl::url::TrackingParams> TrackingParamsFromFlags(const UrlOptions& options) {
  if (options.keep_tracking) return crawl::url::TrackingParams();
  if (options.tracking_params.empty()) return crawl::url::TrackingParams::Default();
  auto list = crawl::url::TrackingParams::FromList(options.tracking_params);
  if (!list.ok()) return Status::InvalidArgument("--tracking-params: " + list.status().message());
  return list;
}

Status RunUrl(const UrlOptions& options, const crawl::url::TrackingParams& tracking) {
  auto canonical = options.base.empty() ? crawl::url::Canonicalize(options.url)
                                        : crawl::url::Resolve(options.base, options.url);
  if (!canonical.ok()) return canonical.status();
  std::string out = crawl::url::RemoveTrackingParams(*canonical, tracking);
  if (crawl::url::UrlTooLong(options.url) || crawl::url::UrlTooLong(out))
    return Status::InvalidArgument("URL of " + std::to_string(std::max(options.url.size(), out.size())) +
                                   " bytes, over the limit of " + std::to_string(crawl::url::kMaxUrlBytes));
  std::cout << out << "\n";
  return Status::Ok();
}

Status RunCld(const CldOptions& options) {
  auto rule = crawl::ParseCldRule(options.rule);
  auto cld = rule.ok() ? crawl::CompanyLevelDomain(options.host, *rule) : Result<std::string>(rule.status());
  if (!cld.ok()) return cld.status();
  std::cout << *cld << "\n";
  return Status::Ok();
}

Status RunPage(PageOptions options) {
  auto body = crawl::ReadFile(options.file);
  if (!body.ok()) return body.status();
  options.page.body = std::move(*body);
  options.page.file_name = options.file;
  auto json = crawl::fetcher::PageReportJson(options.page);
  if (!json.ok()) return json.status();
  std::cout << *json << "\n";
  if (!std::cout.flush()) return Status::IoError("");
  return Status::Ok();
}

}  // namespace crawl::crawlctl
