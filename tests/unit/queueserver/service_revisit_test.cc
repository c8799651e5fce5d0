// Revisits through the queue server's service: with page caches,
// a first fetch writes a WARC response, a 304 to a conditional request a
// server-not-modified revisit and a same-digest 200 an
// identical-payload-digest revisit, each referring to the first fetch.
#include <grpcpp/grpcpp.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <vector>

#include "common/base/clock.h"
#include "queueserver/service.h"
#include "queueserver/store/warc_writer.h"

namespace v1 = crawl::v1;
namespace qs = crawl::queueserver;

namespace {
struct CacheDir {
  CacheDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() / ("service_revisit_test." + std::to_string(rd()));
  }
  ~CacheDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::filesystem::path path;
};

v1::SubmitResultsRequest Submit(uint64_t sequence, int status, const std::string& body, int64_t at_us) {
  v1::SubmitResultsRequest req;
  req.set_crawl_id(11);
  req.set_fetcher_id("f");
  req.set_schedule_id(500);
  req.set_sequence(sequence);
  v1::FetchRecord* r = req.add_records();
  r->set_url("http://a.test/page");
  r->set_kind(v1::URL_KIND_PAGE);
  r->set_status(status);
  r->set_mime_type("text/html");
  r->set_timestamp_unix_us(at_us);
  r->set_body(body);
  r->set_bytes(body.size());
  r->set_content_digest(status == 304 ? "" : "abcdefabcdefabcd");
  r->set_conditional(status == 304);
  return req;
}
}  // namespace

TEST_CASE("service: unchanged pages get WARC revisit records that refer to the first fetch", "[unit]") {
  CacheDir dir;
  crawl::ManualClock clock;
  qs::QueueServerServiceImpl service("qs-revisit", &clock, nullptr);
  service.EnableWarc(dir.path.string(), 1'000'000);
  grpc::ServerContext ctx;
  v1::InjectSeedsRequest seeds;
  seeds.mutable_crawl()->set_crawl_id(11);
  seeds.mutable_crawl()->set_state(v1::CRAWL_STATE_RUNNING);
  seeds.mutable_crawl()->mutable_params()->set_keep_page_cache(true);
  seeds.add_urls("http://a.test/page");
  v1::InjectSeedsResponse injected;
  REQUIRE(service.InjectSeeds(&ctx, &seeds, &injected).ok());

  const int64_t first = 1'700'000'000'000'000;
  v1::SubmitResultsResponse resp;
  auto a = Submit(0, 200, "<p>same</p>", first);
  auto b = Submit(1, 304, "", first + 1'000'000);
  auto c = Submit(2, 200, "<p>same</p>", first + 2'000'000);
  REQUIRE(service.SubmitResults(&ctx, &a, &resp).ok());
  REQUIRE(service.SubmitResults(&ctx, &b, &resp).ok());
  REQUIRE(service.SubmitResults(&ctx, &c, &resp).ok());

  std::vector<qs::WarcRecord> records;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) files.push_back(e.path());
  REQUIRE(files.size() == 1);
  REQUIRE(
      qs::ReadWarcFile(files[0].string(), [&](qs::WarcRecord&& r) { records.push_back(std::move(r)); }).ok());
  std::vector<std::string> types;
  for (auto& r : records) types.push_back(r.headers["WARC-Type"]);
  CHECK(types == std::vector<std::string>{"warcinfo", "response", "request", "revisit", "revisit"});
  REQUIRE(records.size() == 5);
  CHECK(records[3].headers["WARC-Profile"] == qs::kRevisitNotModifiedProfile);
  CHECK(records[4].headers["WARC-Profile"] == qs::kRevisitIdenticalDigestProfile);
  for (size_t i : {size_t{3}, size_t{4}}) {
    CHECK(records[i].headers["WARC-Refers-To-Target-URI"] == "http://a.test/page");
    CHECK(records[i].headers["WARC-Refers-To-Date"] == records[1].headers["WARC-Date"]);
  }
  // The cached page is still the first fetch's response.
  v1::CachedPageRequest cached_req;
  cached_req.set_crawl_id(11);
  cached_req.set_url("http://a.test/page");
  v1::CachedPageResponse cached;
  REQUIRE(service.GetCachedPage(&ctx, &cached_req, &cached).ok());
  CHECK(cached.found());
  CHECK(cached.body() == "<p>same</p>");
}
