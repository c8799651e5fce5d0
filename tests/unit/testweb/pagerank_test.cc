// Tests for PageRank by power iteration (tests/testweb/pagerank.h).
#include "tests/testweb/pagerank.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/testweb/rng.h"

namespace crawl::testweb {
namespace {

double Sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

// Hand-checked: A -> B, B -> C, C -> A and C -> B, d = 0.85, no dangling
// node. The stationary equations r = (1-d)/3 + d M r are
//   rA = 0.05 + 0.425 rC, rB = 0.05 + 0.85 rA + 0.425 rC, rC = 0.05 + 0.85 rB;
// substituting rA and rB into rC gives rC in closed form.
TEST_CASE("a 3-node graph gets the hand-computed ranks", "[unit]") {
  const PageRankResult r = PageRank({{1}, {2}, {0, 1}});
  REQUIRE(r.converged);
  const double rc = (0.05 + 0.85 * (0.05 + 0.85 * 0.05)) / (1 - 0.85 * (0.85 * 0.425 + 0.425));
  const double rb = (rc - 0.05) / 0.85;
  const double ra = 0.05 + 0.425 * rc;
  CHECK(std::fabs(r.rank[0] - ra) < 1e-8);
  CHECK(std::fabs(r.rank[1] - rb) < 1e-8);
  CHECK(std::fabs(r.rank[2] - rc) < 1e-8);
  CHECK(std::fabs(ra + rb + rc - 1) < 1e-12);
  // Numerically: rA ~ 0.2148, rB ~ 0.3974, rC ~ 0.3878.
  CHECK(std::fabs(r.rank[0] - 0.2148) < 1e-3);
  CHECK(std::fabs(r.rank[1] - 0.3974) < 1e-3);
  CHECK(std::fabs(r.rank[2] - 0.3878) < 1e-3);
}

TEST_CASE("dangling nodes spread their rank uniformly", "[unit]") {
  // A -> B, B dangling: rB = 0.075 + 0.85 rA + 0.425 rB, rA = 0.075 + 0.425 rB.
  const PageRankResult r = PageRank({{1}, {}});
  REQUIRE(r.converged);
  const double rb = (0.075 + 0.85 * 0.075) / (1 - 0.425 - 0.85 * 0.425);
  CHECK(std::fabs(r.rank[1] - rb) < 1e-8);
  CHECK(std::fabs(r.rank[0] + r.rank[1] - 1) < 1e-12);
  CHECK(r.rank[1] > r.rank[0]);
}

TEST_CASE("ranks of a random graph sum to 1 within 1e-9", "[unit]") {
  Rng rng(42);
  std::vector<std::vector<uint32_t>> g(500);
  for (auto& out : g) {
    const uint64_t n = rng.Below(6);  // some dangling
    for (uint64_t i = 0; i < n; ++i) out.push_back(static_cast<uint32_t>(rng.Below(g.size())));
  }
  const PageRankResult r = PageRank(g);
  REQUIRE(r.converged);
  CHECK(std::fabs(Sum(r.rank) - 1) < 1e-9);
  for (double x : r.rank) CHECK(x >= 0.15 / 500 - 1e-12);
  CHECK(PageRank({}).rank.empty());
}

}  // namespace
}  // namespace crawl::testweb
