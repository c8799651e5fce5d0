// Word tokens (common/text/tokenizer.h).
#include "common/text/tokenizer.h"

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
  CHECK(Tokens("Hello, World! It's 2024...") == std::vector<std::string>{"hello", "world", "it", "s", "2024"});
  CHECK(Tokens("  ") .empty());
  CHECK(Tokens("a-b_c") == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("non-ASCII letters are word characters and are lower-cased", "[unit]") {
  CHECK(Tokens("Über ÄRGER straße") == std::vector<std::string>{"über", "ärger", "straße"});
  CHECK(Tokens("ÉCOLE Œuvre") == std::vector<std::string>{"école", "œuvre"});
  CHECK(Tokens("МОСКВА и Ёлка") == std::vector<std::string>{"москва", "и", "ёлка"});
  CHECK(Tokens("ΑΘΗΝΑ") == std::vector<std::string>{"αθηνα"});
  CHECK(Tokens("東京 タワー") == std::vector<std::string>{"東京", "タワー"});
}

TEST_CASE("punctuation, symbols, U+FFFD and invalid bytes separate tokens", "[unit]") {
  CHECK(Tokens("a\xE2\x80\x94" "b\xEF\xBF\xBD" "c\xFF" "d\xC2\xA9" "e") ==
        std::vector<std::string>{"a", "b", "c", "d", "e"});
}

TEST_CASE("over-long tokens are skipped", "[unit]") {
  CHECK(Tokens("x " + std::string(100, 'a') + " y") == std::vector<std::string>{"x", "y"});
}

// NextTokenView (a view into the text when the token needs no change)
// against NextToken (always a built string), on text made of the pieces
// that decide between them: upper case, digits, UTF-8 words and separators,
// invalid bytes, and runs past kMaxTokenBytes.
TEST_CASE("NextTokenView gives NextToken's tokens", "[unit]") {
  const std::vector<std::string> pieces = {
      "word", "Word", "WORD", "w0rd", "42", " ", ",", "-", "\n", "\xc3\xa9" /* é */, "\xc3\x89" /* É */,
      "\xe2\x80\x94" /* em dash */, "\xe4\xb8\xad" /* 中 */, "\xff", "\xc3", std::string(60, 'a'),
      std::string(70, 'b'), std::string(65, 'C'), "\xef\xbf\xbd", "x"};
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
