// JSON: everything the project writes or reads as JSON goes through
// Boost.JSON (header-only; its one compiled copy, for every library, test
// and binary, is common/base/json.cc). Build a boost::json::object (it keeps
// the order fields are added in), put strings in with JsonText and doubles
// with JsonNumber, and print it with JsonLine. Those two add the rules
// Boost.JSON leaves to its caller, so the output is always valid JSON:
//   - strings: Boost.JSON copies bytes as given, and invalid UTF-8 is not
//     JSON; JsonText replaces each ill-formed part with U+FFFD
//     (common/text/utf8.h).
//   - numbers: Boost.JSON prints NaN and Infinity, which are not JSON;
//     JsonNumber makes a non-finite double null. Null, not an omitted field:
//     every field stays present, and readers (scripts, the status page's
//     script) see "no value".
// Doubles print in Boost.JSON's shortest round-trip form (1.5E0, 1.2345E1):
// the same numbers to any JSON reader as 1.5 and 12.345.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>

namespace crawl {

// A JSON string for `s`: well-formed UTF-8 as is, each byte that does not
// start a well-formed sequence as U+FFFD.
[[nodiscard]] boost::json::string JsonText(std::string_view s);

// A JSON number for `v`, or null when `v` is NaN or infinite.
[[nodiscard]] boost::json::value JsonNumber(double v);

// JsonNumber(v) rounded to `decimals` places after the point, as printf's
// "%.Nf" rounds (for rates and durations shown to people).
[[nodiscard]] boost::json::value JsonNumber(double v, int decimals);

// `v` as JSON text and a newline (one line: Boost.JSON writes no newline
// inside a value; newlines in strings are escaped).
[[nodiscard]] std::string JsonLine(const boost::json::value& v);

}  // namespace crawl
