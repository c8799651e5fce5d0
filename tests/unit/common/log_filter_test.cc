// LogFilter (common/crawl/log_filter.h): the crawl log's filters.
#include "common/crawl/log_filter.h"

#include <catch2/catch.hpp>

namespace {

crawl::v1::FetchRecord Record(const std::string& url, int status, int64_t ts) {
  crawl::v1::FetchRecord r;
  r.set_url(url);
  r.set_status(status);
  r.set_timestamp_unix_us(ts);
  return r;
}

crawl::LogFilter Filter(const std::string& status, const std::string& host = "", int64_t since = 0,
                        int64_t until = 0) {
  crawl::v1::GetCrawlLogRequest req;
  req.set_status(status);
  req.set_host(host);
  req.set_since_unix_us(since);
  req.set_until_unix_us(until);
  auto f = crawl::LogFilter::Parse(req);
  REQUIRE(f.ok());
  return *f;
}

}  // namespace

TEST_CASE("log filter statuses: codes, classes, any error and error kinds", "[unit]") {
  const auto f = Filter(" 404 ,5xx, timeout");
  CHECK(f.Matches(Record("http://a.test/", 404, 1)));
  CHECK(f.Matches(Record("http://a.test/", 503, 1)));
  CHECK(f.Matches(Record("http://a.test/", -3, 1)));
  CHECK_FALSE(f.Matches(Record("http://a.test/", 410, 1)));
  CHECK_FALSE(f.Matches(Record("http://a.test/", -1, 1)));
  const auto errors = Filter("error");
  CHECK(errors.Matches(Record("http://a.test/", -9, 1)));
  CHECK_FALSE(errors.Matches(Record("http://a.test/", 500, 1)));
  CHECK(Filter("").Empty());
  CHECK(Filter("").Matches(Record("http://a.test/", 0, 0)));
}

TEST_CASE("log filter hosts and the half-open time range", "[unit]") {
  const auto f = Filter("", "*.Example.test", 100, 200);
  CHECK(f.Matches(Record("http://www.example.test/a", 200, 100)));
  CHECK_FALSE(f.Matches(Record("http://www.example.test/a", 200, 200)));
  CHECK_FALSE(f.Matches(Record("http://www.example.test/a", 200, 99)));
  CHECK_FALSE(f.Matches(Record("http://example.test/a", 200, 150)));
  CHECK_FALSE(f.Matches(Record("not a url", 200, 150)));
  CHECK(Filter("", "EXAMPLE.test").Matches(Record("http://example.test:8080/", 200, 1)));
}

TEST_CASE("log filter rejects bad filters with the field's name", "[unit]") {
  for (const auto& [status, host, since, until] :
       {std::tuple<std::string, std::string, int64_t, int64_t>{"4xx,,5xx", "", 0, 0},
        {"6xx", "", 0, 0},
        {"40x", "", 0, 0},
        {"", "a b", 0, 0},
        {"", "", 10, 5},
        {"", "", -1, 0}}) {
    crawl::v1::GetCrawlLogRequest req;
    req.set_status(status);
    req.set_host(host);
    req.set_since_unix_us(since);
    req.set_until_unix_us(until);
    auto f = crawl::LogFilter::Parse(req);
    CHECK_FALSE(f.ok());
    if (!f.ok()) CHECK(f.status().code() == crawl::StatusCode::kInvalidArgument);
  }
}
