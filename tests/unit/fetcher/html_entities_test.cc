// Tests of fetcher/page/html_entities.h, the character reference decoder of
// the HTML scanner (WHATWG HTML 13.2.5.72-13.2.5.80): every reference of
// the standard's list (fetcher/page/entities/entities.json), the tokenizer
// vectors of html5lib-tests (tests/data/conformance/html5lib/), and the
// rules one by one.
#include "fetcher/page/html_entities.h"

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "fetcher/page/html_links.h"

namespace html = crawl::html;

namespace {

std::string Decode(std::string_view in, bool attr) {
  std::string out;
  html::AppendDecodedEntities(in, attr, out);
  return out;
}

boost::json::value LoadJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return boost::json::parse(ss.str());
}

boost::json::array Html5libTests(const char* file) {
  return LoadJson(std::string(CRAWL_CONFORMANCE_DIR) + "/html5lib/" + file)
      .as_object()
      .at("tests")
      .as_array();
}

// The concatenated text of a vector's "Character" tokens.
std::string CharacterOutput(const boost::json::array& output) {
  std::string text;
  for (const auto& token : output) {
    const auto& t = token.as_array();
    REQUIRE(t.at(0).as_string() == "Character");
    text += std::string(t.at(1).as_string());
  }
  return text;
}

// The raw value of the single attribute of `<h a="...">`, `<h a='...'>` or
// `<h a=...>`, the only tags the entity vectors use.
std::string RawAttributeValue(std::string_view tag) {
  const std::size_t eq = tag.find('=');
  REQUIRE(eq != std::string_view::npos);
  REQUIRE(tag.back() == '>');
  std::string_view value = tag.substr(eq + 1, tag.size() - eq - 2);
  if (!value.empty() && (value.front() == '"' || value.front() == '\'')) {
    REQUIRE(value.size() >= 2);
    REQUIRE(value.back() == value.front());
    value = value.substr(1, value.size() - 2);
  }
  return std::string(value);
}

}  // namespace

TEST_CASE("every named reference of the standard decodes to its characters", "[unit]") {
  const boost::json::object entities =
      LoadJson(std::string(CRAWL_SOURCE_DIR) + "/fetcher/page/entities/entities.json").as_object();
  REQUIRE(entities.size() == 2231);
  std::size_t legacy = 0;
  for (const auto& [key, value] : entities) {
    const std::string ref(key);
    const std::string text(value.as_object().at("characters").as_string());
    INFO(ref);
    // Alone, then followed by text that no name continues with.
    CHECK(Decode(ref, false) == text);
    CHECK(Decode(ref, true) == text);
    CHECK(Decode(ref + " x", false) == text + " x");
    CHECK(Decode("a" + ref + "&" + ref, true) == "a" + text + "&" + text);
    if (ref.back() != ';') {
      ++legacy;
      // Legacy names: in text a following alphanumeric does not stop the
      // match, in an attribute value it (and '=') keeps the reference as is.
      CHECK(Decode(ref + "Q9", false) == text + "Q9");
      CHECK(Decode(ref + "Q9", true) == ref + "Q9");
      CHECK(Decode(ref + "=1", true) == ref + "=1");
      CHECK(Decode(ref + ".", true) == text + ".");
    }
  }
  CHECK(legacy == 106);
}

TEST_CASE("html5lib tokenizer vectors: named entities", "[unit]") {
  const boost::json::array tests = Html5libTests("namedEntities.test");
  REQUIRE(tests.size() > 4000);
  for (const auto& t : tests) {
    const auto& test = t.as_object();
    const std::string input(test.at("input").as_string());
    const std::string expected = CharacterOutput(test.at("output").as_array());
    INFO(test.at("description").as_string().c_str());
    CHECK(Decode(input, false) == expected);
    // Each input is "&name" or "&name;" and nothing after it, so an
    // attribute value decodes it the same way.
    CHECK(Decode(input, true) == expected);
  }
}

TEST_CASE("html5lib tokenizer vectors: numeric entities", "[unit]") {
  const boost::json::array tests = Html5libTests("numericEntities.test");
  REQUIRE(tests.size() > 300);
  for (const auto& t : tests) {
    const auto& test = t.as_object();
    const std::string input(test.at("input").as_string());
    INFO(test.at("description").as_string().c_str());
    CHECK(Decode(input, false) == CharacterOutput(test.at("output").as_array()));
  }
}

TEST_CASE("html5lib tokenizer vectors: entities in text and attribute values", "[unit]") {
  const boost::json::array tests = Html5libTests("entities.test");
  REQUIRE(tests.size() > 70);
  std::size_t attributes = 0;
  for (const auto& t : tests) {
    const auto& test = t.as_object();
    const std::string input(test.at("input").as_string());
    const auto& output = test.at("output").as_array();
    INFO(test.at("description").as_string().c_str());
    const auto& first = output.at(0).as_array();
    if (first.at(0).as_string() == "StartTag") {
      REQUIRE(output.size() == 1);
      const auto& attrs = first.at(2).as_object();
      REQUIRE(attrs.size() == 1);
      CHECK(Decode(RawAttributeValue(input), true) == std::string(attrs.at("a").as_string()));
      ++attributes;
    } else {
      CHECK(Decode(input, false) == CharacterOutput(output));
    }
  }
  CHECK(attributes == 9);
}

