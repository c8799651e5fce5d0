// Revisits: conditional requests against a loopback server
// (fetcher/http/http_fetcher.h), and what a 304 or an unchanged 2xx becomes in
// the fetch record (fetcher/page/revisit.h, fetcher/page/page_processor.h).
// RFC 9110 13.1 (preconditions), RFC 9111 4.2.1 / 5.2.2.1 / 5.3 (freshness).

// GCC 12 with -fsanitize=address reports a false -Wmaybe-uninitialized in
// Beast's request parser, used here by the test server only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "fetcher/page/revisit.h"

#include <catch2/catch.hpp>
#include <mutex>

#include "common/base/hash.h"
#include "fetcher/http/http_fetcher.h"
#include "fetcher/page/page_processor.h"
#include "test_http_server.h"
#include "tests/unit/support/mini_index_terms.h"

namespace {

using namespace std::chrono_literals;
namespace fe = crawl::fetcher;
namespace v1 = crawl::v1;
using fe::testing::Reply;
using fe::testing::Request;
using fe::testing::TestServer;

fe::FetcherOptions LoopbackOptions() {
  fe::FetcherOptions options;
  options.user_agent = "crawl-test/1.0";
  options.allow_private = true;
  options.connect_timeout = 2000ms;
  options.request_timeout = 5000ms;
  return options;
}

std::vector<fe::FetchResult> FetchTargets(std::vector<fe::FetchTarget> targets) {
  boost::asio::io_context ioc;
  fe::HttpFetcher fetcher(ioc, LoopbackOptions());
  std::vector<fe::FetchResult> results;
  fetcher.FetchSequence(
      std::move(targets), [&](fe::FetchResult r) { results.push_back(std::move(r)); }, [] {});
  ioc.run();
  return results;
}

v1::ScheduledUrl Page(const std::string& url, const std::string& previous_digest = "") {
  v1::ScheduledUrl u;
  u.set_url(url);
  u.set_kind(v1::URL_KIND_PAGE);
  u.set_previous_digest(previous_digest);
  return u;
}

fe::FetchResult Fetched(const std::string& url, int status, const std::string& body) {
  fe::FetchResult r;
  r.url = url;
  r.status = status;
  r.body = body;
  r.mime_type = "text/html";
  r.content_type = "text/html";
  r.start_unix_us = 1'000'000'000'000'000;  // 2001-09-09, in seconds 1e9
  return r;
}

const char kPage[] = "<html><head><title>T</title></head><body>words here <a href=/x>x</a></body></html>";

}  // namespace

TEST_CASE("revisit: validators are sent as If-None-Match / If-Modified-Since and a 304 comes back bodiless",
          "[unit]") {
  std::mutex mu;
  std::vector<std::pair<std::string, std::string>> conditions;
  TestServer server([&](const Request& request) -> Reply {
    const std::string inm(request[boost::beast::http::field::if_none_match]);
    const std::string ims(request[boost::beast::http::field::if_modified_since]);
    {
      std::lock_guard lock(mu);
      conditions.emplace_back(inm, ims);
    }
    if (inm == "\"v1\"")
      return {"HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nCache-Control: max-age=60\r\n\r\n"};
    return {fe::testing::Response(200, "fresh",
                                  "ETag: \"v1\"\r\nLast-Modified: Tue, 01 Jan 2030 00:00:00 GMT\r\n")};
  });
  auto results = FetchTargets({{server.base() + "/a", "\"v1\"", "Tue, 01 Jan 2030 00:00:00 GMT"},
                               {server.base() + "/b", "", ""},
                               {server.base() + "/c", "\"v1\"", ""}});
  REQUIRE(results.size() == 3);
  REQUIRE(conditions.size() == 3);
  CHECK(conditions[0] == std::make_pair(std::string("\"v1\""), std::string("Tue, 01 Jan 2030 00:00:00 GMT")));
  CHECK(conditions[1] == std::make_pair(std::string(), std::string()));  // a first visit asks unconditionally
  CHECK(results[0].status == 304);
  CHECK(results[0].conditional);
  CHECK(results[0].body.empty());
  CHECK(results[0].etag == "\"v1\"");
  CHECK(results[0].cache_control == "max-age=60");
  CHECK(results[1].status == 200);
  CHECK_FALSE(results[1].conditional);
  CHECK(results[1].body == "fresh");
  // The 304 had no body to read: the connection carried the next requests.
  CHECK(results[2].status == 304);
  CHECK(server.connections() == 1);
}

