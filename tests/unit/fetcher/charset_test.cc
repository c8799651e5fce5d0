// Charset detection and conversion (fetcher/page/charset.h; WHATWG Encoding).
#include "fetcher/page/charset.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using namespace crawl::fetcher;

TEST_CASE("charset labels: latin1 family is windows-1252, utf8 aliases, unknown", "[unit]") {
  CHECK(EncodingForLabel("UTF-8") == Encoding::kUtf8);
  CHECK(EncodingForLabel(" utf8 ") == Encoding::kUtf8);
  CHECK(EncodingForLabel("ISO-8859-1") == Encoding::kWindows1252);
  CHECK(EncodingForLabel("latin1") == Encoding::kWindows1252);
  CHECK(EncodingForLabel("US-ASCII") == Encoding::kWindows1252);
  CHECK(EncodingForLabel("\"windows-1252\"") == Encoding::kWindows1252);
  CHECK(EncodingForLabel("shift_jis") == Encoding::kUnsupported);
  CHECK(EncodingForLabel("") == Encoding::kUnsupported);
}

TEST_CASE("charset parameter of a Content-Type", "[unit]") {
  CHECK(CharsetFromContentType("text/html; charset=UTF-8") == "utf-8");
  CHECK(CharsetFromContentType("text/html;charset=\"ISO-8859-1\"") == "iso-8859-1");
  CHECK(CharsetFromContentType("text/html") == "");
  CHECK(CharsetFromContentType("text/html; foo=charset") == "");
}

TEST_CASE("meta charset prescan finds both meta forms in the first 1024 bytes", "[unit]") {
  CHECK(SniffMetaCharset("<html><head><meta charset=\"windows-1252\">") == "windows-1252");
  CHECK(SniffMetaCharset("<meta http-equiv=Content-Type content='text/html; charset=iso-8859-1'>") ==
        "iso-8859-1");
  CHECK(SniffMetaCharset("<!-- <meta charset=latin1> --><meta charset=utf-8>") == "utf-8");
  CHECK(SniffMetaCharset(std::string(1100, ' ') + "<meta charset=latin1>") == "");
  CHECK(SniffMetaCharset("<metadata charset=latin1>") == "");
}

TEST_CASE("windows-1252 bytes become UTF-8, 0x80-0x9F by the WHATWG table", "[unit]") {
  uint32_t invalid = 0;
  CHECK(ToUtf8("caf\xE9 \x93q\x94 \x80", Encoding::kWindows1252, &invalid) ==
        "caf\xC3\xA9 \xE2\x80\x9Cq\xE2\x80\x9D \xE2\x82\xAC");
  CHECK(invalid == 0);
}

TEST_CASE("invalid UTF-8 bytes become U+FFFD, one per maximal subpart", "[unit]") {
  uint32_t invalid = 0;
  // stray continuation byte, truncated 3-byte sequence, overlong, surrogate
  const std::string out = ToUtf8(
      "a\x80"
      "b\xE2\x82"
      "c\xC0\xAF"
      "d\xED\xA0\x80"
      "e",
      Encoding::kUtf8, &invalid);
  CHECK(out ==
        "a\xEF\xBF\xBD"
        "b\xEF\xBF\xBD"
        "c\xEF\xBF\xBD\xEF\xBF\xBD"
        "d\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
        "e");
  CHECK(invalid == 7);
  CHECK(ValidUtf8Prefix(out) == out.size());
}

TEST_CASE("decode order: BOM, header, meta, then valid-UTF-8 test", "[unit]") {
  // The header wins over the meta.
  auto a = DecodeBody("<meta charset=utf-8>caf\xE9", "iso-8859-1", true);
  CHECK(a.charset == "windows-1252");
  CHECK(a.text().ends_with("caf\xC3\xA9"));
  // The meta when there is no header.
  auto b = DecodeBody("<meta charset=latin1>caf\xE9", "", true);
  CHECK(b.charset == "windows-1252");
  // A BOM beats a wrong header label and is removed.
  auto c = DecodeBody(
      "\xEF\xBB\xBF"
      "caf\xC3\xA9",
      "iso-8859-1", true);
  CHECK(c.charset == "utf-8");
  CHECK(c.text() == "caf\xC3\xA9");
  // No label: invalid UTF-8 reads as windows-1252, valid as UTF-8.
  CHECK(DecodeBody("caf\xE9", "", true).charset == "windows-1252");
  CHECK(DecodeBody("caf\xC3\xA9", "", true).charset == "utf-8");
  // A wrong label (utf-8 on latin1 bytes): replaced, counted, no crash.
  auto d = DecodeBody("caf\xE9!", "utf-8", true);
  CHECK(d.text() == "caf\xEF\xBF\xBD!");
  CHECK(d.invalid_bytes == 1);
  // Unsupported labels are reported and read as UTF-8.
  auto e = DecodeBody("abc\xFF", "koi8-r", true);
  CHECK(e.charset == "koi8-r");
  CHECK(e.invalid_bytes == 1);
}