TEST_CASE("the longest name wins; legacy names match without ';'", "[unit]") {
  CHECK(Decode("&notin;", false) == "\xE2\x88\x89");    // U+2209
  CHECK(Decode("&notinva;", false) == "\xE2\x88\x89");  // same text, longer name
  CHECK(Decode("&notit", false) ==
        "\xC2\xAC"
        "it");                                // &not + "it"
  CHECK(Decode("&notit", true) == "&notit");  // stays in an attribute
  CHECK(Decode("&notin", false) ==
        "\xC2\xAC"
        "in");  // "notin" needs its ';'
  CHECK(Decode("&noti;", false) ==
        "\xC2\xAC"
        "i;");
  CHECK(Decode("&amp;amp;", false) == "&amp;");  // decoded once
  CHECK(Decode("&ampere;", false) == "&ere;");   // legacy &amp, then text
  CHECK(Decode("&Amp;", false) == "&Amp;");      // names are case-sensitive
  CHECK(Decode("&AMP;&AMP", false) == "&&");
  CHECK(Decode("&frac34x", false) ==
        "\xC2\xBE"
        "x");  // six-letter legacy name
  CHECK(Decode("&CounterClockwiseContourIntegral;", false) == "\xE2\x88\xB3");
  // Longer than any name: no match, kept as written.
  CHECK(Decode("&CounterClockwiseContourIntegralX;", false) == "&CounterClockwiseContourIntegralX;");
  CHECK(Decode("&abcdefghijklmnopqrstuvwxyzabcdefghijklmnop;", false) ==
        "&abcdefghijklmnopqrstuvwxyzabcdefghijklmnop;");
  CHECK(Decode("&copycopycopycopycopycopycopycopycopy", false) ==
        "\xC2\xA9"
        "copycopycopycopycopycopycopycopy");
}

TEST_CASE("two-code-point references give both code points", "[unit]") {
  CHECK(Decode("&NotEqualTilde;", false) == "\xE2\x89\x82\xCC\xB8");  // U+2242 U+0338
  CHECK(Decode("&nvlt;", true) == "<\xE2\x83\x92");                   // U+003C U+20D2
  CHECK(Decode("&fjlig;", false) == "fj");
  CHECK(Decode("&ThickSpace;", false) == "\xE2\x81\x9F\xE2\x80\x8A");  // U+205F U+200A
}

TEST_CASE("attribute values keep a legacy match before '=' or an alphanumeric", "[unit]") {
  CHECK(Decode("/s?q=1&copy=2&lang=en&not=3", true) == "/s?q=1&copy=2&lang=en&not=3");
  CHECK(Decode("/s?q=1&copy=2&lang=en&not=3", false) == "/s?q=1\xC2\xA9=2&lang=en\xC2\xAC=3");
  CHECK(Decode("?a&amp;b&ampc&amp", true) == "?a&b&ampc&");
  CHECK(Decode("&lang;=", true) == "\xE2\x9F\xA8=");  // with ';' the rule does not apply
  CHECK(Decode("&lt-", true) == "<-");
}

TEST_CASE("numeric references follow the standard's replacements", "[unit]") {
  CHECK(Decode("&#65;&#x41;&#X41;&#0065", false) == "AAAA");
  CHECK(Decode("&#x80;&#150;&#x9F;", false) == "\xE2\x82\xAC\xE2\x80\x93\xC5\xB8");  // Windows-1252
  CHECK(Decode("&#x81;&#x8D;&#x9d;", false) == "\xC2\x81\xC2\x8D\xC2\x9D");          // undefined there: kept
  CHECK(Decode("&#0;&#xD800;&#xDFFF;&#x110000;", false) ==
        "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(Decode("&#99999999999999999999999;", false) == "\xEF\xBF\xBD");
  CHECK(Decode("&#x10FFFF;&#xFFFE;&#1;&#x0D;&#x7F;", false) ==
        "\xF4\x8F\xBF\xBF\xEF\xBF\xBE\x01\r\x7F");  // noncharacters and controls kept
  CHECK(Decode("&#x;&#;&#a;&#xg;&#", false) == "&#x;&#;&#a;&#xg;&#");
  CHECK(Decode("&#x41g&#97F", true) == "AgaF");
}

TEST_CASE("the scanner decodes every reference in text and attributes", "[unit]") {
  const html::PageLinks page = html::ExtractLinks(
      "<title>&NotEqualTilde; &frac34 &notit</title>"
      "<a href=\"/s?x=1&not=2&amp;y=&lang;\">&Aopf;&ccedil&#x1F600;</a>");
  CHECK(page.title == "\xE2\x89\x82\xCC\xB8 \xC2\xBE \xC2\xACit");
  REQUIRE(page.links.size() == 1);
  CHECK(page.links[0].href == "/s?x=1&not=2&y=\xE2\x9F\xA8");
  CHECK(page.links[0].anchor_text == "\xF0\x9D\x94\xB8\xC3\xA7\xF0\x9F\x98\x80");
}
