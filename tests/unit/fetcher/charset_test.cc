// Charset detection and conversion (fetcher/page/charset.h): the WHATWG
// Encoding Standard's labels and decoders, checked against the standard's
// own data (fetcher/page/whatwg/), and the HTML Standard's sniffing order.
#include "fetcher/page/charset.h"

#include <sys/mman.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace crawl::fetcher;

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Whatwg(const std::string& file) {
  return ReadFile(std::string(CRAWL_SOURCE_DIR) + "/fetcher/page/whatwg/" + file);
}

std::string Utf8(uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  return out;
}

const std::string kFffd = "\xEF\xBF\xBD";

std::string Decode(std::string_view bytes, Encoding e, uint32_t* invalid = nullptr) {
  uint32_t n = 0;
  std::string out = ToUtf8(bytes, e, &n);
  if (invalid != nullptr) *invalid = n;
  return out;
}

std::vector<Encoding> AllEncodings() {
  std::vector<Encoding> out;
  for (int i = 0; i < kEncodingCount; ++i) out.push_back(static_cast<Encoding>(i));
  return out;
}

}  // namespace

TEST_CASE("every label in the standard's encodings.json names its encoding, and nothing else does",
          "[unit]") {
  const boost::json::value groups = boost::json::parse(Whatwg("encodings.json"));
  std::size_t encodings = 0;
  std::size_t labels = 0;
  for (const auto& group : groups.as_array()) {
    for (const auto& e : group.at("encodings").as_array()) {
      const std::string name(e.at("name").as_string());
      ++encodings;
      for (const auto& l : e.at("labels").as_array()) {
        const std::string label(l.as_string());
        ++labels;
        INFO(label);
        const auto got = EncodingForLabel(label);
        REQUIRE(got.has_value());
        CHECK(EncodingName(*got) == name);
        std::string upper = label;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        CHECK(EncodingForLabel(" \t" + upper + "\n\f") == got);
      }
    }
  }
  CHECK(encodings == static_cast<std::size_t>(kEncodingCount));
  CHECK(labels >= 220);
  CHECK(EncodingForLabel("latin1") == Encoding::kWindows1252);
  CHECK(EncodingForLabel("ascii") == Encoding::kWindows1252);
  CHECK(EncodingForLabel("gb2312") == Encoding::kGbk);
  CHECK(EncodingForLabel("x-sjis") == Encoding::kShiftJis);
  CHECK(EncodingForLabel("iso-2022-kr") == Encoding::kReplacement);
  CHECK(CharsetName(Encoding::kShiftJis) == "shift_jis");
  CHECK(CharsetName(Encoding::kEucKr) == "euc-kr");
  for (const char* not_label :
       {"", "utf-7", "s-jis", "iso-8859-1 x", "\"utf-8\"", "utf-16 le", "koi8-\xff"}) {
    INFO(not_label);
    CHECK_FALSE(EncodingForLabel(not_label).has_value());
  }
}

TEST_CASE("every byte of every single-byte encoding decodes as the standard's index says", "[unit]") {
  const boost::json::value groups = boost::json::parse(Whatwg("encodings.json"));
  int checked = 0;
  for (const auto& group : groups.as_array()) {
    if (group.at("heading").as_string() != "Legacy single-byte encodings") continue;
    for (const auto& e : group.at("encodings").as_array()) {
      std::string name(e.at("name").as_string());
      const Encoding encoding = *EncodingForLabel(name);
      CHECK(IsSingleByte(encoding));
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (name == "iso-8859-8-i") name = "iso-8859-8";  // the standard's one index for both
      std::map<int, uint32_t> index;
      std::istringstream lines(Whatwg("index-" + name + ".txt"));
      for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        int pointer = 0;
        std::string code_point;
        fields >> pointer >> code_point;
        index[pointer] = static_cast<uint32_t>(std::stoul(code_point, nullptr, 16));
      }
      std::string all;
      std::string want_all;
      uint32_t want_invalid = 0;
      for (int b = 0; b < 256; ++b) {
        const std::string byte(1, static_cast<char>(b));
        const bool mapped = b < 0x80 || index.count(b - 0x80) != 0;
        const std::string want = b < 0x80 ? byte : mapped ? Utf8(index[b - 0x80]) : kFffd;
        uint32_t invalid = 0;
        INFO(name << " byte " << b);
        CHECK(Decode(byte, encoding, &invalid) == want);
        CHECK(invalid == (mapped ? 0u : 1u));
        all += byte;
        want_all += want;
        want_invalid += mapped ? 0 : 1;
        ++checked;
      }
      uint32_t invalid = 0;
      CHECK(Decode(all, encoding, &invalid) == want_all);
      CHECK(invalid == want_invalid);
    }
  }
  CHECK(checked == 28 * 256);
}

