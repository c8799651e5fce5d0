// WARC/1.1 page caches (queueserver/store/warc_writer.h): records, digests,
// gzip members, rolling, reopening. An independent reader (warcio) checks
// the files in tests/integration/warc_cache_test.sh.
#include "queueserver/store/warc_writer.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "tests/unit/support/fetched_page.h"
#include "tests/unit/support/temp_dir.h"

using namespace crawl::queueserver;
using crawl::test_support::TempDir;
namespace v1 = crawl::v1;

namespace {
v1::FetchRecord Fetched(const std::string& url, const std::string& body) {
  return crawl::test_support::FetchedPage(url, body);
}
}  // namespace

// RFC 4648 section 10 test vectors.
TEST_CASE("base32 follows RFC 4648", "[unit]") {
  CHECK(Base32("") == "");
  CHECK(Base32("f") == "MY======");
  CHECK(Base32("fo") == "MZXQ====");
  CHECK(Base32("foo") == "MZXW6===");
  CHECK(Base32("foobar") == "MZXW6YTBOI======");
  // SHA-1 of "abc" (a9993e36...) in base32, as WARC tools write it.
  CHECK(Sha1Digest("abc") == "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
}

TEST_CASE("request and response records come back with their digests", "[unit]") {
  TempDir dir;
  WarcWriter w(dir.path.string(), 9, 1'000'000);
  REQUIRE(w.Open().ok());
  REQUIRE(w.Write(Fetched("http://a.test:8080/x?y=1", "<p>hello</p>"), "testbot").ok());
  REQUIRE(w.files().size() == 1);
  std::vector<WarcRecord> records;
  REQUIRE(ReadWarcFile(w.files()[0], [&](WarcRecord&& r) { records.push_back(std::move(r)); }).ok());
  REQUIRE(records.size() == 3);
  CHECK(records[0].headers["WARC-Type"] == "warcinfo");
  WarcRecord& resp = records[1];
  CHECK(resp.headers["WARC-Type"] == "response");
  CHECK(resp.headers["WARC-Target-URI"] == "http://a.test:8080/x?y=1");
  CHECK(resp.headers["Content-Type"] == "application/http;msgtype=response");
  CHECK(resp.headers["WARC-Date"] == "2023-11-14T22:13:20Z");
  CHECK(resp.headers["WARC-Block-Digest"] == Sha1Digest(resp.block));
  CHECK(resp.headers["WARC-Payload-Digest"] == Sha1Digest("<p>hello</p>"));
  auto http = ParseHttpResponse(resp.block);
  REQUIRE(http.ok());
  CHECK(http->status == 200);
  CHECK(http->content_type == "text/html");
  CHECK(http->body == "<p>hello</p>");
  WarcRecord& req = records[2];
  CHECK(req.headers["WARC-Type"] == "request");
  CHECK(req.headers["WARC-Concurrent-To"] == resp.headers["WARC-Record-ID"]);
  CHECK(req.block.starts_with("GET /x?y=1 HTTP/1.1\r\nHost: a.test:8080\r\nUser-Agent: testbot\r\n"));
  // Each record is its own gzip member: the response can be read alone.
  auto found = w.Find("http://a.test:8080/x?y=1");
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  const WarcWriter::Location* at = &**found;
  CHECK(at->offset == resp.offset);
  auto alone = ReadWarcRecordAt(at->path, at->offset);
  REQUIRE(alone.ok());
  CHECK(alone->block == resp.block);
}

TEST_CASE("files roll at the size limit and a reopened writer finds its pages", "[unit]") {
  TempDir dir;
  {
    WarcWriter w(dir.path.string(), 3, 200);  // every page overflows a file
    REQUIRE(w.Open().ok());
    for (int i = 0; i < 4; ++i)
      REQUIRE(w.Write(Fetched("http://a.test/" + std::to_string(i), std::string(300, 'a' + i)), "").ok());
    CHECK(w.files().size() == 4);
  }
  // A cut tail (a kill in mid-write) is skipped, not fatal.
  {
    std::ofstream tail(dir.path / "crawl-3-00003.warc.gz", std::ios::binary | std::ios::app);
    tail << "\x1f\x8b\x08";
  }
  WarcWriter again(dir.path.string(), 3, 200);
  REQUIRE(again.Open().ok());
  auto found = again.Find("http://a.test/2");
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  const WarcWriter::Location* at = &**found;
  auto rec = ReadWarcRecordAt(at->path, at->offset);
  REQUIRE(rec.ok());
  auto http = ParseHttpResponse(rec->block);
  REQUIRE(http.ok());
  CHECK(http->body == std::string(300, 'c'));
  REQUIRE(again.Write(Fetched("http://a.test/new", "n"), "").ok());
  CHECK(again.files().back().ends_with("crawl-3-00004.warc.gz"));
  CHECK(again.Find("http://a.test/3")->has_value());
  CHECK_FALSE(again.Find("http://a.test/none")->has_value());
}

TEST_CASE("reading stops at a damaged gzip member; the records before it are read", "[unit]") {
  TempDir dir;
  std::string path;
  {
    WarcWriter w(dir.path.string(), 5, 1 << 20);
    REQUIRE(w.Open().ok());
    REQUIRE(w.Write(Fetched("http://a.test/1", "first"), "").ok());
    REQUIRE(w.Write(Fetched("http://a.test/2", "second"), "").ok());
    path = w.files().back();
  }
  std::vector<uint64_t> offsets;
  REQUIRE(ReadWarcFile(path, [&](WarcRecord&& r) { offsets.push_back(r.offset); }).ok());
  REQUIRE(offsets.size() == 5);  // warcinfo, then response and request per page
  // Flip a byte of the fourth member's CRC-32 (its last 8 bytes are CRC and size).
  {
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    f.seekg(static_cast<std::streamoff>(offsets[4] - 6));
    char c = 0;
    f.get(c);
    f.seekp(static_cast<std::streamoff>(offsets[4] - 6));
    f.put(static_cast<char>(c ^ 0x55));
  }
  std::vector<uint64_t> read;
  REQUIRE(ReadWarcFile(path, [&](WarcRecord&& r) { read.push_back(r.offset); }).ok());
  CHECK(read == std::vector<uint64_t>(offsets.begin(), offsets.begin() + 3));
  CHECK_FALSE(ReadWarcRecordAt(path, offsets[3]).ok());
  CHECK(ReadWarcRecordAt(path, offsets[4]).ok());
}

TEST_CASE("a response names the charset its body was read as, when that is a plain token", "[unit]") {
  TempDir dir;
  WarcWriter w(dir.path.string(), 9, 1'000'000);
  REQUIRE(w.Open().ok());
  v1::FetchRecord sjis = Fetched("http://a.test/sjis", "<p>\x93\x8c\x8b\x9e</p>");
  sjis.set_charset("shift_jis");
  v1::FetchRecord hostile = Fetched("http://a.test/hostile", "<p>x</p>");
  hostile.set_charset("utf-8\r\nSet-Cookie: a=b");
  REQUIRE(w.Write(sjis, "testbot").ok());
  REQUIRE(w.Write(hostile, "testbot").ok());
  std::map<std::string, std::string> type;
  REQUIRE(ReadWarcFile(w.files()[0], [&](WarcRecord&& r) {
            if (r.headers["WARC-Type"] != "response") return;
            auto http = ParseHttpResponse(r.block);
            REQUIRE(http.ok());
            type[r.headers["WARC-Target-URI"]] = http->content_type;
          }).ok());
  CHECK(type["http://a.test/sjis"] == "text/html; charset=shift_jis");
  CHECK(type["http://a.test/hostile"] == "text/html");
}
