// Regression tests for findings of the fuzzers (fuzz/, docs/ARCHITECTURE.md
// "Reliability: fuzzing and sanitizers"): each case is an input that once
// broke a property the fuzz target checks.
#include <catch2/catch.hpp>
#include <string>

#include "fetcher/page/charset.h"
#include "fetcher/page/page_processor.h"

using crawl::fetcher::DecodeBody;
using crawl::fetcher::FetchResult;
using crawl::fetcher::ProcessFetch;
using crawl::fetcher::ValidUtf8Prefix;

namespace {

bool IsValidUtf8(const std::string& s) { return ValidUtf8Prefix(s) == s.size(); }

// What the queue server does with the fetcher's batch: parse it from the wire.
bool ParsesBack(const crawl::v1::FetchRecord& record) {
  std::string wire;
  if (!record.SerializeToString(&wire)) return false;
  crawl::v1::FetchRecord back;
  return back.ParseFromString(wire);
}

crawl::v1::ScheduledUrl Scheduled(const std::string& url) {
  crawl::v1::ScheduledUrl u;
  u.set_url(url);
  return u;
}

}  // namespace

// fuzz/html_fuzzer, crash-a238d2b4: a <meta> charset label of non-UTF-8
// bytes was copied into FetchRecord.charset, a proto3 string; the record no
// longer parsed, which would make the queue server reject the whole batch.
TEST_CASE("an unsupported charset label of invalid UTF-8 is reported as valid UTF-8", "[unit][fuzz]") {
  const std::string page =
      "<html><head><meta http-equiv=\"content-type\" content=\"text/html; "
      "charset=\x97\x8c\x90\xd2\xc7\xc7-2\">"
      "<title>\xb1</title></head><body>x</body>";
  const auto decoded = DecodeBody(page, "", crawl::fetcher::BodyKind::kHtml);
  CHECK(IsValidUtf8(decoded.charset));
  CHECK(!decoded.charset.empty());
  CHECK(IsValidUtf8(DecodeBody("x", "koi8-\xff", crawl::fetcher::BodyKind::kText).charset));
  CHECK(DecodeBody("x", "koi8-r", crawl::fetcher::BodyKind::kText).charset ==
        "koi8-r");  // the standard's name

  FetchResult r;
  r.url = "http://a.test/";
  r.status = 200;
  r.body = page;
  r.mime_type = "text/html";
  const auto processed = ProcessFetch(Scheduled(r.url), r, {});
  CHECK(ParsesBack(processed.record));
}

// Same property for the fields the fetcher copies from response headers: a
// hostile server's Content-Type or Content-Encoding bytes.
TEST_CASE("header bytes that are not UTF-8 do not make the record unparsable", "[unit][fuzz]") {
  FetchResult r;
  r.url = "http://a.test/x";
  r.status = 200;
  r.body = "body";
  r.content_type = "text/\xff\xfe";
  r.mime_type = "text/\xff\xfe";
  r.error = "unsupported content-encoding '\xc3\x28' (HTTP 200)";
  const auto processed = ProcessFetch(Scheduled(r.url), r, {});
  CHECK(IsValidUtf8(processed.record.mime_type()));
  CHECK(IsValidUtf8(processed.record.error()));
  CHECK(processed.record.mime_type().starts_with("text/"));
  CHECK(ParsesBack(processed.record));
}
