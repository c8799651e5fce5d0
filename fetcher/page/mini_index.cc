// Mini inverted index of one page (mini_index.h).
#include "fetcher/page/mini_index.h"

#include <algorithm>

#include "common/base/flat_string_map.h"
#include "common/base/hash.h"
#include "common/base/string_hash.h"
#include "common/text/packed_terms.h"

namespace crawl::fetcher {
namespace {

// The per-thread (word -> term, term id) cache of one stemmer algorithm,
// shared by all pages of the thread, keyed by Intern's hash of the word (so
// a word is not hashed again). Emptied when it holds kMaxCachedTerms words.
class TermCache {
 public:
  struct Term {
    std::string_view text;  // valid until the next Lookup()
    uint64_t id;
  };

  // Lookups of a page's words miss the cache (the map outgrows it): a
  // caller going through them in order calls Prefetch, PrefetchEntry and
  // Warm for the words that many places ahead (FlatStringMap's steps).
  static constexpr std::size_t kSlotAhead = 12, kEntryAhead = 6, kKeyAhead = 3;
  void Prefetch(uint32_t word_hash) const { words_.Prefetch(word_hash); }
  void PrefetchEntry(uint32_t word_hash) const { words_.PrefetchEntry(word_hash); }
  void Warm(uint32_t word_hash) const {
    if (const Stored* guess = words_.Peek(word_hash)) __builtin_prefetch(terms_.data() + guess->term_at);
  }

  Term Lookup(text::Stemmer* stemmer, std::string_view word, uint32_t word_hash) {
    if (const Stored* known = words_.Find(word, word_hash)) return TermOf(*known);
    if (words_.size() >= MiniIndexBuilder::kMaxCachedTerms) {
      words_.clear();
      terms_.clear();
    }
    const std::string_view term = stemmer != nullptr ? stemmer->Stem(word) : word;
    Stored* added = words_.Insert(word, word_hash).first;
    *added =
        Stored{static_cast<uint32_t>(terms_.size()), static_cast<uint32_t>(term.size()), hash::Hash8(term)};
    terms_.append(term);
    return TermOf(*added);
  }

 private:
  struct Stored {
    uint32_t term_at = 0, term_size = 0;
    uint64_t id = 0;
  };

  Term TermOf(const Stored& s) const {
    return {std::string_view(terms_).substr(s.term_at, s.term_size), s.id};
  }

