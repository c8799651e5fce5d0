// Mini inverted index of one page (mini_index.h).
#include "fetcher/mini_index.h"

#include "common/hash.h"

namespace crawl::fetcher {

MiniIndexBuilder::MiniIndexBuilder(Stemmer* stemmer, uint32_t max_positions)
    : stemmer_(stemmer != nullptr && stemmer->ok() ? stemmer : nullptr), max_positions_(max_positions) {}

uint32_t MiniIndexBuilder::Intern(std::string_view word) {
  // Heterogeneous lookup is C++20 only with a transparent hash; a key string
  // is built per token, which the tokenizer has already paid for anyway.
  auto [it, inserted] = word_ids_.try_emplace(std::string(word), static_cast<uint32_t>(words_.size()));
  if (inserted) {
    words_.emplace_back(word);
    word_term_.push_back(-1);
  }
  return it->second;
}

uint32_t MiniIndexBuilder::TermOf(uint32_t word_id) {
  if (word_term_[word_id] >= 0) return static_cast<uint32_t>(word_term_[word_id]);
  const std::string& w = words_[word_id];
  std::string stem(stemmer_ != nullptr ? stemmer_->Stem(w) : std::string_view(w));
  auto [it, inserted] = term_ids_.try_emplace(stem, static_cast<uint32_t>(terms_.size()));
  if (inserted) terms_.push_back(Term{std::move(stem), {}, 0, 0, 0, 0});
  word_term_[word_id] = static_cast<int32_t>(it->second);
  return it->second;
}

uint32_t MiniIndexBuilder::AddPosition(uint32_t word_id) {
  const uint32_t position = next_position_++;
  if (position >= max_positions_) return position;
  const uint32_t t = TermOf(word_id);
  Term& term = terms_[t];
  term.positions.push_back(position);
  // title_tokens_ is set after the title, so every position added before
  // EndTitle() is a title position; Finish() splits the counts.
  position_terms_.push_back(t);
  return position;
}

void MiniIndexBuilder::MarkDescription(uint32_t first, uint32_t end) {
  const uint32_t stop = std::min<uint32_t>(end, static_cast<uint32_t>(position_terms_.size()));
  for (uint32_t p = first; p < stop; ++p) ++terms_[position_terms_[p]].description;
}

void MiniIndexBuilder::AddAnchorWord(uint32_t word_id) { ++terms_[TermOf(word_id)].anchor; }

void MiniIndexBuilder::Finish(v1::MiniIndex* out) const {
  out->Clear();
  out->set_stem_language(stemmer_ != nullptr ? std::string(stemmer_->algorithm()) : std::string());
  out->set_token_count(next_position_);
  out->set_title_tokens(title_tokens_);
  out->set_truncated(next_position_ > max_positions_);
  out->mutable_terms()->Reserve(static_cast<int>(terms_.size()));
  for (const Term& term : terms_) {
    v1::IndexTerm* t = out->add_terms();
    t->set_term(term.text);
    t->set_term_id(hash::Hash8(term.text));
    t->mutable_positions()->Reserve(static_cast<int>(term.positions.size()));
    uint32_t title = 0;
    for (uint32_t p : term.positions) {
      t->add_positions(p);
      if (p < title_tokens_) ++title;
    }
    t->set_title_count(title);
    t->set_body_count(static_cast<uint32_t>(term.positions.size()) - title);
    t->set_description_count(term.description);
    t->set_anchor_count(term.anchor);
  }
}

}  // namespace crawl::fetcher