TEST_CASE("revisit: a validator with control characters or over the size limit is not sent", "[unit]") {
  std::mutex mu;
  std::vector<std::string> seen;
  TestServer server([&](const Request& request) -> Reply {
    std::lock_guard lock(mu);
    seen.emplace_back(request[boost::beast::http::field::if_none_match]);
    return {fe::testing::Response(200, "x")};
  });
  auto results = FetchTargets({{server.base() + "/a", "\"a\"\r\nX-Evil: 1", ""},
                               {server.base() + "/b", std::string(fe::kMaxValidatorBytes + 1, 'e'), ""}});
  REQUIRE(results.size() == 2);
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].empty());
  CHECK(seen[1].empty());
  CHECK_FALSE(results[0].conditional);
  CHECK(results[0].status == 200);
}

TEST_CASE("revisit: a 304 becomes a not-modified record with no processing", "[unit]") {
  fe::FetchResult r = Fetched("http://a.test/p", 304, "");
  r.conditional = true;
  r.etag = "\"v2\"";
  auto p = fe::ProcessFetch(Page("http://a.test/p", "00112233aabbccdd"), r, {});
  CHECK(p.record.status() == 304);
  CHECK(p.record.revisit() == v1::REVISIT_NOT_MODIFIED);
  CHECK(p.record.conditional());
  CHECK(p.record.etag() == "\"v2\"");
  CHECK(p.record.content_digest() == "00112233aabbccdd");  // the content it confirms
  CHECK(p.links.empty());
  CHECK_FALSE(p.record.has_mini_index());
  CHECK(p.record.body().empty());
  // To an unconditional request a 304 is just a status.
  r.conditional = false;
  CHECK(fe::ProcessFetch(Page("http://a.test/p", "00112233aabbccdd"), r, {}).record.revisit() ==
        v1::REVISIT_NONE);
}

TEST_CASE(
    "revisit: a 200 with the previous digest is unchanged and not processed, another digest is processed",
    "[unit]") {
  const std::string digest = crawl::hash::ContentDigestHex(kPage);
  auto same = fe::ProcessFetch(Page("http://a.test/p", digest), Fetched("http://a.test/p", 200, kPage), {});
  CHECK(same.record.revisit() == v1::REVISIT_IDENTICAL_DIGEST);
  CHECK(same.record.content_digest() == digest);
  CHECK(same.links.empty());
  CHECK_FALSE(same.record.has_mini_index());
  CHECK(same.record.title().empty());

  auto changed = fe::ProcessFetch(Page("http://a.test/p", "ffffffffffffffff"),
                                  Fetched("http://a.test/p", 200, kPage), {});
  CHECK(changed.record.revisit() == v1::REVISIT_NONE);
  CHECK(changed.record.title() == "T");
  CHECK_FALSE(changed.links.empty());
  CHECK(!crawl::test_support::Terms(changed.record.mini_index()).empty());

  // A first visit (no previous digest) is never unchanged.
  auto first = fe::ProcessFetch(Page("http://a.test/p"), Fetched("http://a.test/p", 200, kPage), {});
  CHECK(first.record.revisit() == v1::REVISIT_NONE);
}

TEST_CASE("revisit: the record keeps sendable validators and the freshness limit", "[unit]") {
  fe::FetchResult r = Fetched("http://a.test/p", 200, kPage);
  r.etag = "W/\"x\"";
  r.last_modified = "Tue, 01 Jan 2030 00:00:00 GMT";
  r.cache_control = "public, Max-Age=\"120\"";
  r.expires = "Wed, 02 Jan 2030 00:00:00 GMT";
  auto p = fe::ProcessFetch(Page("http://a.test/p"), r, {});
  CHECK(p.record.etag() == "W/\"x\"");
  CHECK(p.record.last_modified() == "Tue, 01 Jan 2030 00:00:00 GMT");
  CHECK(p.record.expires_unix_s() == 1'000'000'000 + 120);  // max-age wins over Expires

  r.cache_control.clear();
  r.etag = std::string("\"\x01\"");  // not sendable: dropped
  p = fe::ProcessFetch(Page("http://a.test/p"), r, {});
  CHECK(p.record.expires_unix_s() == 1'893'542'400);  // the Expires date
  CHECK(p.record.etag().empty());
}

TEST_CASE("revisit: max-age parsing follows RFC 9111 5.2.2.1", "[unit][rfc9111]") {
  CHECK(fe::MaxAgeSeconds("max-age=0") == 0);
  CHECK(fe::MaxAgeSeconds("no-cache, max-age=30") == 30);
  CHECK(fe::MaxAgeSeconds("s-maxage=10") == -1);  // for shared caches only
  CHECK(fe::MaxAgeSeconds("max-age=abc") == -1);
  CHECK(fe::MaxAgeSeconds("max-age=") == -1);
  CHECK(fe::MaxAgeSeconds("") == -1);
  CHECK(fe::MaxAgeSeconds("max-age=99999999999999999999999") == (int64_t{1} << 31));  // RFC 9111 1.2.2
  CHECK(fe::ExpiresUnixSeconds("", "", 5) == 0);
  CHECK(fe::ExpiresUnixSeconds("", "0", 5) == 0);  // invalid Expires: unknown
}
