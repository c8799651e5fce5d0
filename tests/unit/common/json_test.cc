// The JSON helpers (common/base/json.h): whatever the strings and numbers,
// what JsonLine prints parses back with boost::json::parse (strict: valid
// UTF-8, no NaN or Infinity).
#include "common/base/json.h"

#include <catch2/catch.hpp>
#include <limits>
#include <string>

using crawl::JsonLine;
using crawl::JsonNumber;
using crawl::JsonText;

namespace {

boost::json::value ParseBack(const std::string& text) {
  boost::json::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  INFO(text);
  REQUIRE_FALSE(ec);
  return v;
}

}  // namespace

TEST_CASE("json text keeps quotes, backslashes and control bytes, escaped", "[unit]") {
  const std::string s("q\"uote back\\slash\nline\ttab\r\x01\x1f\x7f nul\0end", 38);
  const std::string line = JsonLine(boost::json::object{{"s", JsonText(s)}});
  CHECK(line == "{\"s\":\"q\\\"uote back\\\\slash\\nline\\ttab\\r\\u0001\\u001f\x7f nul\\u0000end\"}\n");
  CHECK(ParseBack(line).as_object().at("s").as_string() == s);
}

TEST_CASE("json text keeps well-formed UTF-8 and replaces every bad byte", "[unit]") {
  CHECK(JsonText("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  const std::string fffd = "\xef\xbf\xbd";
  CHECK(JsonText("x\xff") == "x" + fffd);
  CHECK(JsonText("\xc3") == fffd);                                   // cut short at the end
  CHECK(JsonText("\xc3(") == fffd + "(");                            // a lead byte without its continuation
  CHECK(JsonText("\xc0\xaf") == fffd + fffd);                        // overlong '/'
  CHECK(JsonText("\xed\xa0\x80") == fffd + fffd + fffd);             // a UTF-16 surrogate
  CHECK(JsonText("\xf4\x90\x80\x80") == fffd + fffd + fffd + fffd);  // past U+10FFFF
  const std::string bad = "\x80\xbf\xfe\xff\xe2\x82 \xf0\x9f\x98";
  CHECK(JsonText(bad) == fffd + fffd + fffd + fffd + fffd + " " + fffd);  // maximal subparts
  ParseBack(JsonLine(boost::json::array{JsonText(bad)}));
}

TEST_CASE("json numbers: non-finite doubles are null, never NaN or Infinity", "[unit]") {
  boost::json::object o{{"nan", JsonNumber(std::numeric_limits<double>::quiet_NaN())},
                        {"inf", JsonNumber(std::numeric_limits<double>::infinity())},
                        {"minus_inf", JsonNumber(-std::numeric_limits<double>::infinity(), 2)},
                        {"nan_rounded", JsonNumber(std::numeric_limits<double>::quiet_NaN(), 3)},
                        {"rate", JsonNumber(12.3456, 2)},
                        {"score", JsonNumber(1.875)},
                        {"huge", JsonNumber(std::numeric_limits<double>::max(), 2)}};
  const std::string line = JsonLine(o);
  CHECK(line.find("NaN") == std::string::npos);
  CHECK(line.find("Infinity") == std::string::npos);
  const auto v = ParseBack(line).as_object();
  CHECK(v.at("nan").is_null());
  CHECK(v.at("inf").is_null());
  CHECK(v.at("minus_inf").is_null());
  CHECK(v.at("nan_rounded").is_null());
  CHECK(v.at("rate").as_double() == 12.35);  // as printf's "%.2f"
  CHECK(v.at("score").as_double() == 1.875);
  CHECK(v.at("huge").as_double() == std::numeric_limits<double>::max());
  CHECK(v.begin()->key() == "nan");  // fields print in the order they were added
}

TEST_CASE("json lines are one line each", "[unit]") {
  const std::string line =
      JsonLine(boost::json::object{{"a", JsonText("x\ny\r\n")}, {"b", boost::json::array{1, 2}}});
  CHECK(line.find('\n') == line.size() - 1);
  CHECK(line == "{\"a\":\"x\\ny\\r\\n\",\"b\":[1,2]}\n");
}