// A body read as UTF-8 that is valid already is the text itself, not a copy;
// every body gives the text the conversion would (the copying path it
// replaced: ToUtf8 of the body after any BOM, in the chosen encoding).
TEST_CASE("valid UTF-8 bodies are not copied, and every body reads as ToUtf8 reads it", "[unit]") {
  struct Case {
    std::string body;
    std::string header;
    Encoding encoding;
    size_t skip;  // a BOM
  };
  const std::vector<Case> cases = {
      {"plain ascii <p>text</p>", "", Encoding::kUtf8, 0},
      {"caf\xC3\xA9 ok", "utf-8", Encoding::kUtf8, 0},
      {"caf\xE9 latin", "", Encoding::kWindows1252, 0},
      {"caf\xE9 labelled", "iso-8859-1", Encoding::kWindows1252, 0},
      {"caf\xC3\xA9 labelled", "windows-1252", Encoding::kWindows1252, 0},
      {"caf\xE9 wrong label", "utf-8", Encoding::kUtf8, 0},
      {"abc\xFF unsupported", "koi8-r", Encoding::kUnsupported, 0},
      {"abc unsupported, valid", "shift_jis", Encoding::kUnsupported, 0},
      {"\xEF\xBB\xBF"
       "caf\xC3\xA9 bom",
       "iso-8859-1", Encoding::kUtf8, 3},
      {"\xEF\xBB\xBF"
       "bad \xE9 bom",
       "", Encoding::kUtf8, 3},
      {"", "", Encoding::kUtf8, 0},
  };
  for (const Case& c : cases) {
    INFO(c.body);
    const DecodedBody decoded = DecodeBody(c.body, c.header, true);
    const std::string_view rest = std::string_view(c.body).substr(c.skip);
    uint32_t invalid = 0;
    CHECK(decoded.text() == ToUtf8(rest, c.encoding, &invalid));
    CHECK(decoded.invalid_bytes == invalid);
    const bool borrowed = c.encoding != Encoding::kWindows1252 && ValidUtf8Prefix(rest) == rest.size();
    CHECK(decoded.converted == !borrowed);
    if (borrowed) CHECK(decoded.text().data() == rest.data());
  }
}

TEST_CASE("every byte value decodes without crashing and gives valid UTF-8", "[unit]") {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (const auto enc : {Encoding::kUtf8, Encoding::kWindows1252, Encoding::kUnsupported}) {
    uint32_t invalid = 0;
    const std::string out = ToUtf8(all + all, enc, &invalid);
    CHECK(ValidUtf8Prefix(out) == out.size());
  }
}

// ValidUtf8Prefix skips ASCII 32 bytes at a time: the first bad byte must be
// found wherever it falls in or after such a block. Reference: UTF-8 as
// Unicode's table of well-formed sequences (3.9, table 3-7) says, byte by
// byte.
TEST_CASE("ValidUtf8Prefix agrees with a byte-by-byte check wherever the bad byte is", "[unit]") {
  auto reference = [](const std::string& t) {
    const auto* s = reinterpret_cast<const unsigned char*>(t.data());
    const std::size_t n = t.size();
    std::size_t i = 0;
    while (i < n) {
      const unsigned char b = s[i];
      std::size_t len = b < 0x80                   ? 1
                        : (b >= 0xC2 && b <= 0xDF) ? 2
                        : (b >= 0xE0 && b <= 0xEF) ? 3
                        : (b >= 0xF0 && b <= 0xF4) ? 4
                                                   : 0;
      if (len == 0 || i + len > n) return i;
      unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
      if (len > 1 && (s[i + 1] < lo || s[i + 1] > hi)) return i;
      for (std::size_t k = 2; k < len; ++k) {
        if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
      }
      i += len;
    }
    return n;
  };
  const std::vector<std::string> odd = {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x80", "\xC3",
                                        "\xE2\x82", "\xED\xA0\x80", "\xC0\xAF",         "\xFF"};
  std::mt19937 rng(5);
  for (int round = 0; round < 20000; ++round) {
    std::string text(rng() % 100, 'a');
    for (char& c : text) c = static_cast<char>(0x20 + rng() % 0x5F);
    if (rng() % 4 != 0) text.insert(rng() % (text.size() + 1), odd[rng() % odd.size()]);
    INFO(round);
    CHECK(ValidUtf8Prefix(text) == reference(text));
  }
}
