// The console's view of the crawl log (issue 24 item 1): filters by status,
// host and time, and the TSV and JSON-lines downloads. ConsoleLogRows is the
// one place the console reads the log; it goes through the name server's
// existing whole-log path and filters here, until the streaming log with
// server-side filters (nameserver/log_stream.*) replaces it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "nameserver/service.h"

namespace crawl::nameserver {

struct LogFilter {
  int status = -1;           // -1: any; else the HTTP status (0: no answer)
  bool errors_only = false;  // status "errors": an error text or a status >= 400
  std::string host;          // "" any; else the URL's host, exactly
  int64_t since_us = 0;      // 0: from the start; else Unix microseconds
  int64_t until_us = 0;      // 0: to the end
};

// From the query fields status ("", a number or "errors"), host, since and
// until ("YYYY-MM-DDTHH:MM[:SS]", UTC). Bad values are InvalidArgument.
[[nodiscard]] Result<LogFilter> ParseLogFilter(const std::map<std::string, std::string>& query);
[[nodiscard]] bool LogRowMatches(const v1::FetchRecord& r, const LogFilter& f);

// Records of crawl `crawl_id` (0: active, else latest) that pass `f`, oldest
// first.
[[nodiscard]] grpc::Status ConsoleLogRows(NameServerServiceImpl& service, uint64_t crawl_id,
                                          const LogFilter& f, std::vector<v1::FetchRecord>* rows);

// One row as TSV (time, status, bytes, url, host, mime type, fetch ms,
// title, error; tabs and newlines become spaces) and as one JSON object.
[[nodiscard]] std::string LogRowTsv(const v1::FetchRecord& r);
[[nodiscard]] std::string LogRowJson(const v1::FetchRecord& r);

}  // namespace crawl::nameserver
