// Sentence splitting and description scoring (fetcher/page/description.h).
#include "fetcher/page/description.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>

using namespace crawl::fetcher;

TEST_CASE("sentences split at line breaks and at .!? before a space", "[unit]") {
  const auto s = SplitSentences("Title line\nFirst one. Second one! Third? yes\n\n Last");
  CHECK(s ==
        std::vector<std::string_view>{"Title line", "First one.", "Second one!", "Third?", "yes", "Last"});
  CHECK(SplitSentences("version 1.2 is out").size() == 1);
}

namespace {
// Word lists live here so the spans stay valid.
std::vector<std::vector<uint32_t>> storage;
SentenceWords Sentence(std::string_view text, std::vector<uint32_t> words) {
  storage.push_back(std::move(words));
  SentenceWords s;
  s.text = text;
  s.words = storage.back();
  return s;
}
const std::vector<uint8_t> kAllContent(100, 1);
}  // namespace

TEST_CASE("sentences sharing the page's frequent words score best, kept in page order", "[unit]") {
  // Word 1 ("crawler") appears everywhere; sentence 2 is about other things.
  storage.reserve(100);
  std::vector<SentenceWords> in = {
      Sentence("the crawler fetches pages", {1, 2, 3}),
      Sentence("weather is nice today", {7, 8, 9}),
      Sentence("a crawler stores pages and links", {1, 3, 4}),
      Sentence("menu", {10}),
  };
  const auto picks = Summarize(in, kAllContent, 2000);
  REQUIRE(picks.size() == 3);  // "menu" has too few words
  CHECK(picks[0].sentence == 0);
  CHECK(picks[1].sentence == 1);
  CHECK(picks[2].sentence == 2);
  CHECK(picks[0].weight == Approx(1.0));
  CHECK(picks[1].weight < picks[0].weight);
}

TEST_CASE("the description respects its character budget", "[unit]") {
  storage.reserve(100);
  std::vector<SentenceWords> in = {
      Sentence("aaaa bbbb cccc dddd", {1, 2, 3, 4}),
      Sentence("aaaa bbbb eeee", {1, 2, 5}),
      Sentence("ffff gggg hhhh", {6, 7, 8}),
  };
  const auto picks = Summarize(in, kAllContent, 20);
  std::size_t used = 0;
  for (const auto& p : picks) used += in[p.sentence].text.size() + 1;
  CHECK(used <= 20);
  CHECK(picks.size() == 1);
}

TEST_CASE("stop words do not score", "[unit]") {
  storage.reserve(100);
  const auto a = Sentence("the the the x", {1, 1, 1, 2});
  const auto b = Sentence("y z w", {3, 4, 5});
  std::vector<uint8_t> content(10, 1);
  content[1] = 0;  // "the"
  CHECK(Summarize({a, b}, content, 2000).size() == 2);
  content[2] = 0;  // "x" too: sentence a has no content word left
  const auto picks = Summarize({a, b}, content, 2000);
  REQUIRE(picks.size() == 1);
  CHECK(picks[0].sentence == 1);
}

namespace {

// SplitSentences before it skipped 16 bytes at a time (a byte at a time):
// the reference the faster scan must agree with.
std::vector<std::string_view> SplitSentencesByByte(std::string_view text) {
  std::vector<std::string_view> out;
  auto emit = [&](std::size_t b, std::size_t e) {
    while (b < e && (text[b] == ' ' || text[b] == '\n')) ++b;
    while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\n')) --e;
    if (e > b) out.push_back(text.substr(b, e - b));
  };
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      emit(start, i);
      start = i + 1;
    } else if ((c == '.' || c == '!' || c == '?') && i + 1 < text.size() && text[i + 1] == ' ') {
      emit(start, i + 1);
      start = i + 1;
    } else if (c == '\xE3' && i + 3 < text.size() && text[i + 1] == '\x80' && text[i + 2] == '\x82') {
      emit(start, i + 3);
      start = i + 3;
    }
  }
  emit(start, text.size());
  return out;
}

}  // namespace

TEST_CASE("sentence splitting agrees with the byte-at-a-time reference on random text", "[unit]") {
  // Pieces chosen to put delimiters at every offset of a 16-byte block,
  // at the very end, and U+3002 cut short.
  const std::vector<std::string> pieces = {"a",        "word", "longerword", " ",
                                           " ",        "\n",   ". ",         ".",
                                           "!",        "? ",   "?",          "\xE3\x80\x82",
                                           "\xE3\x80", "\xE3", "1.2",        "\xC3\xA9t\xC3\xA9",
                                           "  "};
  uint64_t state = 42;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const uint32_t n = next() % 60;
    for (uint32_t k = 0; k < n; ++k) text += pieces[next() % pieces.size()];
    INFO(text);
    CHECK(SplitSentences(text) == SplitSentencesByByte(text));
  }
}

