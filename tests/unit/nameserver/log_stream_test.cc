// MergeCrawlLog (nameserver/log_stream.h): the queue servers' logs read
// page by page by cursor and merged by timestamp, with fake servers.
#include "nameserver/log_stream.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/crawl/log_filter.h"

using crawl::nameserver::LogPageReader;
using crawl::nameserver::LogStreamOptions;
using crawl::nameserver::MergeCrawlLog;

namespace {

crawl::v1::FetchRecord Record(const std::string& url, int64_t ts, int status = 200) {
  crawl::v1::FetchRecord r;
  r.set_url(url);
  r.set_timestamp_unix_us(ts);
  r.set_status(status);
  return r;
}

// Queue servers in memory that page as the real ones do: cursor = next
// record number, filters applied, at most limit records a page.
struct FakeServers {
  std::vector<std::vector<crawl::v1::FetchRecord>> logs;
  int fail_server = -1;      // this server fails...
  int fail_after_pages = 0;  // ...after answering this many pages
  std::vector<int> pages;
  uint32_t max_limit_seen = 0;

  LogPageReader Reader() {
    pages.assign(logs.size(), 0);
    return [this](size_t i, const crawl::v1::GetCrawlLogRequest& req, crawl::v1::CrawlLogChunk* out) {
      if (static_cast<int>(i) == fail_server && pages[i] >= fail_after_pages)
        return grpc::Status(grpc::StatusCode::UNAVAILABLE, "connection refused");
      ++pages[i];
      max_limit_seen = std::max(max_limit_seen, req.limit());
      auto filter = crawl::LogFilter::Parse(req);
      if (!filter.ok()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, filter.status().message());
      size_t next = req.cursor().empty() ? 0 : std::stoul(req.cursor());
      const auto& log = logs[i];
      for (; next < log.size() && out->records_size() < static_cast<int>(req.limit()); ++next)
        if (filter->Matches(log[next])) *out->add_records() = log[next];
      out->set_cursor(std::to_string(next));
      out->set_end(next >= log.size());
      return grpc::Status::OK;
    };
  }
};

struct Collected {
  std::vector<std::string> urls;
  std::vector<int> chunk_sizes;
  bool last_end = false;
};

grpc::Status Merge(FakeServers& servers, const crawl::v1::GetCrawlLogRequest& req, Collected* got,
                   LogStreamOptions options = {}) {
  std::vector<std::string> names;
  for (size_t i = 0; i < servers.logs.size(); ++i) names.push_back("qs" + std::to_string(i));
  const auto sink = [got](const crawl::v1::CrawlLogChunk& chunk) {
    for (const auto& r : chunk.records()) got->urls.push_back(r.url());
    got->chunk_sizes.push_back(chunk.records_size());
    got->last_end = chunk.end();
    return true;
  };
  return MergeCrawlLog(req, 7, names, servers.Reader(), sink, options);
}

}  // namespace

TEST_CASE("crawl log merge interleaves servers by timestamp, page by page", "[unit]") {
  FakeServers servers;
  servers.logs.resize(3);
  for (int t = 0; t < 30; ++t)
    servers.logs[static_cast<size_t>(t % 3 == 2 ? 0 : t % 2 + 1)].push_back(
        Record("u" + std::to_string(t), t));
  servers.logs.push_back({});  // a server with an empty log
  Collected got;
  LogStreamOptions options;
  options.page_records = 4;
  options.chunk_records = 5;
  REQUIRE(Merge(servers, {}, &got, options).ok());
  REQUIRE(got.urls.size() == 30);
  for (int t = 0; t < 30; ++t) CHECK(got.urls[static_cast<size_t>(t)] == "u" + std::to_string(t));
  // Memory stays bounded: pages of at most 4 records, chunks of at most 5.
  CHECK(servers.max_limit_seen == 4);
  for (int n : got.chunk_sizes) CHECK((n > 0 && n <= 5));
  CHECK(got.last_end);
  CHECK(servers.pages[3] == 1);
}

