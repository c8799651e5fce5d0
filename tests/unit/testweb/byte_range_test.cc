// Tests for Range header handling (tests/testweb/byte_range.h).
#include "tests/testweb/byte_range.h"

#include <catch2/catch.hpp>

namespace crawl::testweb {
namespace {

using Kind = ByteRange::Kind;

// RFC 9110 section 14.1.2: first-last, first-, and -suffix forms.
TEST_CASE("a prefix range shorter than the body is partial", "[unit]") {
  const ByteRange r = ParseByteRange("bytes=0-99", 1000);
  CHECK(r.kind == Kind::kPartial);
  CHECK(r.first == 0);
  CHECK(r.last == 99);
}

TEST_CASE("a range reaching past the end is clipped, or whole when it covers all", "[unit]") {
  CHECK(ParseByteRange("bytes=0-999", 1000).kind == Kind::kIgnore);
  CHECK(ParseByteRange("bytes=0-5000", 1000).kind == Kind::kIgnore);
  CHECK(ParseByteRange("bytes=0-", 1000).kind == Kind::kIgnore);
  const ByteRange r = ParseByteRange("bytes=500-5000", 1000);
  CHECK(r.kind == Kind::kPartial);
  CHECK(r.first == 500);
  CHECK(r.last == 999);
}

TEST_CASE("suffix ranges count from the end", "[unit]") {
  const ByteRange r = ParseByteRange("bytes=-10", 100);
  CHECK(r.kind == Kind::kPartial);
  CHECK(r.first == 90);
  CHECK(r.last == 99);
  CHECK(ParseByteRange("bytes=-1000", 100).kind == Kind::kIgnore);
}

TEST_CASE("a range starting past the end is unsatisfiable", "[unit]") {
  CHECK(ParseByteRange("bytes=1000-1100", 1000).kind == Kind::kUnsatisfiable);
  CHECK(ParseByteRange("bytes=-0", 1000).kind == Kind::kUnsatisfiable);
}

// RFC 9110 section 14.2: a server may ignore a Range header.
TEST_CASE("malformed, multiple and foreign ranges are ignored", "[unit]") {
  for (const char* h : {"", "bytes=", "bytes=a-b", "bytes=5-1", "items=0-5", "bytes=0-1,5-6", "bytes 0-5"}) {
    INFO(h);
    CHECK(ParseByteRange(h, 1000).kind == Kind::kIgnore);
  }
}

}  // namespace
}  // namespace crawl::testweb
