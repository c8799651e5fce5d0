// Index terms of text without spaces, NFKC and case folding
// (common/text/tokenizer.h).
#include <unicode/uchar.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <random>
#include <string>
#include <vector>

#include "common/text/tokenizer.h"

using namespace crawl;
using Terms = std::vector<std::string>;

namespace {

Terms Cut(std::string_view text, text::CaseFolding folding = text::CaseFolding::kDefault) {
  Terms out;
  text::ForEachToken(text, folding, [&](std::string_view t) { out.emplace_back(t); });
  return out;
}

// What a search does: the query cut as the page is; every term present, and
// for a phrase at consecutive positions.
bool AllPresent(const Terms& page, const Terms& query) {
  return !query.empty() && std::all_of(query.begin(), query.end(), [&](const std::string& q) {
    return std::find(page.begin(), page.end(), q) != page.end();
  });
}
bool Consecutive(const Terms& page, const Terms& query) {
  return !query.empty() && std::search(page.begin(), page.end(), query.begin(), query.end()) != page.end();
}

bool ValidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t len = b < 0x80                 ? 1
                            : b >= 0xC2 && b <= 0xDF ? 2
                            : b >= 0xE0 && b <= 0xEF ? 3
                            : b >= 0xF0 && b <= 0xF4 ? 4
                                                     : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

}  // namespace

TEST_CASE("a Han and kana run is cut into characters and neighbour pairs", "[unit]") {
  CHECK(Cut("東京都") == Terms{"東", "東京", "京", "京都", "都"});
  CHECK(Cut("天") == Terms{"天"});
  CHECK(Cut("東京 タワー") == Terms{"東", "東京", "京", "タ", "タワ", "ワ", "ワー", "ー"});
}

TEST_CASE("Japanese words and clauses find their text when cut the same way", "[unit]") {
  const Terms page = Cut("東京都の天気は晴れです。明日は雨でしょう。");
  CHECK(Consecutive(page, Cut("天気")));          // a two-character word
  CHECK(Consecutive(page, Cut("雨")));            // a one-character word
  CHECK(Consecutive(page, Cut("天気は晴れ")));    // a clause, as a phrase
  CHECK(Consecutive(page, Cut("東京都の天気")));  // from the start of the run
  CHECK_FALSE(AllPresent(page, Cut("大阪")));
  CHECK_FALSE(Consecutive(page, Cut("天気は雨")));  // its words are there, not as a clause
  // The sentence break 。 separates runs: no pair across it.
  CHECK_FALSE(AllPresent(page, Cut("す明")));
}

TEST_CASE("Chinese words find their text", "[unit]") {
  const Terms page = Cut("北京是中华人民共和国的首都，也是全国的政治中心。");
  CHECK(Consecutive(page, Cut("首都")));
  CHECK(Consecutive(page, Cut("中华人民共和国")));
  CHECK(Consecutive(page, Cut("国")));
  CHECK_FALSE(AllPresent(page, Cut("上海")));
  // Traditional and simplified characters are different terms (NFKC keeps both).
  CHECK_FALSE(AllPresent(Cut("中華"), Cut("中华")));
}

TEST_CASE("Thai, Lao, Khmer and Myanmar are cut into dictionary words", "[unit]") {
  const Terms thai = Cut("ภาษาไทยเป็นภาษาที่สวยงาม");
  CHECK(thai.size() >= 4);  // more than one term: not the whole run
  CHECK(std::find(thai.begin(), thai.end(), "ภาษา") != thai.end());
  CHECK(Consecutive(thai, Cut("ภาษาไทย")));
  CHECK(AllPresent(thai, Cut("สวยงาม")));
  CHECK(Cut("ພາສາລາວ").size() >= 2);
  CHECK(Cut("ខ្ញុំស្រឡាញ់ភាសាខ្មែរ").size() >= 2);
  CHECK(Cut("မြန်မာနိုင်ငံသည်အရှေ့တောင်အာရှတွင်ရှိသည်").size() >= 2);
}

TEST_CASE("terms are NFKC with full case folding", "[unit]") {
  CHECK(Cut("ＡＢＣ ａｂｃ１２３") == Terms{"abc", "abc123"});
  CHECK(Cut("ｶﾀｶﾅ") == Cut("カタカナ"));  // half-width katakana
  CHECK(Cut("ﬁle ﬂow") == Terms{"file", "flow"});
  CHECK(Cut("Straße STRASSE") == Terms{"strasse", "strasse"});
  CHECK(Cut("ΣΟΦΌΣ σοφός") == Terms{"σοφόσ", "σοφόσ"});  // final sigma
  CHECK(Cut("Ⅻ") == Terms{"xii"});
  CHECK(Cut("café") == Cut("cafe\xCC\x81"));  // composed and decomposed é
  // A ligature NFKC turns into words with spaces is cut again.
  CHECK(Cut("\xEF\xB7\xBA").size() == 4);  // U+FDFA
}

