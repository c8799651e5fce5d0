// WARC revisit records (queueserver/store/warc_writer.h; WARC 1.1 section
// 6.7): profile, refers-to fields, digests, header-only block.
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <vector>

#include "queueserver/store/warc_writer.h"
#include "tests/unit/support/fetched_page.h"

using namespace crawl::queueserver;
namespace v1 = crawl::v1;

namespace {
struct RevisitDir {
  RevisitDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() / ("warc_revisit_test." + std::to_string(rd()));
  }
  ~RevisitDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::filesystem::path path;
};

v1::FetchRecord Page(int status, const std::string& body, int64_t at_us) {
  return crawl::test_support::FetchedPage("http://a.test/p?q=1", body, status, at_us);
}

std::vector<WarcRecord> ReadAll(const RevisitDir& dir, const WarcWriter& w) {
  std::vector<WarcRecord> out;
  for (const std::string& f : w.files())
    REQUIRE(ReadWarcFile(f, [&](WarcRecord&& r) { out.push_back(std::move(r)); }).ok());
  (void)dir;
  return out;
}
}  // namespace

TEST_CASE("warc revisit: 304 and same-digest records are well-formed WARC 1.1 revisits", "[unit]") {
  RevisitDir dir;
  WarcWriter w(dir.path.string(), 5, 1'000'000);
  REQUIRE(w.Open().ok());
  const int64_t first_at = 1'700'000'000'000'000;  // 2023-11-14T22:13:20Z
  REQUIRE(w.Write(Page(200, "<p>hello</p>", first_at), "bot").ok());
  auto found = w.Find("http://a.test/p?q=1");
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  const WarcWriter::Location original = **found;

  v1::FetchRecord not_modified = Page(304, "", first_at + 60'000'000);
  not_modified.set_etag("\"v1\"");
  REQUIRE(w.WriteRevisit(not_modified, v1::REVISIT_NOT_MODIFIED, first_at).ok());
  REQUIRE(w.WriteRevisit(Page(200, "<p>hello</p>", first_at + 120'000'000), v1::REVISIT_IDENTICAL_DIGEST,
                         first_at)
              .ok());
  // Without the whole body there is no payload digest to write: nothing.
  v1::FetchRecord no_body = Page(200, "", first_at + 180'000'000);
  no_body.set_bytes(12);
  REQUIRE(w.WriteRevisit(no_body, v1::REVISIT_IDENTICAL_DIGEST, first_at).ok());

  auto records = ReadAll(dir, w);
  // warcinfo, response, request, then the two revisits.
  REQUIRE(records.size() == 5);
  WarcRecord& nm = records[3];
  CHECK(nm.headers["WARC-Type"] == "revisit");
  CHECK(nm.headers["WARC-Profile"] == "http://netpreserve.org/warc/1.1/revisit/server-not-modified");
  CHECK(nm.headers["WARC-Target-URI"] == "http://a.test/p?q=1");
  CHECK(nm.headers["WARC-Refers-To-Target-URI"] == "http://a.test/p?q=1");
  CHECK(nm.headers["WARC-Refers-To-Date"] == "2023-11-14T22:13:20Z");
  CHECK(nm.headers["WARC-Date"] == "2023-11-14T22:14:20Z");
  CHECK(nm.headers["Content-Type"] == "application/http;msgtype=response");
  CHECK(nm.headers.count("WARC-Payload-Digest") == 0);
  CHECK(nm.headers["WARC-Block-Digest"] == Sha1Digest(nm.block));
  CHECK(nm.headers["Content-Length"] == std::to_string(nm.block.size()));
  CHECK(nm.block == "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n");
  CHECK(nm.headers["WARC-Record-ID"].starts_with("<urn:uuid:"));

  WarcRecord& same = records[4];
  CHECK(same.headers["WARC-Type"] == "revisit");
  CHECK(same.headers["WARC-Profile"] == "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest");
  CHECK(same.headers["WARC-Payload-Digest"] == Sha1Digest("<p>hello</p>"));
  CHECK(same.headers["WARC-Payload-Digest"] == records[1].headers["WARC-Payload-Digest"]);
  CHECK(same.headers["WARC-Refers-To-Date"] == records[1].headers["WARC-Date"]);
  // Header only: the payload is in the record it refers to.
  CHECK(same.block.ends_with("\r\n\r\n"));
  CHECK(same.block.find("hello") == std::string::npos);
  auto parts = ParseHttpResponse(same.block);
  REQUIRE(parts.ok());
  CHECK(parts->status == 200);

  // The cached page is still the original response.
  REQUIRE(w.FlushLocations().ok());
  auto after = w.Find("http://a.test/p?q=1");
  REQUIRE(after.ok());
  REQUIRE(after->has_value());
  CHECK((*after)->offset == original.offset);
}

TEST_CASE("warc revisit: no record for a non-revisit, a failure or a bad URL", "[unit]") {
  RevisitDir dir;
  WarcWriter w(dir.path.string(), 6, 1'000'000);
  REQUIRE(w.Open().ok());
  REQUIRE(w.WriteRevisit(Page(200, "x", 1), v1::REVISIT_NONE, 0).ok());
  REQUIRE(w.WriteRevisit(Page(-2, "", 1), v1::REVISIT_NOT_MODIFIED, 0).ok());
  CHECK(w.files().empty());
  v1::FetchRecord bad = Page(304, "", 1);
  bad.set_url("not a url");
  CHECK_FALSE(w.WriteRevisit(bad, v1::REVISIT_NOT_MODIFIED, 0).ok());
  CHECK(w.files().empty());
}