// Real prose (tests/data/charset/README.md) in each encoding Python writes:
// labelled, in pieces of every small size, and unlabelled (the detector).
TEST_CASE("real prose in legacy encodings decodes to its UTF-8, labelled, streamed and unlabelled",
          "[unit]") {
  const std::string dir = std::string(CRAWL_SOURCE_DIR) + "/tests/data/charset/";
  const std::vector<std::pair<std::string, std::vector<std::string>>> vectors = {
      {"ja", {"shift_jis", "euc-jp", "iso-2022-jp"}},
      {"zh-cn", {"gbk", "gb18030"}},
      {"zh-tw", {"big5"}},
      {"ko", {"euc-kr"}},
      {"ru", {"koi8-r", "windows-1251", "iso-8859-5"}},
      {"pl", {"iso-8859-2", "windows-1250"}},
      {"el", {"windows-1253", "iso-8859-7"}},
      // uchardet alone reads it as windows-1250 (è as č): the language decides.
      {"it", {"windows-1252"}},
  };
  for (const auto& [lang, names] : vectors) {
    const std::string want = ReadFile(dir + lang + ".txt");
    for (const std::string& name : names) {
      INFO(lang << " in " << name);
      const std::string bytes = ReadFile(dir + lang + "." + name);
      CHECK(bytes != want);
      const DecodedBody labelled = DecodeBody(bytes, name, BodyKind::kHtml);
      CHECK(labelled.charset == name);
      CHECK(labelled.text() == want);
      CHECK(labelled.invalid_bytes == 0);
      for (std::size_t piece = 1; piece <= 7; ++piece) {
        Decoder decoder(*EncodingForLabel(name));
        std::string streamed;
        for (std::size_t i = 0; i < bytes.size(); i += piece) {
          decoder.Decode(std::string_view(bytes).substr(i, piece), i + piece >= bytes.size(), &streamed);
        }
        CHECK(streamed == want);
        CHECK(decoder.invalid() == 0);
      }
      const DecodedBody unlabelled = DecodeBody(bytes, "", BodyKind::kHtml);
      CHECK(unlabelled.text() == want);
      CHECK(unlabelled.invalid_bytes == 0);
    }
  }
}

TEST_CASE("multi-byte decoders follow the standard on errors and its special cases", "[unit]") {
  struct Case {
    Encoding encoding;
    std::string bytes;
    std::string want;
    uint32_t invalid;
  };
  const std::string f = kFffd;
  const std::vector<Case> cases = {
      // Shift_JIS: a lead byte and a bad trail: U+FFFD, the ASCII trail kept.
      {Encoding::kShiftJis, "\x82\x20x", f + " x", 1},
      {Encoding::kShiftJis, "\x85\x40", f + "@", 1},  // an unmapped pair
      {Encoding::kShiftJis, "\x80\xA1\x82\xA0", "\xC2\x80\xEF\xBD\xA1\xE3\x81\x82", 0},
      {Encoding::kShiftJis, "\xF0\x40", "\xEE\x80\x80", 0},  // user-defined: U+E000
      {Encoding::kShiftJis, "a\x82", "a" + f, 1},            // cut at the end
      // EUC-JP: half-width katakana, JIS X 0212.
      {Encoding::kEucJp, "\x8E\xB1\x8F\xB0\xA1\xA4\xA2", "\xEF\xBD\xB1\xE4\xB8\x82\xE3\x81\x82", 0},
      // ISO-2022-JP: JIS X 0208 between escapes.
      {Encoding::kIso2022Jp, "a\x1B$B\x30\x21\x1B(Bb",
       "a\xE4\xBA\x9C"
       "b",
       0},
      // EUC-KR (windows-949): extended Hangul; the user-defined area is an error.
      {Encoding::kEucKr, "\x81\x41\xB0\xA1", "\xEA\xB0\x82\xEA\xB0\x80", 0},
      {Encoding::kEucKr, "\xC9\xA1", f, 1},
      // Big5: the four pointers that are two code points; an unmapped pair.
      {Encoding::kBig5, "\x88\x62\x88\x64", "\xC3\x8A\xCC\x84\xC3\x8A\xCC\x8C", 0},
      {Encoding::kBig5, "\x81\x40", f + "@", 1},
      {Encoding::kBig5, "\xA4\x40", "\xE4\xB8\x80", 0},
      // gb18030 and GBK: 0x80 is the euro, four-byte codes, GB 18030-2022.
      {Encoding::kGbk, "\x80\xA1\xA1", "\xE2\x82\xAC\xE3\x80\x80", 0},
      {Encoding::kGb18030, "\x81\x30\x81\x30\x90\x30\x81\x30", "\xC2\x80\xF0\x90\x80\x80", 0},
      {Encoding::kGb18030, "\xA6\xD9\xFE\x59", "\xEF\xB8\x90\xE9\xBE\xB4", 0},
      {Encoding::kGb18030, "\xFF", f, 1},
      // UTF-16: pairs, a lone surrogate, an odd last byte.
      {Encoding::kUtf16Le, std::string("A\0\x3D\xD8\x00\xDE", 6), "A\xF0\x9F\x98\x80", 0},
      {Encoding::kUtf16Le,
       std::string("\x00\xD8"
                   "A\0",
                   4),
       f + "A", 1},
      {Encoding::kUtf16Be, std::string("\0A\0", 3), "A" + f, 1},
      // x-user-defined and replacement, by hand.
      {Encoding::kXUserDefined, "a\x80\xFF", "a\xEF\x9E\x80\xEF\x9F\xBF", 0},
      {Encoding::kReplacement, "abc", f, 1},
      {Encoding::kReplacement, "", "", 0},
  };
  for (const Case& c : cases) {
    INFO(EncodingName(c.encoding) << " " << c.bytes);
    uint32_t invalid = 0;
    CHECK(Decode(c.bytes, c.encoding, &invalid) == c.want);
    CHECK(invalid == c.invalid);
  }
}

