// The shared zlib wrapper (common/base/zlib_stream.h): round trips in the three
// formats, cut and corrupt input, the output cap, concatenated gzip members.
#include "common/base/zlib_stream.h"

#include <catch2/catch.hpp>
#include <string>

using namespace crawl;

namespace {

std::string Compressed(std::string_view text, ZlibFormat format, int level = -1) {
  Deflater deflater({.format = format, .level = level});
  std::string out;
  REQUIRE(deflater.Compress(text, &out).ok());
  return out;
}

std::string Varied(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; s.size() < n; ++i) s += "word" + std::to_string(i * 7919 % 1000) + " ";
  s.resize(n);
  return s;
}

}  // namespace

TEST_CASE("zlib, gzip and raw deflate round trip; auto detects zlib and gzip headers", "[unit]") {
  const std::string text = Varied(100'000);
  for (ZlibFormat format : {ZlibFormat::kZlib, ZlibFormat::kGzip, ZlibFormat::kRaw}) {
    const std::string packed = Compressed(text, format);
    CHECK(packed.size() < text.size() / 2);
    std::string out;
    auto r = Inflate(packed, {.format = format}, &out);
    REQUIRE(r.ok());
    CHECK(out == text);
    CHECK(r->complete);
    CHECK_FALSE(r->capped);
    CHECK(r->consumed == packed.size());
    if (format == ZlibFormat::kRaw) continue;
    auto detected = Inflate(packed, {.format = ZlibFormat::kAuto}, &out);
    REQUIRE(detected.ok());
    CHECK(out == text);
  }
  const std::string gz = Compressed(text, ZlibFormat::kGzip);
  CHECK(gz.substr(0, 2) == "\x1f\x8b");
}

TEST_CASE("empty text round trips; empty input is a cut stream, not an error", "[unit]") {
  std::string out = "stale";
  auto r = Inflate(Compressed("", ZlibFormat::kGzip), {.format = ZlibFormat::kGzip}, &out);
  REQUIRE(r.ok());
  CHECK(out.empty());
  CHECK(r->complete);
  out = "stale";
  auto none = Inflate("", {}, &out);
  REQUIRE(none.ok());
  CHECK(out.empty());
  CHECK_FALSE(none->complete);
  CHECK(none->consumed == 0);
}

TEST_CASE("a cut stream gives what decoded and complete = false", "[unit]") {
  const std::string text = Varied(50'000);
  const std::string gz = Compressed(text, ZlibFormat::kGzip);
  for (std::size_t cut : {gz.size() - 1, gz.size() - 8, gz.size() / 2, std::size_t{5}}) {
    std::string out;
    auto r = Inflate(std::string_view(gz).substr(0, cut), {}, &out);
    REQUIRE(r.ok());
    CHECK_FALSE(r->complete);
    CHECK_FALSE(r->capped);
    CHECK(r->consumed == 0);
    CHECK(text.starts_with(out));
  }
}

TEST_CASE("corrupt input is InvalidArgument with zlib's message; output so far is kept", "[unit]") {
  std::string out;
  auto header = Inflate("this is not compressed at all", {}, &out);
  REQUIRE_FALSE(header.ok());
  CHECK(header.status().code() == StatusCode::kInvalidArgument);
  CHECK(header.status().message() == "incorrect header check");

  const std::string text = Varied(200'000);
  std::string gz = Compressed(text, ZlibFormat::kGzip);
  gz[gz.size() - 6] ^= 0x55;  // the CRC-32 in the trailer
  auto crc = Inflate(gz, {}, &out);
  REQUIRE_FALSE(crc.ok());
  CHECK(crc.status().message() == "incorrect data check");
  CHECK(out == text);  // every byte decoded before the check failed
}

TEST_CASE("the output cap stops a bomb at the cap and says so; an exact fit is not capped", "[unit]") {
  const std::string zeros(20 * 1024 * 1024, '\0');
  const std::string bomb = Compressed(zeros, ZlibFormat::kGzip, 9);
  REQUIRE(bomb.size() < 64 * 1024);
  std::string out;
  auto r = Inflate(bomb, {.max_output = 1024 * 1024}, &out);
  REQUIRE(r.ok());
  CHECK(r->capped);
  CHECK_FALSE(r->complete);
  CHECK(out.size() == 1024 * 1024);
  CHECK(out.capacity() <= 4 * 1024 * 1024);  // never decoded far past the cap

  const std::string text = Varied(10'000);
  const std::string z = Compressed(text, ZlibFormat::kZlib);
  auto exact = Inflate(z, {.max_output = text.size()}, &out);
  REQUIRE(exact.ok());
  CHECK_FALSE(exact->capped);
  CHECK(exact->complete);
  CHECK(out == text);
  auto one_over = Inflate(z, {.max_output = text.size() - 1}, &out);
  REQUIRE(one_over.ok());
  CHECK(one_over->capped);
  CHECK(out == text.substr(0, text.size() - 1));
  auto zero = Inflate(z, {.max_output = 0}, &out);
  REQUIRE(zero.ok());
  CHECK(zero->capped);
  CHECK(out.empty());
}

TEST_CASE("concatenated gzip members: the first only, or all of them; padding after one is ignored",
          "[unit]") {
  const std::string a = Varied(3'000), b = "second member";
  const std::string first = Compressed(a, ZlibFormat::kGzip);
  const std::string both = first + Compressed(b, ZlibFormat::kGzip);
  std::string out;
  auto one = Inflate(both, {.format = ZlibFormat::kGzip}, &out);
  REQUIRE(one.ok());
  CHECK(out == a);
  CHECK(one->complete);
  CHECK(one->consumed == first.size());  // where the next member starts

  auto all = Inflate(both, {.all_members = true}, &out);
  REQUIRE(all.ok());
  CHECK(out == a + b);
  CHECK(all->complete);
  CHECK(all->consumed == both.size());

  auto padded = Inflate(first + std::string(16, '\0'), {.all_members = true}, &out);
  REQUIRE(padded.ok());
  CHECK(out == a);
  CHECK(padded->complete);
  CHECK(padded->consumed == first.size());

  auto cut = Inflate(std::string_view(both).substr(0, both.size() - 3), {.all_members = true}, &out);
  REQUIRE(cut.ok());
  CHECK_FALSE(cut->complete);
  CHECK(cut->consumed == first.size());
}

TEST_CASE("a reused deflater gives a fresh stream's output; CompressedSize matches Compress", "[unit]") {
  Deflater reused({.format = ZlibFormat::kRaw, .level = 6, .window_log = 10, .mem_level = 1});
  for (const std::string& text : {Varied(500), std::string("Home"), std::string(), Varied(70'000)}) {
    std::string again = "prefix";
    REQUIRE(reused.Compress(text, &again).ok());
    Deflater fresh({.format = ZlibFormat::kRaw, .level = 6, .window_log = 10, .mem_level = 1});
    std::string once = "prefix";
    REQUIRE(fresh.Compress(text, &once).ok());
    CHECK(again == once);  // appended after what was there
    auto size = reused.CompressedSize(text);
    REQUIRE(size.ok());
    CHECK(*size + 6 == once.size());
  }
}

TEST_CASE("a deflater that cannot start reports it and leaves the output alone", "[unit]") {
  Deflater bad({.format = ZlibFormat::kAuto});
  std::string out = "kept";
  const Status s = bad.Compress("text", &out);
  CHECK(s.code() == StatusCode::kInternal);
  CHECK(out == "kept");
  CHECK_FALSE(bad.CompressedSize("text").ok());
}
