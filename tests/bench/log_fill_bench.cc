// Fills a stopped queue server's crawl log with synthetic fetch records for
// tests/bench/log_export.sh (run by hand). The records go
// through the queue server's own store code (QueueStore, ShardWriter::
// AppendLog, Commit: what SubmitResults does for each record), appended
// after whatever the log holds; the queue server must not be running.
// Record i has timestamp start_us + i * step_us, so two servers filled with
// start_us 0 and 1 and step 2 interleave.
//
//   build/bin/log_fill_bench --data-dir DIR --crawl ID --records N
//       [--start-us T] [--step-us S] [--hosts H]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "queueserver/store/queue_store.h"

namespace {

constexpr int kStatuses[] = {200, 200, 200, 200, 200, 200, 200, 301, 404, 200, 500, -3, 200, 200, 410, 200};

crawl::v1::FetchRecord MakeRecord(uint64_t i, int64_t ts, uint64_t hosts) {
  crawl::v1::FetchRecord r;
  const std::string host = "host" + std::to_string(i % hosts) + ".example.test";
  r.set_url("http://" + host + "/section" + std::to_string(i % 50) + "/page" + std::to_string(i) + ".html");
  r.set_referrer("http://" + host + "/section" + std::to_string(i % 50) + "/");
  r.set_kind(crawl::v1::URL_KIND_PAGE);
  const int status = kStatuses[i % (sizeof(kStatuses) / sizeof(kStatuses[0]))];
  r.set_status(status);
  if (status == 200) {
    r.set_bytes(5'000 + i % 20'000);
    r.set_mime_type("text/html");
    r.set_title("Page " + std::to_string(i) + " of the bench log");
    r.set_links_found(static_cast<uint32_t>(i % 40));
    char digest[17];
    std::snprintf(digest, sizeof digest, "%016llx",
                  static_cast<unsigned long long>(i * 0x9e3779b97f4a7c15ULL));
    r.set_content_digest(digest);
  } else if (status < 0) {
    r.set_error("timeout");
  }
  r.set_fetch_ms(static_cast<uint32_t>(20 + i % 300));
  r.set_timestamp_unix_us(ts);
  r.set_order_tier(static_cast<int32_t>(i % 4));
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  uint64_t crawl_id = 0, records = 0, hosts = 1'000;
  int64_t start_us = 1'764'000'000'000'000, step_us = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const char* v = argv[i + 1];
    if (flag == "--data-dir")
      dir = v;
    else if (flag == "--crawl")
      crawl_id = std::strtoull(v, nullptr, 10);
    else if (flag == "--records")
      records = std::strtoull(v, nullptr, 10);
    else if (flag == "--start-us")
      start_us = std::strtoll(v, nullptr, 10);
    else if (flag == "--step-us")
      step_us = std::strtoll(v, nullptr, 10);
    else if (flag == "--hosts")
      hosts = std::strtoull(v, nullptr, 10);
    else {
      std::fprintf(stderr, "unknown flag %s\n", argv[i]);
      return 2;
    }
  }
  if (dir.empty() || crawl_id == 0 || records == 0 || hosts == 0 || step_us <= 0) {
    std::fprintf(stderr,
                 "usage: log_fill_bench --data-dir DIR --crawl ID --records N [--start-us T] [--step-us S] "
                 "[--hosts H]\n");
    return 2;
  }
  auto store = crawl::queueserver::QueueStore::Open(dir, {});
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().message().c_str());
    return 1;
  }
  auto crawls = (*store)->ListCrawls();
  if (!crawls.ok() || std::find(crawls->begin(), crawls->end(), crawl_id) == crawls->end()) {
    std::fprintf(stderr, "%s holds no crawl %llu\n", dir.c_str(), static_cast<unsigned long long>(crawl_id));
    return 1;
  }
  auto writer = (*store)->NewWriter(crawl_id);
  uint64_t end = 0;
  if (auto s = writer->ScanLog(
          0, 0, [](crawl::v1::FetchRecord&&) {}, &end);
      !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < records; ++i) {
    writer->AppendLog(end + i, MakeRecord(i, start_us + static_cast<int64_t>(i) * step_us, hosts));
    if ((i + 1) % 10'000 == 0 || i + 1 == records) {
      if (auto s = writer->Commit(); !s.ok()) {
        std::fprintf(stderr, "%s\n", s.message().c_str());
        return 1;
      }
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: crawl %llu records %llu-%llu written in %.1f s\n", dir.c_str(),
              static_cast<unsigned long long>(crawl_id), static_cast<unsigned long long>(end),
              static_cast<unsigned long long>(end + records), secs);
  return 0;
}