TEST_CASE("Turkic case folding on request", "[unit]") {
  using text::CaseFolding;
  CHECK(Cut("DİYARBAKIR Istanbul", CaseFolding::kTurkic) == Terms{"diyarbakır", "ıstanbul"});
  CHECK(Cut("DİYARBAKIR Istanbul") == Terms{"di\xCC\x87yarbakir", "istanbul"});
  CHECK(Cut("ISTANBUL istanbul", CaseFolding::kTurkic) == Terms{"ıstanbul", "istanbul"});
  // 40 I fold to 80 bytes: too long a token, as a long word is.
  CHECK(Cut(std::string(40, 'I') + " x", CaseFolding::kTurkic) == Terms{"x"});
  CHECK(Cut("\xC3\xA9 " + std::string(40, 'I') + " x", CaseFolding::kTurkic) == Terms{"\xC3\xA9", "x"});
  CHECK(text::CaseFoldingFor("tr") == CaseFolding::kTurkic);
  CHECK(text::CaseFoldingFor("az") == CaseFolding::kTurkic);
  CHECK(text::CaseFoldingFor("TR") == CaseFolding::kTurkic);
  CHECK(text::CaseFoldingFor("az-Latn") == CaseFolding::kTurkic);
  CHECK(text::CaseFoldingFor("en") == CaseFolding::kDefault);
  CHECK(text::CaseFoldingFor("tt") == CaseFolding::kDefault);
  CHECK(text::CaseFoldingFor("") == CaseFolding::kDefault);
  CHECK(text::CaseFoldingFor("tur") == CaseFolding::kDefault);
}

TEST_CASE("scripts are cut where they change", "[unit]") {
  CHECK(Cut("iPhone用ケース2024年") ==
        Terms{"iphone", "用", "用ケ", "ケ", "ケー", "ー", "ース", "ス", "2024", "年"});
  CHECK(Cut("Москва東京") == Terms{"москва", "東", "東京", "京"});
  CHECK(Cut("한국어 텍스트") == Terms{"한국어", "텍스트"});  // Hangul is written with spaces
}

TEST_CASE("invalid UTF-8 separates terms, and terms are valid UTF-8", "[unit]") {
  CHECK(Cut("東\xFF京") == Terms{"東", "京"});
  CHECK(Cut("東\xE4\xBA京") == Terms{"東", "京"});  // a truncated character
  std::mt19937 rng(11);
  const std::vector<std::string> pieces = {"東京",     "ｶﾀ",   "ภาษาไทย",         "ＡＢ", "ß",
                                           "İ",        "\xFF", "\xE6\x9D",        " ",    "word",
                                           "\xCC\x81", "。",   "\xF0\xA0\x80\x80"};
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1), count(1, 30);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    for (std::size_t k = count(rng); k > 0; --k) text += pieces[pick(rng)];
    for (const std::string& t : Cut(text)) {
      INFO(text);
      CHECK(!t.empty());
      CHECK(t.size() <= text::kMaxTokenBytes);
      CHECK(ValidUtf8(t));
    }
  }
}

TEST_CASE("NextToken and NextTokenView give ForEachToken's terms on text without spaces", "[unit]") {
  std::mt19937 rng(5);
  const std::vector<std::string> pieces = {
      "東京都", "の",   "ｶﾀｶﾅ",  "ภาษาไทยเป็น", "Word", " ",  "ＡＢ",
      "É",      "\xFF", "ΣΟΦΌΣ", "İ",          "x",    "。", std::string(70, 'q')};
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1), count(0, 16);
  for (const auto folding : {text::CaseFolding::kDefault, text::CaseFolding::kTurkic}) {
    for (int round = 0; round < 1000; ++round) {
      std::string text;
      for (std::size_t k = count(rng); k > 0; --k) text += pieces[pick(rng)];
      INFO(text);
      Terms built, viewed;
      std::size_t pos = 0;
      std::string token;
      while (text::NextToken(text, &pos, &token, folding)) built.push_back(token);
      pos = 0;
      std::string scratch;
      std::string_view view;
      while (text::NextTokenView(text, &pos, &scratch, &view, folding)) viewed.emplace_back(view);
      const Terms each = Cut(text, folding);
      REQUIRE(built == each);
      REQUIRE(viewed == each);
    }
  }
}

TEST_CASE("very long runs are cut in linear time and bounded pieces", "[unit]") {
  // A million Han characters: every character and pair, but those across a
  // kMaxRunBytes cut.
  std::string han;
  for (int k = 0; k < 1'000'000; ++k) han += (k % 2 == 0) ? "東" : "京";
  std::size_t terms = 0, longest = 0;
  text::ForEachToken(han, [&](std::string_view t) {
    ++terms;
    longest = std::max(longest, t.size());
  });
  const std::size_t pieces = han.size() / (text::kMaxRunBytes - 2) + 1;
  CHECK(terms <= 2 * 1'000'000 - 1);
  CHECK(terms >= 2 * 1'000'000 - 1 - pieces);
  CHECK(longest == 6);
  // A million Thai characters through the dictionary breaker, and NextToken
  // over a long run (its cursor counts tokens; each run is cut once).
  std::string thai;
  while (thai.size() < 3'000'000) thai += "ภาษาไทยเป็นภาษาที่สวยงาม";
  std::size_t thai_terms = 0;
  text::ForEachToken(thai, [&](std::string_view) { ++thai_terms; });
  CHECK(thai_terms > 100'000);
  std::size_t pos = 0, read = 0;
  std::string token;
  while (text::NextToken(thai, &pos, &token)) ++read;
  CHECK(read == thai_terms);
}

TEST_CASE("word characters are Unicode's letters, marks, decimal digits and letter numbers", "[unit]") {
  // The tokenizer answers Latin-1 and the punctuation blocks without ICU:
  // the same answer as ICU's categories, for every code point.
  constexpr uint32_t kWord = U_GC_L_MASK | U_GC_M_MASK | U_GC_ND_MASK | U_GC_NL_MASK;
  std::size_t differ = 0;
  for (uint32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    const bool word = (U_MASK(u_charType(static_cast<UChar32>(cp))) & kWord) != 0 &&
                      (cp >= 0x80 || std::isalnum(static_cast<int>(cp)) != 0);
    differ += text::IsWordCodePoint(cp) != word ? 1 : 0;
  }
  CHECK(differ == 0);
}
