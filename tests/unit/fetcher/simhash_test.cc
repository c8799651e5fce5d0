// Simhash of a page's words (fetcher/page/simhash.h): a copy with a changed
// date line or menu is a few bits away, a different page about half of 64,
// a short page has none; and AnalyzeText sets it from the body.
#include "fetcher/page/simhash.h"

#include <bit>
#include <catch2/catch.hpp>
#include <string>

#include "common/text/stemmer.h"
#include "fetcher/page/text_analysis.h"

using crawl::fetcher::SimhashOfText;

namespace {

// About 300 words of made-up prose, different per seed.
std::string Prose(unsigned seed) {
  static const char* const kWords[] = {"river",  "stone",  "garden", "window", "letter", "market", "winter",
                                       "engine", "silver", "forest", "harbor", "violin", "ladder", "copper",
                                       "meadow", "candle", "bridge", "pepper", "saddle", "thread"};
  std::string text;
  unsigned x = seed * 2654435761u + 1;
  for (int i = 0; i < 300; ++i) {
    x = x * 1103515245u + 12345u;
    text += kWords[(x >> 16) % 20];
    text += (i % 12 == 11) ? ".\n" : " ";
  }
  return text;
}

int Distance(uint64_t a, uint64_t b) { return std::popcount(a ^ b); }

}  // namespace

TEST_CASE("A copy with another date line and menu is a few bits from the page", "[simhash]") {
  const std::string body = Prose(1);
  const uint64_t page = SimhashOfText("Home News Contact\nPosted 3 March 2025\n" + body);
  const uint64_t copy = SimhashOfText("Start About Shop Blog\nPosted 9 October 2026\n" + body);
  REQUIRE(page != 0);
  CHECK(Distance(page, copy) <= 3);
  CHECK(SimhashOfText("HOME news CONTACT\nPosted 3 March 2025\n" + body) == page);  // case-folded
}

TEST_CASE("Different pages are far apart", "[simhash]") {
  const uint64_t a = SimhashOfText(Prose(1));
  const uint64_t b = SimhashOfText(Prose(2));
  CHECK(Distance(a, b) > 10);
}

TEST_CASE("A page of fewer than 20 words has no simhash", "[simhash]") {
  CHECK(SimhashOfText("only a few words here, not enough for a fingerprint") == 0);
  CHECK(SimhashOfText("") == 0);
  CHECK(SimhashOfText(Prose(3)) != 0);
}

TEST_CASE("AnalyzeText fingerprints the body, not the title", "[simhash]") {
  crawl::text::StemmerCache stemmers;
  crawl::v1::FetchRecord a, b;
  const std::string body = Prose(4);
  crawl::fetcher::TextInput in;
  in.title = "One title";
  in.body = body;
  in.host = "a.example";
  crawl::fetcher::AnalyzeText(in, {}, stemmers, &a);
  in.title = "Another title entirely";
  in.host = "b.example";
  crawl::fetcher::AnalyzeText(in, {}, stemmers, &b);
  CHECK(a.simhash() != 0);
  CHECK(a.simhash() == SimhashOfText(body));
  CHECK(a.simhash() == b.simhash());
  CHECK(a.text_hash() != b.text_hash());
}
