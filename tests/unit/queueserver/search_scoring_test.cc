// Score parts of docs/DESIGN.md §8 (queueserver/index/search_scoring.h) on
// hand-computed examples, and the doc map of docs/DESIGN.md §7
// (queueserver/index/doc_map.h).
#include "queueserver/index/search_scoring.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "queueserver/index/doc_map.h"

using namespace crawl::queueserver;

// docs/DESIGN.md §7: doc rank of A = log10(number of documents after A).
TEST_CASE("doc rank is log10 of the documents after", "[unit]") {
  CHECK(DocRank(1000) == Approx(3.0));
  CHECK(DocRank(10) == Approx(1.0));
  CHECK(DocRank(1) == Approx(0.0));
  CHECK(DocRank(0) == 0.0);  // policy: the last document gets 0, not -inf
}

// docs/DESIGN.md §8, relevance: f=2, l_t=10, N=100, l_d=50, l_avg=100:
// f' = 2 log2(1 + 100/50) = 3.169925;
// (log2(1.1) + f' log2(11)) / (f' + 1) = (0.1375035 + 10.9661) / 4.169925 = 2.6627918.
TEST_CASE("DFR relevance of one term by hand", "[unit]") {
  CHECK(DfrTerm(2, 10, 100, 50, 100) == Approx(2.6627918).epsilon(1e-6));
  // f = 0: only the first term remains, over 1.
  CHECK(DfrTerm(0, 10, 100, 50, 100) == Approx(std::log2(1.1)));
  // More occurrences in the same document score higher; a rarer term too.
  CHECK(DfrTerm(4, 10, 100, 50, 100) > DfrTerm(2, 10, 100, 50, 100));
  CHECK(DfrTerm(2, 5, 100, 50, 100) > DfrTerm(2, 50, 100, 50, 100));
  // A shorter document with the same f scores higher (normalisation 2).
  CHECK(DfrTerm(2, 10, 100, 25, 100) > DfrTerm(2, 10, 100, 50, 100));
  // A term with more occurrences than documents (l_t = 500, N = 100): the
  // formula would fall with f; the weight never drops below its f = 0 value.
  const double at_zero = std::log2(1.0 + 500.0 / 100.0);
  CHECK(DfrTerm(0, 500, 100, 50, 100) == Approx(at_zero));
  CHECK(DfrTerm(2, 500, 100, 50, 100) == Approx(at_zero));
  CHECK(DfrTerm(8, 500, 100, 50, 100) >= DfrTerm(2, 500, 100, 50, 100));
}

// docs/DESIGN.md §8, proximity: minimal spans are windows holding every term with
// no smaller such window inside.
TEST_CASE("minimal spans of two terms with repeats", "[unit]") {
  // a at 0, 5, 9; b at 3, 10: [0,3], [3,5], [9,10]; [3,9] is not minimal
  // ([9,10] is not inside it, but [3,5] is).
  const std::vector<std::vector<uint32_t>> pos = {{0, 5, 9}, {3, 10}};
  CHECK(MinimalSpans(pos) == std::vector<Span>{{0, 3}, {3, 5}, {9, 10}});
  // Proximity = weight * terms * sum 1/(v-u+1) / (l_d - terms + 1)
  //           = 1 * 2 * (1/4 + 1/3 + 1/2) / 19 = 0.1140351.
  CHECK(Proximity(pos, 20, 1.0) == Approx(0.11403508771929824));
  CHECK(Proximity(pos, 20, 2.0) == Approx(2 * 0.11403508771929824));
}

TEST_CASE("a query term repeated in the document keeps only the tightest window", "[unit]") {
  // a a a b: only [2,3] is minimal ([0,3] and [1,3] contain it).
  const std::vector<std::vector<uint32_t>> pos = {{0, 1, 2}, {3}};
  CHECK(MinimalSpans(pos) == std::vector<Span>{{2, 3}});
  // 2 * (1/2) / (10 - 2 + 1)
  CHECK(Proximity(pos, 10, 1.0) == Approx(1.0 / 9.0));
}

TEST_CASE("minimal spans of three terms", "[unit]") {
  // a0 b1 c5 a6: [0,5] and [1,6].
  const std::vector<std::vector<uint32_t>> pos = {{0, 6}, {1}, {5}};
  CHECK(MinimalSpans(pos) == std::vector<Span>{{0, 5}, {1, 6}});
  // 1 * 3 * (1/6 + 1/6) / (8 - 3 + 1)
  CHECK(Proximity(pos, 8, 1.0) == Approx(3.0 * (2.0 / 6.0) / 6.0));
}

TEST_CASE("proximity needs two terms all present", "[unit]") {
  CHECK(Proximity({{1, 2, 3}}, 10, 1.0) == 0.0);
  CHECK(Proximity({{1, 2}, {}}, 10, 1.0) == 0.0);
  CHECK(MinimalSpans({{1}, {}}).empty());
}

TEST_CASE("bonuses: CLD URL 2, domain URL 0.5, items by matched share", "[unit]") {
  BonusWeights w;
  BonusInput cld;
  cld.domain_url = true;
  cld.cld_url = true;
  CHECK(Bonus(cld, w) == Approx(2.0));
  BonusInput domain;
  domain.domain_url = true;
  CHECK(Bonus(domain, w) == Approx(0.5));
  BonusInput items;
  items.title_matched = 1;
  items.title_terms = 4;  // title factor 2 * 1 (matched) * 1/4
  items.path_matched = 2;
  items.path_terms = 2;  // path factor 1 * 2/2
  items.host_terms = 3;  // nothing matched
  CHECK(Bonus(items, w) == Approx(0.5 + 1.0));
}

