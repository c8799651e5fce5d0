// crawlctl log: streams the crawl log from the name server (which merges
// the queue servers' logs page by page) to stdout as it arrives, with the
// filters applied at the queue servers.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "common/base/status.h"
#include "crawlctl/nameserver_client.h"
#include "proto/crawl.pb.h"

namespace crawl::crawlctl {

struct LogOptions {
  uint64_t crawl_id = 0;
  std::string status;  // "404,5xx,timeout" (common/crawl/log_filter.h)
  std::string host;    // host or glob
  std::string since;   // ISO 8601 UTC or Unix seconds; "" unbounded
  std::string until;
  std::string format = "tsv";  // tsv (LogLine) or jsonl
};

// The request for `options`, its filters checked (InvalidArgument names
// the flag).
[[nodiscard]] Result<v1::GetCrawlLogRequest> LogRequest(const LogOptions& options);

// One record as a line of JSON: the FetchRecord's fields by proto name.
[[nodiscard]] std::string LogJsonLine(const v1::FetchRecord& r);

// Streams the log to `out`: no deadline, it may be long.
[[nodiscard]] Status RunLog(const NameServerClient& client, const LogOptions& options, std::ostream& out);

}  // namespace crawl::crawlctl