TEST_CASE("charset parameter of a Content-Type", "[unit]") {
  CHECK(CharsetFromContentType("text/html; charset=UTF-8") == "utf-8");
  CHECK(CharsetFromContentType("text/html;charset=\"ISO-8859-1\"") == "iso-8859-1");
  CHECK(CharsetFromContentType("text/html; charset = Shift_JIS ; q=1") == "shift_jis");
  CHECK(CharsetFromContentType("text/html") == "");
  CHECK(CharsetFromContentType("text/html; foo=charset") == "");
}

TEST_CASE("the meta prescan follows the HTML Standard's algorithm", "[unit]") {
  CHECK(PrescanHtml("<html><head><meta charset=\"shift_jis\">") == Encoding::kShiftJis);
  CHECK(PrescanHtml("<meta http-equiv=Content-Type content='text/html; charset=euc-jp'>") ==
        Encoding::kEucJp);
  CHECK(PrescanHtml("<meta content=\"text/html; charset='koi8-r'\" http-equiv=\"content-type\">") ==
        Encoding::kKoi8R);
  // content= without http-equiv=content-type names nothing.
  CHECK(PrescanHtml("<meta content='text/html; charset=euc-jp'>") == std::nullopt);
  // UTF-16 in a meta is UTF-8 (the bytes were read as ASCII); x-user-defined is windows-1252.
  CHECK(PrescanHtml("<meta charset=utf-16le>") == Encoding::kUtf8);
  CHECK(PrescanHtml("<meta charset=x-user-defined>") == Encoding::kWindows1252);
  // Comments (also "<!-->"), other tags' attributes and unknown labels are passed over.
  CHECK(PrescanHtml("<!-- <meta charset=latin1> --><meta charset=gbk>") == Encoding::kGbk);
  CHECK(PrescanHtml("<!--><meta charset=gbk>") == Encoding::kGbk);
  CHECK(PrescanHtml("<a title='<meta charset=koi8-r>'><meta charset=big5>") == Encoding::kBig5);
  CHECK(PrescanHtml("<meta charset=bogus><meta charset=koi8-r>") == Encoding::kKoi8R);
  CHECK(PrescanHtml("<meta/charset=gbk>") == Encoding::kGbk);
  CHECK(PrescanHtml("<META CHARSET=GBK CHARSET=big5>") == Encoding::kGbk);  // the first of a name counts
  CHECK(PrescanHtml("<metadata charset=latin1>") == std::nullopt);
  CHECK(PrescanHtml("<meta charset=\"koi8-r") == std::nullopt);  // runs off the end
  CHECK(PrescanHtml(std::string(1100, ' ') + "<meta charset=latin1>") == std::nullopt);
  CHECK(PrescanHtml("<? <meta charset=gbk> ?><meta charset=big5>") == Encoding::kBig5);
}

