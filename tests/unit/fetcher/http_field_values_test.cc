// The HTTP field parsers (fetcher/http/http_date.h, fetcher/http/http_field_values.h):
// Retry-After, HTTP-date (RFC 9110 5.6.7), Content-Type's media type and
// Content-Range's complete length.
#include "fetcher/http/http_field_values.h"

#include <catch2/catch.hpp>
#include <cstdint>

#include "fetcher/http/http_date.h"

namespace fe = crawl::fetcher;

TEST_CASE("Retry-After parses delay-seconds and the three HTTP-date forms", "[unit]") {
  const int64_t now = 784111777;  // Sun, 06 Nov 1994 08:49:37 GMT
  CHECK(fe::ParseRetryAfter("120", now) == 120u);
  CHECK(fe::ParseRetryAfter("  0 ", now) == 0u);
  CHECK(fe::ParseRetryAfter("99999999999999999999", now) == UINT32_MAX);
  CHECK(fe::ParseRetryAfter("Sun, 06 Nov 1994 08:50:37 GMT", now) == 60u);
  CHECK(fe::ParseRetryAfter("Sunday, 06-Nov-94 08:51:37 GMT", now) == 120u);
  CHECK(fe::ParseRetryAfter("Sun Nov  6 08:52:37 1994", now) == 180u);
  CHECK(fe::ParseRetryAfter("Sun, 06 Nov 1994 08:00:00 GMT", now) == 0u);  // in the past
  CHECK_FALSE(fe::ParseRetryAfter("", now).has_value());
  CHECK_FALSE(fe::ParseRetryAfter("-5", now).has_value());
  CHECK_FALSE(fe::ParseRetryAfter("12abc", now).has_value());
  CHECK_FALSE(fe::ParseRetryAfter("Sun, 06 Foo 1994 08:50:37 GMT", now).has_value());
  CHECK_FALSE(fe::ParseRetryAfter("Sun, 06 Nov 1994 08:50:37 CET", now).has_value());
  CHECK_FALSE(fe::ParseRetryAfter("tomorrow", now).has_value());
}

// RFC 9110 5.6.7: the three HTTP-date forms, all GMT.
TEST_CASE("an HTTP-date in any of its three forms gives the same Unix second", "[unit][rfc9110]") {
  const int64_t expected = 784111777;  // Sun, 06 Nov 1994 08:49:37 GMT
  CHECK(fe::ParseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT") == expected);
  CHECK(fe::ParseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT") == expected);
  CHECK(fe::ParseHttpDate("Sun Nov  6 08:49:37 1994") == expected);
  CHECK(fe::ParseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT") == 0);
  CHECK(fe::ParseHttpDate("Tue, 29 Feb 2000 12:00:00 GMT") == 951825600);
  // RFC 850 two-digit years: under 70 are this century.
  CHECK(fe::ParseHttpDate("Thursday, 01-Jan-70 00:00:00 GMT") == 0);
  CHECK(fe::ParseHttpDate("Friday, 01-Jan-38 00:00:00 GMT") == 2145916800);
}

TEST_CASE("a malformed HTTP-date is rejected", "[unit][rfc9110]") {
  CHECK_FALSE(fe::ParseHttpDate("").has_value());
  CHECK_FALSE(fe::ParseHttpDate("Sun, 06 Nov 1994 08:49:37 CET").has_value());
  CHECK_FALSE(fe::ParseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT extra").has_value());
  CHECK_FALSE(fe::ParseHttpDate("Sun, 06 Foo 1994 08:49:37 GMT").has_value());
  CHECK_FALSE(fe::ParseHttpDate("Sun, 06 November 1994 08:49:37 GMT").has_value());
  CHECK_FALSE(fe::ParseHttpDate("Sun, 32 Nov 1994 08:49:37 GMT").has_value());
  CHECK_FALSE(fe::ParseHttpDate("Sun, 06 Nov 1994 24:00:00 GMT").has_value());
  CHECK_FALSE(fe::ParseHttpDate("784111777").has_value());
}

TEST_CASE("field values: media type of Content-Type, complete length of Content-Range", "[unit]") {
  CHECK(fe::MimeTypeOf("Text/HTML; charset=UTF-8") == "text/html");
  CHECK(fe::MimeTypeOf("  application/XML ") == "application/xml");
  CHECK(fe::MimeTypeOf("").empty());
  CHECK(fe::CompleteLength("bytes 0-999/5000") == 5000u);
  CHECK(fe::CompleteLength("bytes 0-999/ 5000 ") == 5000u);
  CHECK_FALSE(fe::CompleteLength("bytes 0-999/*").has_value());
  CHECK_FALSE(fe::CompleteLength("bytes 0-999").has_value());
  CHECK_FALSE(fe::CompleteLength("bytes 0-999/12x").has_value());
}
