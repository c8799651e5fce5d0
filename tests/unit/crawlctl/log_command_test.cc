// crawlctl log's flags (crawlctl/log_command.h): times, filters, formats.
#include "crawlctl/log_command.h"

#include <catch2/catch.hpp>

using namespace crawl::crawlctl;

TEST_CASE("crawlctl log turns its flags into the request's filters and names a bad flag", "[unit]") {
  LogOptions o;
  o.crawl_id = 3;
  o.status = "4xx,timeout";
  o.host = "*.example.test";
  o.since = "2026-11-25";
  o.until = "2026-11-26";
  auto req = LogRequest(o);
  REQUIRE(req.ok());
  CHECK(req->crawl_id() == 3);
  CHECK(req->status() == "4xx,timeout");
  CHECK(req->host() == "*.example.test");
  CHECK(req->until_unix_us() - req->since_unix_us() == 86'400'000'000);
  o.until = "2026-11-24";
  CHECK(LogRequest(o).status().message().find("--until") != std::string::npos);
  o.until = "";
  o.status = "teapot";
  CHECK(LogRequest(o).status().message().find("--status") != std::string::npos);
  o.status = "";
  o.since = "soon";
  CHECK(LogRequest(o).status().message().find("--since") != std::string::npos);
  o.since = "";
  o.format = "xml";
  CHECK_FALSE(LogRequest(o).ok());
}

TEST_CASE("crawlctl log --format jsonl prints one JSON object per record", "[unit]") {
  crawl::v1::FetchRecord r;
  r.set_url("http://a.test/x\"y");
  r.set_status(404);
  const std::string line = LogJsonLine(r);
  CHECK(line.find('\n') == std::string::npos);
  CHECK(line.front() == '{');
  CHECK(line.find("\"status\":404") != std::string::npos);
  CHECK(line.find("\"url\":\"http://a.test/x\\\"y\"") != std::string::npos);
}