TEST_CASE("the XML declaration names an XML body's encoding", "[unit]") {
  CHECK(XmlDeclaredEncoding("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><a/>") == Encoding::kShiftJis);
  CHECK(XmlDeclaredEncoding("<?xml version='1.0' encoding = 'ISO-8859-1' ?>") == Encoding::kWindows1252);
  CHECK(XmlDeclaredEncoding("<?xml version=\"1.0\" encoding=\"UTF-16\"?>") == Encoding::kUtf8);
  CHECK(XmlDeclaredEncoding("<?xml version=\"1.0\"?><a/>") == std::nullopt);
  CHECK(XmlDeclaredEncoding("<a encoding=\"koi8-r\"/>") == std::nullopt);
  CHECK(XmlDeclaredEncoding(std::string("<\0?\0x\0", 6)) == Encoding::kUtf16Le);
  CHECK(XmlDeclaredEncoding(std::string("\0<\0?\0x", 6)) == Encoding::kUtf16Be);
  // XML without a label is UTF-8, never guessed.
  const DecodedBody xml = DecodeBody("<a>caf\xE9</a>", "", BodyKind::kXml);
  CHECK(xml.charset == "utf-8");
  CHECK(xml.invalid_bytes == 1);
  const DecodedBody declared =
      DecodeBody("<?xml version=\"1.0\" encoding=\"windows-1251\"?><a>\xCF\xF0\xE8</a>", "", BodyKind::kXml);
  CHECK(declared.charset == "windows-1251");
  CHECK(declared.text().ends_with("<a>\xD0\x9F\xD1\x80\xD0\xB8</a>"));
}

TEST_CASE("decode order: BOM, transport charset, meta, then the detector", "[unit]") {
  // The header wins over the meta.
  auto a = DecodeBody("<meta charset=utf-8>caf\xE9", "iso-8859-1", BodyKind::kHtml);
  CHECK(a.charset == "windows-1252");
  CHECK(a.text().ends_with("caf\xC3\xA9"));
  // A header label that names no encoding is passed over.
  CHECK(DecodeBody("<meta charset=koi8-r>\xF0", "bogus", BodyKind::kHtml).charset == "koi8-r");
  // The meta when there is no header; not for plain text.
  CHECK(DecodeBody("<meta charset=latin1>caf\xE9", "", BodyKind::kHtml).charset == "windows-1252");
  // A BOM beats a wrong header label and is removed; UTF-16 BOMs too.
  auto c = DecodeBody(
      "\xEF\xBB\xBF"
      "caf\xC3\xA9",
      "iso-8859-1", BodyKind::kHtml);
  CHECK(c.charset == "utf-8");
  CHECK(c.text() == "caf\xC3\xA9");
  auto d = DecodeBody(std::string("\xFF\xFEh\0i\0", 6), "", BodyKind::kText);
  CHECK(d.charset == "utf-16le");
  CHECK(d.text() == "hi");
  CHECK(DecodeBody(std::string("\xFE\xFF\0h", 4), "", BodyKind::kHtml).text() == "h");
  // No label: valid UTF-8 stays UTF-8; so does a body cut inside its last character.
  CHECK(DecodeBody("caf\xC3\xA9", "", BodyKind::kHtml).charset == "utf-8");
  CHECK(DecodeBody("caf\xC3\xA9 \xE2\x82", "", BodyKind::kHtml).charset == "utf-8");
  // A wrong label (utf-8 on latin1 bytes): replaced, counted, no crash.
  auto e = DecodeBody("caf\xE9!", "utf-8", BodyKind::kHtml);
  CHECK(e.text() == "caf\xEF\xBF\xBD!");
  CHECK(e.invalid_bytes == 1);
  // The record's name is the standard's, lower case, whatever label named it.
  CHECK(DecodeBody("x", "x-sjis", BodyKind::kHtml).charset == "shift_jis");
  CHECK(DecodeBody("x", "ks_c_5601-1987", BodyKind::kText).charset == "euc-kr");
}

// A body read as UTF-8 that is valid already, or ASCII in an
// ASCII-compatible encoding, is the text itself, not a copy.
TEST_CASE("valid UTF-8 and ASCII bodies are not copied", "[unit]") {
  const std::string utf8 = "caf\xC3\xA9 <p>text</p>";
  const DecodedBody a = DecodeBody(utf8, "", BodyKind::kHtml);
  CHECK_FALSE(a.converted);
  CHECK(a.text().data() == utf8.data());
  const std::string bom =
      "\xEF\xBB\xBF"
      "ok";
  CHECK(DecodeBody(bom, "", BodyKind::kHtml).text().data() == bom.data() + 3);
  const std::string ascii = "<p>plain ascii</p>";
  const DecodedBody b = DecodeBody(ascii, "shift_jis", BodyKind::kHtml);
  CHECK(b.charset == "shift_jis");
  CHECK(b.text().data() == ascii.data());
  // Not for ISO-2022-JP, whose escapes are ASCII bytes.
  const std::string jis = "\x1B$B\x30\x21\x1B(B";
  CHECK(DecodeBody(jis, "iso-2022-jp", BodyKind::kHtml).text() == "\xE4\xBA\x9C");
}

