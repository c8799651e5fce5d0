// Mini inverted index and Snowball stemming (fetcher/page/mini_index.h,
// common/text/stemmer.h, fetcher/page/text_analysis.h).
#include "fetcher/page/mini_index.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>

#include "common/base/hash.h"
#include "common/text/tokenizer.h"
#include "fetcher/page/text_analysis.h"
#include "tests/unit/support/mini_index_terms.h"

using namespace crawl::fetcher;
namespace text = crawl::text;

namespace {
std::optional<crawl::v1::IndexTerm> FindTerm(const crawl::v1::MiniIndex& index, const std::string& term) {
  for (const auto& t : crawl::test_support::Terms(index)) {
    if (t.term() == term) return t;
  }
  return std::nullopt;
}
}  // namespace

TEST_CASE("snowball stemmers by ISO language; none for unknown languages", "[unit]") {
  text::Stemmer en("en");
  REQUIRE(en.ok());
  CHECK(en.algorithm() == "english");
  CHECK(en.Stem("running") == "run");
  CHECK(en.Stem("connections") == "connect");
  text::Stemmer de("de");
  CHECK(de.Stem("häuser") == "haus");
  text::Stemmer none("xx");
  CHECK_FALSE(none.ok());
  CHECK(none.Stem("running") == "running");
  CHECK(text::SnowballAlgorithm("ru") == "russian");
}

TEST_CASE("mini index: stemmed terms, positions, title region, hashed ids", "[unit]") {
  text::Stemmer en("en");
  MiniIndexBuilder b(1000);
  b.AddPosition(b.Intern("crawling"));
  b.EndTitle();
  b.AddPosition(b.Intern("the"));
  b.AddPosition(b.Intern("crawler"));
  b.AddPosition(b.Intern("crawls"));
  b.MarkDescription(1, 3);
  b.AddAnchorWord(b.Intern("crawled"));
  crawl::v1::MiniIndex index;
  b.Finish(&en, &index);
  CHECK(index.stem_language() == "english");
  CHECK(index.token_count() == 4);
  CHECK(index.title_tokens() == 1);
  const auto crawl_term = FindTerm(index, "crawl");
  REQUIRE(crawl_term.has_value());
  CHECK(std::vector<uint32_t>(crawl_term->positions().begin(), crawl_term->positions().end()) ==
        std::vector<uint32_t>{0, 3});
  CHECK(crawl_term->title_count() == 1);
  CHECK(crawl_term->body_count() == 1);
  CHECK(crawl_term->description_count() == 0);  // position 3 is past the description [1, 3)
  CHECK(crawl_term->anchor_count() == 1);
  CHECK(crawl_term->term_id() == 0);  // not sent: the queue server computes ids from the terms
  const auto crawler = FindTerm(index, "crawler");
  REQUIRE(crawler.has_value());
  CHECK(crawler->description_count() == 1);
}

TEST_CASE("mini index stops storing positions at its cap", "[unit]") {
  MiniIndexBuilder b(2);
  for (int i = 0; i < 5; ++i) b.AddPosition(b.Intern("w"));
  crawl::v1::MiniIndex index;
  b.Finish(nullptr, &index);
  CHECK(index.token_count() == 5);
  CHECK(index.truncated());
  const auto terms = crawl::test_support::Terms(index);
  REQUIRE(terms.size() == 1);
  CHECK(terms[0].positions_size() == 2);
  CHECK(index.stem_language().empty());
}

TEST_CASE("text analysis: language, description weights and positions, text hash", "[unit]") {
  text::StemmerCache stemmers;
  TextInput in;
  in.title = "Web crawlers";
  in.body =
      "A web crawler fetches pages from the web.\nMenu\nCrawlers follow links between pages of the web.\n"
      "Unrelated sentence about cooking pasta tonight.";
  in.host = "example.com";
  in.anchors = {"web pages"};
  crawl::v1::FetchRecord r;
  AnalyzeText(in, {}, stemmers, &r);
  CHECK(r.language() == "en");
  CHECK(r.language_source() == "text");
  CHECK(r.text_hash() == TextHash(std::string(in.title) + " " + std::string(in.body)));
  REQUIRE(r.description_size() >= 2);
  CHECK(r.description(0).text() == "A web crawler fetches pages from the web.");
  CHECK(r.description(0).first_position() == 2);  // after the 2 title words
  CHECK(r.description(0).end_position() == 10);
  float best = 0;
  for (const auto& d : r.description()) best = std::max(best, d.weight());
  CHECK(best == Approx(1.0));
  CHECK(r.mini_index().stem_language() == "english");
  CHECK(r.mini_index().title_tokens() == 2);
  const auto web = FindTerm(r.mini_index(), "web");
  REQUIRE(web.has_value());
  CHECK(web->title_count() == 1);
  CHECK(web->anchor_count() == 1);
  CHECK(web->description_count() >= 2);
  // Markup and punctuation do not change the text hash; words do.
  CHECK(TextHash("Hello, world!") == TextHash("hello world"));
  CHECK(TextHash("hello world") != TextHash("hello there world"));
  CHECK(TextHash("Hello, world!") == crawl::hash::PageTextHash("hello world"));
}

