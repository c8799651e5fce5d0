// Word tokens (common/text/tokenizer.h).
#include "common/text/tokenizer.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using namespace crawl;

namespace {
std::vector<std::string> Tokens(std::string_view text) {
  std::vector<std::string> out;
  text::ForEachToken(text, [&](std::string_view t) { out.emplace_back(t); });
  return out;
}
}  // namespace

TEST_CASE("tokens are lower-cased runs of letters and digits", "[unit]") {
  CHECK(Tokens("Hello, World! It's 2024...") ==
        std::vector<std::string>{"hello", "world", "it", "s", "2024"});
  CHECK(Tokens("  ").empty());
  CHECK(Tokens("a-b_c") == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("non-ASCII letters are word characters and are case-folded", "[unit]") {
  CHECK(Tokens("Über ÄRGER straße") == std::vector<std::string>{"über", "ärger", "strasse"});
  CHECK(Tokens("ÉCOLE Œuvre") == std::vector<std::string>{"école", "œuvre"});
  CHECK(Tokens("МОСКВА и Ёлка") == std::vector<std::string>{"москва", "и", "ёлка"});
  CHECK(Tokens("ΑΘΗΝΑ") == std::vector<std::string>{"αθηνα"});
  // Han and kana: each character and each neighbour pair (segmentation_test.cc).
  CHECK(Tokens("東京 タワー") ==
        std::vector<std::string>{"東", "東京", "京", "タ", "タワ", "ワ", "ワー", "ー"});
}

TEST_CASE("punctuation, symbols, U+FFFD and invalid bytes separate tokens", "[unit]") {
  CHECK(Tokens("a\xE2\x80\x94"
               "b\xEF\xBF\xBD"
               "c\xFF"
               "d\xC2\xA9"
               "e") == std::vector<std::string>{"a", "b", "c", "d", "e"});
}

TEST_CASE("over-long tokens are skipped", "[unit]") {
  CHECK(Tokens("x " + std::string(100, 'a') + " y") == std::vector<std::string>{"x", "y"});
}

// NextTokenView (a view into the text when the token needs no change)
// against NextToken (always a built string), on text made of the pieces
// that decide between them: upper case, digits, UTF-8 words and separators,
// invalid bytes, and runs past kMaxTokenBytes.
namespace {
const std::vector<std::string>& Pieces() {
  static const std::vector<std::string> pieces = {"word",
                                                  "Word",
                                                  "WORD",
                                                  "w0rd",
                                                  "42",
                                                  " ",
                                                  ",",
                                                  "-",
                                                  "\n",
                                                  "\xc3\xa9" /* é */,
                                                  "\xc3\x89" /* É */,
                                                  "\xe2\x80\x94" /* em dash */,
                                                  "\xe4\xb8\xad" /* 中 */,
                                                  "\xff",
                                                  "\xc3",
                                                  std::string(60, 'a'),
                                                  std::string(70, 'b'),
                                                  std::string(65, 'C'),
                                                  "\xef\xbf\xbd",
                                                  "x"};
  return pieces;
}
}  // namespace

TEST_CASE("NextTokenView gives NextToken's tokens", "[unit]") {
  const std::vector<std::string>& pieces = Pieces();
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> count(0, 12), pick(0, pieces.size() - 1);
  for (int round = 0; round < 20'000; ++round) {
    std::string text;
    for (size_t n = count(rng); n > 0; --n) text += pieces[pick(rng)];
    std::vector<std::string> built, viewed;
    std::string token;
    size_t pos = 0;
    while (text::NextToken(text, &pos, &token)) built.push_back(token);
    CHECK(pos == text.size());
    std::string scratch;
    std::string_view view;
    pos = 0;
    while (text::NextTokenView(text, &pos, &scratch, &view)) viewed.emplace_back(view);
    CHECK(pos == text.size());
    INFO(text);
    REQUIRE(viewed == built);
  }
}

// ForEachToken's 64-byte blocks against NextToken: mostly ASCII texts (the
// block path), long enough to put tokens across block edges, with runs of
// 63-65 bytes (kMaxTokenBytes is 64) and, in every other text, one non-ASCII
// piece somewhere (the switch to NextTokenView mid-text).
TEST_CASE("ForEachToken gives NextToken's tokens", "[unit]") {
  std::vector<std::string> ascii;
  for (const std::string& p : Pieces()) {
    if (std::all_of(p.begin(), p.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
      ascii.push_back(p);
  }
  for (std::string p :
       {std::string(63, 'd'), std::string(64, 'e'), std::string(64, 'E'), std::string(63, '.')})
    ascii.push_back(p);
  const std::vector<std::string>& pieces = Pieces();
  std::mt19937 rng(11);
  std::uniform_int_distribution<size_t> count(0, 40), pick_ascii(0, ascii.size() - 1),
      pick(0, pieces.size() - 1);
  std::string scratch;  // reused across texts, as text_analysis does
  for (int round = 0; round < 20'000; ++round) {
    std::string text;
    const size_t n = count(rng);
    const size_t other_at = round % 2 == 0 ? n : count(rng) % (n + 1);
    for (size_t k = 0; k < n; ++k) text += k == other_at ? pieces[pick(rng)] : ascii[pick_ascii(rng)];
    std::vector<std::string> built, each;
    std::string token;
    size_t pos = 0;
    while (text::NextToken(text, &pos, &token)) built.push_back(token);
    text::ForEachToken(text, &scratch, [&](std::string_view t) { each.emplace_back(t); });
    INFO(text);
    REQUIRE(each == built);
  }
}