// The title factor is title weight * matched query terms: a full title
// match outweighs a shorter title holding part of the query. Query "What's
// New in Python 2.6 - Python 3.11.2 documentation" (10 distinct terms):
TEST_CASE("title bonus: weight * matched * matched / title terms", "[unit]") {
  BonusWeights w;   // title 2
  BonusInput full;  // whatsnew/2.6.html: its 10 title terms all in the query
  full.title_matched = 10;
  full.title_terms = 10;
  CHECK(Bonus(full, w) == Approx(2.0 * 10 * 10 / 10));  // 20
  BonusInput index;  // whatsnew/index.html: 9 title terms, all in the query
  index.title_matched = 9;
  index.title_terms = 9;
  CHECK(Bonus(index, w) == Approx(2.0 * 9 * 9 / 9));  // 18
  BonusInput partial;                                 // 5 of a 6-term title
  partial.title_matched = 5;
  partial.title_terms = 6;
  CHECK(Bonus(partial, w) == Approx(2.0 * 5 * 5 / 6));  // 8.33
  BonusInput none;
  none.title_terms = 6;
  CHECK(Bonus(none, w) == 0.0);
  w.title = 3.0;
  CHECK(Bonus(full, w) == Approx(30.0));
}

// docs/DESIGN.md §7: groups by URL hash then text hash, group score = sum of
// (documents in partition - arrival position), groups ordered by score.
TEST_CASE("doc map groups by URL then text hash and orders groups by score", "[unit]") {
  // 0: A/x (score 4), 1: B/y (3), 2: A/z (2), 3: C/w (1). A = 6, B = 3, C = 1.
  CHECK(OrderDocMap({{1, 10}, {2, 20}, {1, 30}, {3, 40}}) == std::vector<uint32_t>{0, 2, 1, 3});
  // A URL linked three times outranks an earlier page: B = 4, A = 3+2+1 = 6;
  // inside group A, text hash 1 (3 + 1 = 4) before text hash 2 (2).
  CHECK(OrderDocMap({{2, 1}, {1, 1}, {1, 2}, {1, 1}}) == std::vector<uint32_t>{1, 3, 2, 0});
  CHECK(OrderDocMap({}).empty());
}

// PositionsFrequency against the loop it replaced, which walked the steps
// at every position: the same sum, to the last bit, on random pages.
TEST_CASE("PositionsFrequency adds what the position-by-position loop added", "[unit]") {
  auto reference = [](const std::vector<uint32_t>& positions, uint32_t title_tokens,
                      const std::vector<std::pair<uint32_t, double>>& steps, double title, double body) {
    double f = 0;
    size_t step = 0;
    double sentence_weight = 0;
    for (uint32_t pos : positions) {
      if (pos < title_tokens) {
        f += title;
        continue;
      }
      for (; step < steps.size() && steps[step].first <= pos; ++step) sentence_weight = steps[step].second;
      f += body + sentence_weight;
    }
    return f;
  };
  std::mt19937 rng(7);
  for (int round = 0; round < 20000; ++round) {
    std::vector<uint32_t> positions;
    for (uint32_t at = rng() % 30; positions.size() < rng() % 60; at += 1 + rng() % 20)
      positions.push_back(at);
    std::vector<std::pair<uint32_t, double>> steps;
    double open_weight = 0;
    for (uint32_t at = rng() % 200; steps.size() < rng() % 8; at += 1 + rng() % 40) {
      open_weight = rng() % 3 == 0 ? 0.0 : std::ldexp(static_cast<double>(rng() % 1000), -7) + 0.1;
      steps.emplace_back(at, open_weight);
    }
    if (!steps.empty() && rng() % 4 != 0) steps.back().second = 0;  // as DescriptionSteps ends
    const uint32_t title_tokens = rng() % 40;
    const double title = 1.0 + 0.1 * (rng() % 30), body = 0.3 + 0.01 * (rng() % 90);
    REQUIRE(PositionsFrequency(positions, title_tokens, steps, title, body) ==
            reference(positions, title_tokens, steps, title, body));
  }
}

TEST_CASE("PositionWeights summed over a term's positions give PositionsFrequency", "[unit]") {
  std::mt19937 rng(11);
  std::vector<double> weights;
  for (int round = 0; round < 20000; ++round) {
    std::vector<uint32_t> positions;
    for (uint32_t at = rng() % 30; positions.size() < rng() % 60; at += 1 + rng() % 20)
      positions.push_back(at);
    std::vector<std::pair<uint32_t, double>> steps;
    for (uint32_t at = rng() % 200; steps.size() < rng() % 8; at += 1 + rng() % 40)
      steps.emplace_back(at, rng() % 3 == 0 ? 0.0 : std::ldexp(static_cast<double>(rng() % 1000), -7) + 0.1);
    const uint32_t title_tokens = rng() % 40;
    const double title = 1.0 + 0.1 * (rng() % 30), body = 0.3 + 0.01 * (rng() % 90);
    weights.assign(positions.empty() ? 0 : positions.back() + 1, -1.0);  // every slot must be written
    PositionWeights(title_tokens, steps, title, body, weights);
    double f = 0;
    for (uint32_t p : positions) f += weights[p];
    REQUIRE(f == PositionsFrequency(positions, title_tokens, steps, title, body));
  }
}
