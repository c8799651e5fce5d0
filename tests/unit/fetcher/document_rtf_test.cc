// The RTF reader (fetcher/document/rtf_reader.cc) on hand-written RTF.
#include <catch2/catch.hpp>
#include <string>

#include "fetcher/document/document.h"

namespace crawl::fetcher {
namespace {

v1::ParsedDocument Rtf(const std::string& rtf) {
  auto doc = ParseDocument(DocumentType::kRtf, rtf, {});
  REQUIRE(doc.ok());
  return *doc;
}

}  // namespace

TEST_CASE("rtf text skips tables of fonts, colours and styles, and pictures", "[document]") {
  const auto doc =
      Rtf("{\\rtf1\\ansi{\\fonttbl{\\f0 Times;}}{\\colortbl;\\red1;}{\\stylesheet{\\s1 Heading;}}"
          "{\\*\\generator Writer}\\pard Hello {\\b bold} world.\\par {\\pict\\pngblip 89504e47}Second\\line "
          "line\\par}");
  CHECK(doc.text() == "Hello bold world.\n\nSecond line");
}

TEST_CASE("rtf hex escapes follow the code page, unicode escapes skip their fallback", "[document]") {
  // windows-1251: \'cf\'f0\'e8 is "При"; \u1087? is "п" with '?' skipped;
  // \uc2 skips two fallback bytes; a surrogate pair is one character.
  const auto doc =
      Rtf("{\\rtf1\\ansi\\ansicpg1251 \\'cf\\'f0\\'e8\\u1074?\\'e5\\u1090?. {\\uc2\\u8364\\'80\\'80 x}"
          " \\u-10179?\\u-8704? caf\\'e9}");
  CHECK(doc.text() == "Привет. € x 😀 cafй");
}

TEST_CASE("rtf info gives title, author, subject and dates", "[document]") {
  const auto doc =
      Rtf("{\\rtf1{\\info{\\title The Title}{\\author A. Writer}{\\subject What it is}"
          "{\\creatim\\yr2001\\mo2\\dy3\\hr4\\min5}{\\revtim\\yr2002\\mo1\\dy1}}Body\\par}");
  CHECK(doc.title() == "The Title");
  CHECK(doc.info().author() == "A. Writer");
  CHECK(doc.summary() == "What it is");
  CHECK(doc.info().created_unix_s() == 981173100);
  CHECK(doc.info().modified_unix_s() == 1009843200);
  CHECK(doc.text() == "Body");
}

TEST_CASE("rtf HYPERLINK fields are links with their result as anchor text", "[document]") {
  const auto doc =
      Rtf("{\\rtf1 See {\\field{\\*\\fldinst{HYPERLINK \"https://example.test/x\"}}{\\fldrslt{\\ul the "
          "page}}} now.}");
  CHECK(doc.text() == "See the page now.");
  REQUIRE(doc.links_size() == 1);
  CHECK(doc.links(0).url() == "https://example.test/x");
  CHECK(doc.links(0).anchor_text() == "the page");
}

TEST_CASE("rtf binary data is skipped and deep groups are an error", "[document]") {
  CHECK(Rtf("{\\rtf1 a\\bin4 \\}{}b}").text() == "ab");
  std::string deep = "{\\rtf1 ";
  for (int i = 0; i < 10000; ++i) deep += "{";
  const auto doc = ParseDocument(DocumentType::kRtf, deep, {});
  REQUIRE_FALSE(doc.ok());
  CHECK(doc.status().message().find("deeper") != std::string::npos);
  CHECK_FALSE(ParseDocument(DocumentType::kRtf, "plain text", {}).ok());
}

}  // namespace crawl::fetcher