TEST_CASE("crawl log merge sends the filters to the servers and skips empty pages", "[unit]") {
  FakeServers servers;
  servers.logs.resize(2);
  for (int t = 0; t < 20; ++t)
    servers.logs[static_cast<size_t>(t % 2)].push_back(
        Record("http://h" + std::to_string(t % 4) + ".test/" + std::to_string(t), t, t % 5 ? 200 : 404));
  crawl::v1::GetCrawlLogRequest req;
  req.set_status("404");
  Collected got;
  LogStreamOptions options;
  options.page_records = 1;
  REQUIRE(Merge(servers, req, &got, options).ok());
  CHECK(got.urls == std::vector<std::string>{"http://h0.test/0", "http://h1.test/5", "http://h2.test/10",
                                             "http://h3.test/15"});
  req.set_status("");
  req.set_host("h1.test");
  req.set_since_unix_us(6);
  got = {};
  REQUIRE(Merge(servers, req, &got, options).ok());
  CHECK(got.urls == std::vector<std::string>{"http://h1.test/9", "http://h1.test/13", "http://h1.test/17"});
}

TEST_CASE("crawl log merge reports a server failing mid-stream instead of a short log", "[unit]") {
  FakeServers servers;
  servers.logs.resize(2);
  for (int t = 0; t < 40; ++t)
    servers.logs[static_cast<size_t>(t % 2)].push_back(Record("u" + std::to_string(t), t));
  servers.fail_server = 1;
  servers.fail_after_pages = 2;
  Collected got;
  LogStreamOptions options;
  options.page_records = 5;
  const grpc::Status s = Merge(servers, {}, &got, options);
  CHECK(s.error_code() == grpc::StatusCode::UNAVAILABLE);
  CHECK(s.error_message().find("qs1") != std::string::npos);
  CHECK(s.error_message().find("incomplete") != std::string::npos);
  CHECK(got.urls.size() < 40);
}

TEST_CASE("crawl log merge stops when the reader goes away and passes bad filters back", "[unit]") {
  FakeServers servers;
  servers.logs.resize(1);
  for (int t = 0; t < 50; ++t) servers.logs[0].push_back(Record("u" + std::to_string(t), t));
  LogStreamOptions options;
  options.page_records = 10;
  options.chunk_records = 10;
  options.reorder_records = 0;  // the window would read that far ahead first
  int chunks = 0;
  const auto refuse_second = [&chunks](const crawl::v1::CrawlLogChunk&) { return ++chunks < 2; };
  const grpc::Status s = MergeCrawlLog({}, 7, {"qs0"}, servers.Reader(), refuse_second, options);
  CHECK(s.error_code() == grpc::StatusCode::CANCELLED);
  CHECK(chunks == 2);
  // The reader stopped the reads: no page beyond what the two chunks needed.
  CHECK(servers.pages[0] <= 3);
  crawl::v1::GetCrawlLogRequest bad;
  bad.set_status("teapot");
  Collected got;
  CHECK(Merge(servers, bad, &got).error_code() == grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_CASE("crawl log merge puts records that reached their server late back in time order", "[unit]") {
  FakeServers servers;
  servers.logs.resize(2);
  // Server 0 got a batch late: its records 10-14 arrived after 15-24.
  for (int t = 0; t < 10; ++t) servers.logs[0].push_back(Record("a" + std::to_string(t), 2 * t));
  for (int t = 15; t < 25; ++t) servers.logs[0].push_back(Record("a" + std::to_string(t), 2 * t));
  for (int t = 10; t < 15; ++t) servers.logs[0].push_back(Record("a" + std::to_string(t), 2 * t));
  for (int t = 0; t < 25; ++t) servers.logs[1].push_back(Record("b" + std::to_string(t), 2 * t + 1));
  LogStreamOptions options;
  options.page_records = 3;  // the late records are pages away from their place
  options.chunk_records = 4;
  auto times = [](const Collected& got) {
    std::vector<int> ts;
    for (const auto& u : got.urls) ts.push_back(2 * std::stoi(u.substr(1)) + (u[0] == 'b'));
    return ts;
  };
  Collected got;
  options.reorder_records = 30;
  REQUIRE(Merge(servers, {}, &got, options).ok());
  REQUIRE(got.urls.size() == 50);
  const auto ts = times(got);
  CHECK(std::is_sorted(ts.begin(), ts.end()));
  // Without the window the late batch comes out of order (the test can fail).
  got = {};
  options.reorder_records = 0;
  REQUIRE(Merge(servers, {}, &got, options).ok());
  const auto unordered = times(got);
  CHECK_FALSE(std::is_sorted(unordered.begin(), unordered.end()));
  CHECK(got.urls.size() == 50);
}
