// Tests for Accept-Encoding handling and gzip output (tests/testweb/gzip.h).
#include "tests/testweb/gzip.h"

#include <zlib.h>

#include <catch2/catch.hpp>

namespace crawl::testweb {
namespace {

// RFC 9110 section 12.5.3: codings listed, q=0 refuses, "*" matches any.
TEST_CASE("gzip is accepted when listed without q=0", "[unit]") {
  CHECK(AcceptsGzip("gzip"));
  CHECK(AcceptsGzip("deflate, GZIP;q=0.5"));
  CHECK(AcceptsGzip("x-gzip"));
  CHECK(AcceptsGzip("*"));
  CHECK_FALSE(AcceptsGzip(""));
  CHECK_FALSE(AcceptsGzip("identity"));
  CHECK_FALSE(AcceptsGzip("gzip;q=0"));
  CHECK_FALSE(AcceptsGzip("br, deflate"));
}

TEST_CASE("gzip output has the gzip magic and inflates back", "[unit]") {
  const std::string text(10000, 'x');
  const std::string gz = GzipCompress(text);
  REQUIRE(gz.size() > 18);
  CHECK(static_cast<unsigned char>(gz[0]) == 0x1f);
  CHECK(static_cast<unsigned char>(gz[1]) == 0x8b);
  CHECK(gz.size() < text.size() / 10);
  z_stream z{};
  REQUIRE(inflateInit2(&z, 15 + 16) == Z_OK);
  std::string out(text.size() + 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  CHECK(inflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  inflateEnd(&z);
  CHECK(out == text);
}

}  // namespace
}  // namespace crawl::testweb
