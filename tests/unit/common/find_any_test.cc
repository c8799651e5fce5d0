// FindAnyOf (common/base/find_any.h) against std::string_view::find_first_of on
// random strings, sets and start positions (past the end included).
#include "common/base/find_any.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>

TEST_CASE("FindAnyOf finds what find_first_of finds", "[unit]") {
  std::mt19937 rng(3);
  const std::string alphabet = "ab/?#;&\t\n\r";
  for (int round = 0; round < 20000; ++round) {
    std::string s, set;
    for (size_t n = rng() % 20; n > 0; --n) s.push_back(alphabet[rng() % alphabet.size()]);
    for (size_t n = rng() % 4; n > 0; --n) set.push_back(alphabet[rng() % alphabet.size()]);
    const size_t from = rng() % (s.size() + 3);
    INFO(s << " | " << set << " | " << from);
    REQUIRE(crawl::FindAnyOf(s, set, from) == std::string_view(s).find_first_of(set, from));
  }
}