TEST_CASE("text analysis: the text hash is the hash of every word one space apart, whatever the spacing",
          "[unit]") {
  // AnalyzeText appends runs of words that are one space apart in the text
  // whole; the hash must equal that of the words joined one by one.
  std::mt19937 rng(5);
  const std::vector<std::string> parts{"word", "Word", "WORD",   "é",  "Ünïcode", "x1",  " ",
                                       "  ",   "\n",   ". ",     ", ", "\t",      "!",   "ab-cd",
                                       "q",    "",     "日本語", "'s", "... ",    "\xff"};
  text::StemmerCache stemmers;
  for (int round = 0; round < 400; ++round) {
    TextInput in;
    std::string title, body;
    for (int k = rng() % 6; k > 0; --k) title += parts[rng() % parts.size()];
    for (int k = rng() % 60; k > 0; --k) body += parts[rng() % parts.size()];
    in.title = title;
    in.body = body;
    in.host = "example.com";
    crawl::v1::FetchRecord r;
    AnalyzeText(in, {}, stemmers, &r);
    std::string joined;
    text::ForEachToken(title + " " + body, [&](std::string_view t) {
      if (!joined.empty()) joined.push_back(' ');
      joined.append(t);
    });
    INFO("title '" << title << "' body '" << body << "'");
    CHECK(r.text_hash() == crawl::hash::PageTextHash(joined));
  }
}

TEST_CASE("Intern gives each distinct word one id, in order of first use, like a map of the words",
          "[unit]") {
  // Words of every size around SameShortString's 4-, 8- and 16-byte
  // loads, over two letters (many words of each size, often one byte
  // apart), longer words sharing their first 8 bytes, a few of 250-300
  // bytes, and up to 15,000 of them (the table grows).
  std::mt19937 rng(5);
  for (int round = 0; round < 20; ++round) {
    MiniIndexBuilder b(1u << 20);
    std::unordered_map<std::string, uint32_t> reference;
    const std::size_t words = 1 + rng() % 15000;
    for (std::size_t k = 0; k < words; ++k) {
      // Two letters: many words of each size, differing in one byte.
      std::string w(rng() % 50 == 0 ? 250 + rng() % 51 : 1 + rng() % 20, 'a');
      for (char& c : w) c = rng() % 2 == 0 ? 'a' : '\xC3';
      if (w.size() > 8 && rng() % 2 == 0) {  // one key, any letter after it
        w.replace(0, 8, "prefix__");
        for (std::size_t c = 8; c < w.size(); ++c) w[c] = static_cast<char>('a' + rng() % 26);
      }
      // From a string of its own size, so a read past its end is caught
      // by the sanitizers.
      const std::size_t size = w.size();
      const auto copy = std::make_unique<char[]>(size);
      std::memcpy(copy.get(), w.data(), size);
      const uint32_t id = b.Intern(std::string_view(copy.get(), size));
      const auto [it, added] = reference.emplace(w, static_cast<uint32_t>(reference.size()));
      INFO(w);
      REQUIRE(id == it->second);
      REQUIRE(b.word(id) == w);
    }
    CHECK(b.word_count() == reference.size());
  }
}

TEST_CASE("text analysis: a Turkish page's words are folded as Turkish (I to dotless ı)", "[unit]") {
  text::StemmerCache stemmers;
  TextInput in;
  in.title = "IŞIK";
  in.body = "Işık hızı saniyede yaklaşık üç yüz bin kilometredir.";
  in.declared_language = "tr";
  crawl::v1::FetchRecord r;
  AnalyzeText(in, {}, stemmers, &r);
  REQUIRE(r.language() == "tr");
  CHECK(r.mini_index().stem_language() == "turkish");
  const std::string lit(stemmers.For("tr").Stem("ışık"));
  const auto title = FindTerm(r.mini_index(), lit);
  REQUIRE(title.has_value());
  CHECK(title->title_count() == 1);
  // Folded the default way, the title would read "işik".
  CHECK_FALSE(FindTerm(r.mini_index(), std::string(stemmers.For("tr").Stem("işik"))).has_value());
}