  FlatStringMap<Stored> words_;
  std::string terms_;  // every cached term, back to back
};

TermCache& CacheFor(text::Stemmer* stemmer) {
  thread_local std::unordered_map<std::string_view, TermCache> caches;
  return caches[stemmer != nullptr ? stemmer->algorithm() : std::string_view()];
}

}  // namespace

MiniIndexBuilder::MiniIndexBuilder(uint32_t max_positions) : max_positions_(max_positions), slots_(1024, 0) {}

void MiniIndexBuilder::Grow() {
  std::vector<uint64_t> bigger(slots_.size() * 2, 0);
  const std::size_t mask = bigger.size() - 1;
  for (uint32_t id = 0; id < word_hash_.size(); ++id) {
    std::size_t i = word_hash_[id] & mask;
    while (bigger[i] != 0) i = (i + 1) & mask;
    bigger[i] = SlotOf(word_hash_[id], id);
  }
  slots_.swap(bigger);
}

uint32_t MiniIndexBuilder::Intern(std::string_view w) {
  const auto h = static_cast<uint32_t>(ShortStringHash(w));
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = h & mask;
  for (uint64_t slot; (slot = slots_[i]) != 0; i = (i + 1) & mask) {
    if (static_cast<uint32_t>(slot >> 32) != h) continue;
    const uint32_t id = static_cast<uint32_t>(slot) - 1;
    if (SameShortString(word(id), w)) return id;
  }
  const auto id = static_cast<uint32_t>(word_hash_.size());
  slots_[i] = SlotOf(h, id);
  arena_.append(w);
  word_start_.push_back(static_cast<uint32_t>(arena_.size()));
  word_hash_.push_back(h);
  anchor_counts_.push_back(0);
  if (word_hash_.size() * 2 > slots_.size()) Grow();  // load factor <= 1/2
  return id;
}

void MiniIndexBuilder::AddAnchorWord(uint32_t word_id) { ++anchor_counts_[word_id]; }

std::vector<std::pair<std::string_view, uint32_t>> MiniIndexBuilder::CountWords(uint32_t limit) const {
  std::vector<uint32_t> counts(word_count(), 0);
  const std::size_t n = std::min<std::size_t>(limit, position_words_.size());
  for (std::size_t p = 0; p < n; ++p) ++counts[position_words_[p]];
  std::vector<std::pair<std::string_view, uint32_t>> out;
  for (std::size_t w = 0; w < counts.size(); ++w) {
    if (counts[w] > 0) out.emplace_back(word(static_cast<uint32_t>(w)), counts[w]);
  }
  return out;
}

void MiniIndexBuilder::Finish(text::Stemmer* stemmer, v1::MiniIndex* out) const {
  if (stemmer != nullptr && !stemmer->ok()) stemmer = nullptr;
  out->Clear();
  out->set_stem_language(stemmer != nullptr ? std::string(stemmer->algorithm()) : std::string());
  out->set_token_count(positions());
  out->set_title_tokens(title_tokens_);
  out->set_truncated(positions() > max_positions_);
  const uint32_t stored = std::min<uint32_t>(positions(), max_positions_);

  // Word -> term, terms numbered in order of first occurrence (word ids
  // already are; anchor-only words come last). Terms are told apart by id
  // (a 64-bit hash) in a small open-addressing table; their text is copied
  // into one buffer (the cache may be emptied by a later lookup).
  const std::size_t words = word_count();
  std::vector<uint32_t> word_term(words);
  std::string term_text;
  std::vector<uint32_t> term_start{0};
  std::size_t table_size = 16;
  while (table_size < words * 2) table_size *= 2;
  std::vector<std::pair<uint64_t, uint32_t>> table(table_size, {0, 0});  // (term id, term index + 1)
  TermCache& cache = CacheFor(stemmer);
  for (std::size_t w = 0; w < words; ++w) {
    if (w + TermCache::kSlotAhead < words) cache.Prefetch(word_hash_[w + TermCache::kSlotAhead]);
    if (w + TermCache::kEntryAhead < words) cache.PrefetchEntry(word_hash_[w + TermCache::kEntryAhead]);
    if (w + TermCache::kKeyAhead < words) cache.Warm(word_hash_[w + TermCache::kKeyAhead]);
    const TermCache::Term info = cache.Lookup(stemmer, word(static_cast<uint32_t>(w)), word_hash_[w]);
    std::size_t i = static_cast<std::size_t>(info.id) & (table_size - 1);
    while (table[i].second != 0 && table[i].first != info.id) i = (i + 1) & (table_size - 1);
    if (table[i].second == 0) {
      // The term, not its id: the queue server computes ids itself (crawl.proto).
      term_text.append(info.text);
      term_start.push_back(static_cast<uint32_t>(term_text.size()));
      table[i] = {info.id, static_cast<uint32_t>(term_start.size() - 1)};
    }
    word_term[w] = table[i].second - 1;
  }
  const std::size_t terms = term_start.size() - 1;
  // Each term's positions, grouped (a counting sort of the position stream:
  // ascending within a term).
  std::vector<uint32_t> first(terms + 1, 0);
  std::vector<text::TermCounts> counts(terms);
  for (uint32_t p = 0; p < stored; ++p) ++first[word_term[position_words_[p]] + 1];
  for (std::size_t t = 0; t < terms; ++t) first[t + 1] += first[t];
  std::vector<uint32_t> grouped(stored);
  std::vector<uint32_t> next(first.begin(), first.end() - 1);
  for (uint32_t p = 0; p < stored; ++p) {
    const uint32_t t = word_term[position_words_[p]];
    grouped[next[t]++] = p;
    if (p < title_tokens_) ++counts[t].title;
  }
  for (const auto& [begin, end] : description_) {
    for (uint32_t p = begin; p < std::min(end, stored); ++p)
      ++counts[word_term[position_words_[p]]].description;
  }
  for (std::size_t w = 0; w < words; ++w) counts[word_term[w]].anchor += anchor_counts_[w];
  std::string* packed = out->mutable_postings();
  packed->reserve(term_text.size() + terms * 7 + std::size_t{stored} * 2);
  for (std::size_t t = 0; t < terms; ++t) {
    counts[t].body = first[t + 1] - first[t] - counts[t].title;
    const std::string_view term =
        std::string_view(term_text).substr(term_start[t], term_start[t + 1] - term_start[t]);
    text::AppendPackedTerm(packed, term, counts[t], grouped.data() + first[t], first[t + 1] - first[t]);
  }
}

}  // namespace crawl::fetcher
