// Filters on the crawl log (GetCrawlLogRequest's status, host, since and
// until), parsed once and applied to each FetchRecord. The queue servers
// apply them while paging their log; crawlctl parses the same text to reject
// a bad flag before it calls. Pure: no clock, no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "proto/crawl.pb.h"

namespace crawl {

class LogFilter {
 public:
  // Parses the request's filters. status: comma-separated items, each an
  // exact code ("404", "-3"), a class ("2xx" .. "5xx"), "error" (any
  // negative status: a network error) or an error kind's name
  // (common/crawl/fetch_error.h: "timeout", "dns_error", ...). host: a host or a
  // host glob (common/url/host_glob.h). [since, until) in Unix microseconds, 0
  // for unbounded. Bad input gets InvalidArgument naming the field.
  [[nodiscard]] static Result<LogFilter> Parse(const v1::GetCrawlLogRequest& req);

  // True when `r` passes every filter. Thread-safe (const).
  [[nodiscard]] bool Matches(const v1::FetchRecord& r) const;
  // True when no filter is set (every record matches).
  [[nodiscard]] bool Empty() const;

 private:
  struct StatusRange {
    int32_t low = 0;
    int32_t high = 0;  // inclusive
  };
  [[nodiscard]] static Status ParseStatusItem(std::string_view item, std::vector<StatusRange>* out);

  std::vector<StatusRange> statuses_;  // empty: any status
  std::string host_;                   // "": any host; lower-cased
  int64_t since_us_ = 0;
  int64_t until_us_ = 0;
};

}  // namespace crawl
