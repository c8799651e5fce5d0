// MiniIndexBuilder::Finish writes packed terms (common/text/packed_terms.h).
// Differential test: on random pages, what it writes, unpacked, equals what
// the builder wrote before as one IndexTerm message per term (the previous
// Finish, kept below as the reference).
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "common/text/stemmer.h"
#include "fetcher/page/mini_index.h"
#include "tests/unit/support/mini_index_terms.h"

using crawl::fetcher::MiniIndexBuilder;

namespace {

// What the test told the builder, to rebuild the index the old way.
struct Script {
  uint32_t title_tokens = 0;
  std::vector<std::pair<uint32_t, uint32_t>> description;
  std::vector<uint32_t> anchor_words;  // word ids, one per AddAnchorWord
};

// The previous Finish: terms in order of first word occurrence (anchor-only
// words last), positions below the cap, counts per region.
std::vector<crawl::v1::IndexTerm> ReferenceTerms(const MiniIndexBuilder& b, const Script& script,
                                                 crawl::text::Stemmer* stemmer, uint32_t max_positions) {
  const uint32_t stored = std::min(b.positions(), max_positions);
  std::vector<crawl::v1::IndexTerm> terms;
  std::map<std::string, size_t> index_of;
  std::vector<size_t> word_term(b.word_count());
  for (size_t w = 0; w < b.word_count(); ++w) {
    const std::string word(b.word(static_cast<uint32_t>(w)));
    const std::string term = stemmer != nullptr ? std::string(stemmer->Stem(word)) : word;
    auto [it, added] = index_of.try_emplace(term, terms.size());
    if (added) terms.emplace_back().set_term(term);
    word_term[w] = it->second;
  }
  for (uint32_t p = 0; p < stored; ++p) {
    crawl::v1::IndexTerm& t = terms[word_term[b.position_words()[p]]];
    t.add_positions(p);
    if (p < script.title_tokens) {
      t.set_title_count(t.title_count() + 1);
    } else {
      t.set_body_count(t.body_count() + 1);
    }
  }
  for (const auto& [first, end] : script.description) {
    for (uint32_t p = first; p < std::min(end, stored); ++p) {
      crawl::v1::IndexTerm& t = terms[word_term[b.position_words()[p]]];
      t.set_description_count(t.description_count() + 1);
    }
  }
  for (uint32_t w : script.anchor_words) {
    crawl::v1::IndexTerm& t = terms[word_term[w]];
    t.set_anchor_count(t.anchor_count() + 1);
  }
  return terms;
}

std::string RandomWord(std::mt19937& rng) {
  static const std::vector<std::string> kWords = {
      "crawl", "crawler", "crawling", "crawls", "web", "webs", "page", "pages", "index", "indexes",
      "the",   "a",       "running",  "runs",   "ran", "run",  "link", "links", "x",     "zz"};
  if (rng() % 8 == 0) return "w" + std::to_string(rng() % 500);  // rarer words
  return kWords[rng() % kWords.size()];
}

}  // namespace

TEST_CASE("mini index: packed Finish equals the per-term messages it replaced", "[unit]") {
  std::mt19937 rng(23);
  crawl::text::Stemmer en("en");
  for (int round = 0; round < 300; ++round) {
    const uint32_t max_positions = rng() % 4 == 0 ? rng() % 30 : 50'000;
    MiniIndexBuilder b(max_positions);
    Script script;
    const uint32_t title = rng() % 6;
    for (uint32_t i = 0; i < title; ++i) b.AddPosition(b.Intern(RandomWord(rng)));
    b.EndTitle();
    script.title_tokens = b.positions();
    const uint32_t body = rng() % 200;
    for (uint32_t i = 0; i < body; ++i) {
      const uint32_t id = b.Intern(RandomWord(rng));
      if (rng() % 10 == 0) {
        b.AddAnchorWord(id);
        script.anchor_words.push_back(id);
      }
      b.AddPosition(id);
    }
    for (int k = rng() % 4; k > 0; --k) {  // sentences, possibly overlapping or past the cap
      const uint32_t first = b.positions() == 0 ? 0 : rng() % b.positions();
      const uint32_t end = first + rng() % 20;
      b.MarkDescription(first, end);
      script.description.emplace_back(first, end);
    }
    for (int k = rng() % 3; k > 0; --k) {  // anchor-only words
      const uint32_t id = b.Intern("anchor" + std::to_string(rng() % 5));
      b.AddAnchorWord(id);
      script.anchor_words.push_back(id);
    }
    crawl::text::Stemmer* stemmer = rng() % 3 == 0 ? nullptr : &en;
    crawl::v1::MiniIndex index;
    b.Finish(stemmer, &index);
    CHECK(index.terms_size() == 0);
    const auto got = crawl::test_support::Terms(index);
    const auto want = ReferenceTerms(b, script, stemmer, max_positions);
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      INFO("round " << round << " term " << want[i].term());
      CHECK(got[i].SerializeAsString() == want[i].SerializeAsString());
    }
  }
}
