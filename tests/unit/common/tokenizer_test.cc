// Word tokens (common/text/tokenizer.h).
#include "common/text/tokenizer.h"

#include <catch2/catch.hpp>
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