namespace {

// Summarize as first written (three passes, branches on content words, a
// stable sort): the reference the faster one must agree with.
std::vector<DescriptionPick> SummarizeReference(const std::vector<SentenceWords>& sentences,
                                                const std::vector<uint8_t>& is_content,
                                                std::size_t max_chars) {
  uint32_t ids = 0;
  for (const SentenceWords& s : sentences) {
    for (uint32_t w : s.words) ids = std::max(ids, w + 1);
  }
  auto content = [&](uint32_t w) { return w < is_content.size() && is_content[w] != 0; };
  std::vector<uint32_t> frequency(ids, 0);
  for (const SentenceWords& s : sentences) {
    for (uint32_t w : s.words) {
      if (content(w)) ++frequency[w];
    }
  }
  std::vector<std::size_t> seen(ids, 0);
  struct Candidate {
    std::size_t sentence;
    double score;
  };
  std::vector<Candidate> candidates;
  for (std::size_t k = 0; k < sentences.size(); ++k) {
    const SentenceWords& s = sentences[k];
    if (s.words.size() < kMinSentenceWords) continue;
    double sum = 0;
    for (uint32_t w : s.words) {
      if (content(w) && seen[w] != k + 1) {
        seen[w] = k + 1;
        sum += frequency[w];
      }
    }
    if (sum <= 0) continue;
    candidates.push_back({k, sum / std::sqrt(static_cast<double>(s.words.size()))});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
  std::vector<DescriptionPick> picks;
  std::size_t used = 0;
  double best = 0;
  for (const Candidate& c : candidates) {
    const std::string_view text = sentences[c.sentence].text;
    if (used + text.size() / 4 + 1 > max_chars) continue;
    const std::size_t len = Utf8Length(text) + 1;
    if (used + len > max_chars) continue;
    used += len;
    if (picks.empty()) best = c.score;
    picks.push_back({c.sentence, static_cast<float>(c.score / best)});
    if (used + kMinSentenceWords * 2 > max_chars) break;
  }
  std::sort(picks.begin(), picks.end(),
            [](const DescriptionPick& a, const DescriptionPick& b) { return a.sentence < b.sentence; });
  return picks;
}

}  // namespace

TEST_CASE("Summarize agrees with its first, branchy version on random pages", "[unit]") {
  uint64_t state = 99;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  const std::string text(400, 'x');
  for (int round = 0; round < 2000; ++round) {
    const uint32_t vocabulary = 1 + next() % 60;
    std::vector<uint8_t> is_content(vocabulary);
    for (auto& c : is_content) c = next() % 3 != 0;
    std::vector<std::vector<uint32_t>> words(next() % 30);
    std::vector<SentenceWords> sentences(words.size());
    for (std::size_t k = 0; k < words.size(); ++k) {
      // Ids past is_content's end too (not content), and repeated words.
      words[k].resize(next() % 12);
      for (auto& w : words[k]) w = next() % (vocabulary + 5);
      sentences[k].text = std::string_view(text).substr(0, 1 + next() % 120);
      sentences[k].words = words[k];
    }
    const std::size_t max_chars = 20 + next() % 600;
    const auto got = Summarize(sentences, is_content, max_chars);
    const auto want = SummarizeReference(sentences, is_content, max_chars);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i].sentence == want[i].sentence);
      CHECK(got[i].weight == want[i].weight);
    }
  }
}

TEST_CASE("Utf8Length counts what a byte-at-a-time count of lead bytes counts", "[unit]") {
  // Every length around the 16-byte blocks, bytes from every UTF-8 class
  // (ASCII, continuation, lead, invalid), at every offset.
  uint64_t state = 7;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  const unsigned char kinds[] = {'a', ' ', 0x80, 0xBF, 0xC3, 0xE2, 0xF0, 0xFF};
  for (std::size_t size = 0; size < 70; ++size) {
    for (int round = 0; round < 20; ++round) {
      std::string s(size, '\0');
      for (char& c : s) c = static_cast<char>(kinds[next() % std::size(kinds)]);
      std::size_t expected = 0;
      for (char c : s) expected += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      INFO(size);
      CHECK(Utf8Length(s) == expected);
    }
  }
  // Past 255 blocks of 16 (where the byte counters are summed), all
  // continuation bytes, and every tail length.
  for (std::size_t size : {4079, 4080, 4081, 4095, 4096, 4111, 8161, 10000}) {
    for (int fill : {0x80, 0xBF, int{'a'}}) {
      std::string s(size, static_cast<char>(fill));
      s[size / 2] = 'x';
      const std::size_t expected = fill == 'a' ? size : 1;
      INFO(size << " " << fill);
      CHECK(Utf8Length(s) == expected);
    }
  }
  CHECK(Utf8Length("na\xC3\xAFve caf\xC3\xA9 \xE2\x82\xAC") == 12);
}
