// Tests for the cumulative captured PageRank (tests/testweb/captured_pagerank.h)
// on a hand-computed graph.
#include "tests/testweb/captured_pagerank.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "tests/testweb/ground_truth.h"
#include "tests/testweb/pagerank.h"

namespace crawl::testweb {
namespace {

// The graph of pagerank_test.cc: A -> B, B -> C, C -> A and C -> B, d = 0.85.
// Its ranks, solved by hand from r = (1-d)/3 + d M r:
const double kRc = (0.05 + 0.85 * (0.05 + 0.85 * 0.05)) / (1 - 0.85 * (0.85 * 0.425 + 0.425));
const double kRb = (kRc - 0.05) / 0.85;
const double kRa = 0.05 + 0.425 * kRc;

std::string TruthText() {
  // Through the real writer, from the real power iteration.
  const PageRankResult pr = PageRank({{1}, {2}, {0, 1}});
  const std::vector<TruthRow> rows = {
      {"http://a.test/", "normal", 0, pr.rank[0]},
      {"http://a.test/b.html", "normal", 1, pr.rank[1]},
      {"https://c.test/", "normal", 2, pr.rank[2]},
  };
  std::ostringstream out;
  WriteTruth(rows, out);
  return out.str();
}

TEST_CASE("captured PageRank adds each fetched URL's rank once, in fetch order", "[unit]") {
  std::istringstream truth_in(TruthText());
  auto ranks = ParseTruthRanks(truth_in);
  REQUIRE(ranks.ok());
  REQUIRE(ranks->size() == 3);
  CHECK(std::fabs(ranks->at("http://a.test/b.html") - kRb) < 1e-8);

  // B, robots.txt (skipped), A, B again, an unknown page, C; the second
  // form is a crawl log line (tab fields, the URL not first).
  std::istringstream fetched_in(
      "http://a.test/b.html\n"
      "http://a.test/robots.txt\n"
      "\n"
      "2026-11-22T18:00:00Z\t200\t4312\thttp://a.test/\t-\tx\ty\tz\n"
      "http://a.test/b.html\n"
      "http://a.test/missing.html\n"
      "https://c.test/\n");
  auto fetched = ParseFetched(fetched_in);
  REQUIRE(fetched.ok());
  REQUIRE(fetched->size() == 5);

  const auto every1 = CapturedPageRank(*ranks, *fetched, 1);
  REQUIRE(every1.size() == 5);
  CHECK(every1[0].pages == 1);
  CHECK(std::fabs(every1[0].captured - kRb) < 1e-8);
  CHECK(std::fabs(every1[1].captured - (kRb + kRa)) < 1e-8);
  CHECK(std::fabs(every1[2].captured - (kRb + kRa)) < 1e-8);  // B again: nothing new
  CHECK(std::fabs(every1[3].captured - (kRb + kRa)) < 1e-8);  // unknown: rank 0
  CHECK(every1[4].pages == 5);
  CHECK(std::fabs(every1[4].captured - 1.0) < 1e-8);  // everything captured

  const auto every2 = CapturedPageRank(*ranks, *fetched, 2);
  REQUIRE(every2.size() == 3);  // after 2, 4 and the last (5)
  CHECK(every2[0].pages == 2);
  CHECK(every2[1].pages == 4);
  CHECK(every2[2].pages == 5);
  CHECK(std::fabs(every2[2].captured - 1.0) < 1e-8);
}

TEST_CASE("malformed truth and fetched lines are refused with their line number", "[unit]") {
  std::istringstream bad_rank("http://a.test/\tnormal\t0\tlots\n");
  auto r = ParseTruthRanks(bad_rank);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().find("truth:1") != std::string::npos);
  std::istringstream short_line("\nhttp://a.test/\tnormal\n");
  auto s = ParseTruthRanks(short_line);
  REQUIRE_FALSE(s.ok());
  CHECK(s.status().message().find("truth:2") != std::string::npos);
  std::istringstream no_url("http://a.test/\nnot a url\n");
  auto f = ParseFetched(no_url);
  REQUIRE_FALSE(f.ok());
  CHECK(f.status().message().find("fetched:2") != std::string::npos);
}

}  // namespace
}  // namespace crawl::testweb
