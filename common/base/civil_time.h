// Calendar arithmetic without the C library's time zone state: days since
// the Unix epoch of a proleptic Gregorian date, for the date parsers of
// feeds, robots directives and documents.
#pragma once

#include <cstdint>

namespace crawl {

// Days from 1970-01-01 to year-month-day (month 1-12; H. Hinnant's
// days_from_civil algorithm, exact for every year).
[[nodiscard]] constexpr int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static_assert(DaysFromCivil(1970, 1, 1) == 0);
static_assert(DaysFromCivil(2000, 3, 1) == 11017);

}  // namespace crawl