// fuzz/charset_fuzzer: characters the decoder corrects after ICU (see
// charset_decoder.cc) were missed when split between two pieces.
TEST_CASE("corrected characters split between pieces decode as whole ones", "[unit][fuzz]") {
  const std::vector<std::pair<Encoding, std::string>> cases = {
      {Encoding::kEucJp, "a\x8F\xF3\xA1\x8F\xB0\xA1\x85\xA4\xA2z"},
      {Encoding::kBig5, "a\x88\x62\x87\xA4\x81\x40\x88\x40z"},
      {Encoding::kEucKr, "a\xC9\xA1\xC9\x41\xFF\x80\xB0\xA1z"},
      {Encoding::kShiftJis, "a\x80\x85\x40\x82\xA0\x82z"},
      {Encoding::kGb18030, "a\x80\xA6\xD9\x81\x30\x81\x30\xFE\x59z"},
  };
  for (const auto& [e, bytes] : cases) {
    uint32_t invalid = 0;
    const std::string whole = Decode(bytes, e, &invalid);
    for (std::size_t cut = 1; cut < bytes.size(); ++cut) {
      for (std::size_t cut2 = cut; cut2 < bytes.size(); ++cut2) {
        INFO(EncodingName(e) << " cut at " << cut << " and " << cut2);
        Decoder decoder(e);
        std::string streamed;
        decoder.Decode(std::string_view(bytes).substr(0, cut), false, &streamed);
        decoder.Decode(std::string_view(bytes).substr(cut, cut2 - cut), false, &streamed);
        decoder.Decode(std::string_view(bytes).substr(cut2), true, &streamed);
        CHECK(streamed == whole);
        CHECK(decoder.invalid() == invalid);
      }
    }
  }
}

TEST_CASE("any bytes in any encoding give valid UTF-8 of bounded size, streamed or not", "[unit]") {
  std::mt19937 rng(7);
  for (const Encoding e : AllEncodings()) {
    for (int round = 0; round < 40; ++round) {
      std::string bytes(rng() % 300, '\0');
      for (char& c : bytes) c = static_cast<char>(rng() % 256);
      if (round % 3 == 0) bytes.insert(0, "\x1B$B");  // ISO-2022-JP's escapes
      INFO(EncodingName(e) << " round " << round);
      uint32_t invalid = 0;
      const std::string whole = Decode(bytes, e, &invalid);
      CHECK(ValidUtf8Prefix(whole) == whole.size());
      CHECK(whole.size() <= 3 * bytes.size() + 3);
      Decoder decoder(e);
      std::string streamed;
      for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t piece = 1 + rng() % 9;
        decoder.Decode(std::string_view(bytes).substr(i, piece), i + piece >= bytes.size(), &streamed);
        i += piece;
      }
      if (bytes.empty()) decoder.Decode("", true, &streamed);
      CHECK(streamed == whole);
      CHECK(decoder.invalid() == invalid);
    }
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

// fuzz/charset_fuzzer: an ASCII body whose length is a multiple of 32 was
// read one byte past its end (the 32-byte ASCII skip ran to the end and the
// byte-wise step still looked at the next byte). A body is not always
// followed by a NUL: here the bytes end at a page boundary.
TEST_CASE("ValidUtf8Prefix reads no byte past the end of an ASCII body", "[unit][fuzz]") {
  const long page = sysconf(_SC_PAGESIZE);
  void* map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  auto* bytes = static_cast<char*>(map);
  REQUIRE(mprotect(bytes + page, page, PROT_NONE) == 0);  // a fault just past the body
  for (std::size_t size : {32u, 64u, 352u, 33u, 8u}) {
    char* body = bytes + page - size;
    std::memset(body, 'a', size);
    CHECK(ValidUtf8Prefix(std::string_view(body, size)) == size);
    CHECK(DecodeBody(std::string_view(body, size), "", BodyKind::kHtml).text().size() == size);
  }
  munmap(map, 2 * page);
}
