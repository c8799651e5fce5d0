// Times of the crawl log's filters (common/crawl/log_time.h).
#include "common/crawl/log_time.h"

#include <catch2/catch.hpp>

using crawl::ParseLogTime;

TEST_CASE("log times parse as dates, UTC times with fractions, or Unix seconds", "[unit]") {
  CHECK(*ParseLogTime("1764072000") == 1'764'072'000'000'000);
  CHECK(*ParseLogTime("2025-11-25") == 1'764'028'800'000'000);
  CHECK(*ParseLogTime("2025-11-25T12:00:00Z") == 1'764'072'000'000'000);
  CHECK(*ParseLogTime("2025-11-25T12:00:00.25Z") == 1'764'072'000'250'000);
  for (const char* bad : {"", "yesterday", "2026-11-25T12:00:00", "2026-13-01", "2026-11-25T12:00Z", "-5",
                          "2026-11-25T12:00:00.Z", "99999999999999999999"})
    CHECK_FALSE(ParseLogTime(bad).ok());
}
