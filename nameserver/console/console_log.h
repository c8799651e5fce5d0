// The console's view of the crawl log: filters by status,
// host and time, applied at the queue servers, and the TSV and JSON-lines
// downloads. The log is streamed page by page (nameserver/log_stream.h)
// as crawlctl log reads it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "common/base/status.h"
#include "nameserver/service.h"

namespace crawl::nameserver {

// The log request for the page's query fields: status ("" any; a code,
// a class such as 4xx, a network error's name, "error" or a comma list, as
// crawlctl log --status; "errors" = 4xx, 5xx and network errors), host (a
// host or glob), since and until (UTC: "2026-11-25T12:00" as a browser's
// datetime field sends it, with or without seconds and 'Z', a date, or Unix
// seconds). The filters apply at the queue servers. Bad values are
// InvalidArgument naming the field.
[[nodiscard]] Result<v1::GetCrawlLogRequest> ConsoleLogRequest(
    const std::map<std::string, std::string>& query);

// What a page shows of a filtered log: how many records match and the
// latest `keep` of them, oldest first. Memory holds `keep` records however
// long the log is.
struct LogTail {
  uint64_t matched = 0;
  std::vector<v1::FetchRecord> rows;
};
[[nodiscard]] grpc::Status ConsoleLogTail(NameServerServiceImpl& service, uint64_t crawl_id,
                                          const v1::GetCrawlLogRequest& req, size_t keep, LogTail* tail);

// The most records one console download holds.
inline constexpr uint64_t kConsoleDownloadRecords = 1'000'000;

// One row as TSV (time, status, bytes, url, host, mime type, fetch ms,
// title, error; tabs and newlines become spaces) and as one JSON object.
[[nodiscard]] std::string LogRowTsv(const v1::FetchRecord& r);
[[nodiscard]] std::string LogRowJson(const v1::FetchRecord& r);

}  // namespace crawl::nameserver
