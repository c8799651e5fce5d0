// PageWeigher (page_weigher.h): a page's terms read from its mini index,
// and the weights of their positions.
#include "queueserver/index/page_weigher.h"

#include <algorithm>
#include <cmath>

namespace crawl::queueserver {
namespace {

// The table of position weights covers at most this many positions.
constexpr size_t kMaxWeighedPositions = 1u << 20;

}  // namespace

void PageWeigher::PageTerms::clear() {
  term.clear();
  counts.clear();
  first.assign(1, 0);
  positions.clear();
  gaps.clear();
}

template <typename Positions>
void PageWeigher::PageTerms::Add(std::string_view t, const text::TermCounts& c, const Positions& p,
                                 std::string_view g) {
  term.push_back(t);
  gaps.push_back(g);
  counts.push_back(c);
  positions.insert(positions.end(), p.begin(), p.end());
  first.push_back(static_cast<uint32_t>(positions.size()));
}

Status PageWeigher::Read(const v1::MiniIndex& mi) {
  PageTerms& out = terms_;
  out.clear();
  if (!mi.postings().empty()) {
    text::PackedTermReader reader(mi.postings());
    while (reader.Next()) out.Add(reader.term(), reader.counts(), reader.positions(), reader.shortest_gaps());
    return reader.status();
  }
  for (const v1::IndexTerm& t : mi.terms()) {
    out.Add(t.term(), {t.title_count(), t.description_count(), t.body_count(), t.anchor_count()},
            t.positions());
    // Packed positions ascend by construction; these may come in any order.
    const auto first = out.positions.begin() + out.first[out.first.size() - 2];
    if (!std::is_sorted(first, out.positions.end())) std::sort(first, out.positions.end());
    out.positions.erase(std::unique(first, out.positions.end()), out.positions.end());
    out.first.back() = static_cast<uint32_t>(out.positions.size());
  }
  return Status::Ok();
}

void PageWeigher::Weigh(const v1::FetchRecord& r, uint32_t title_tokens) {
  DescriptionSteps(r);
  // The table costs a slot per position up to the last, so it is made
  // only when positions are not far sparser than a fetcher's (a position
  // each token) and not past kMaxWeighedPositions; otherwise (only from a
  // bad fetcher) TermFrequency weighs them position by position.
  const PageTerms& terms = terms_;
  const std::vector<uint32_t>& positions = terms.positions;
  // Each term's positions ascend (Read): the last position of the page is
  // the greatest of the terms' last ones (no pass over every position is
  // needed).
  size_t size = 0;
  for (size_t i = 0; i + 1 < terms.first.size(); ++i) {
    if (terms.first[i + 1] > terms.first[i])
      size = std::max<size_t>(size, size_t{positions[terms.first[i + 1] - 1]} + 1);
  }
  const bool table = size <= kMaxWeighedPositions && size <= 4 * positions.size() + 4096;
  // The buffer only grows (a vector's resize zeroes what it adds, and pages
  // alternate between short and long).
  const size_t used = table ? size : 0;
  if (scratch_weights_.size() < used)
    scratch_weights_.resize(std::min(std::max(used, 2 * scratch_weights_.size()), kMaxWeighedPositions));
  weights_ = std::span<double>(scratch_weights_.data(), used);
  PositionWeights(title_tokens, steps_, options_.title_weight, options_.body_weight, weights_);
}

// Description sentences add their weight to their positions (docs/DESIGN.md §6-7).
// As a step function over positions, so a term's sorted positions are
// weighed in one merge (sentences can overlap: input from another process).
void PageWeigher::DescriptionSteps(const v1::FetchRecord& r) {
  auto& events = regions_;
  events.clear();
  for (const v1::DescriptionSentence& s : r.description()) {
    if (s.end_position() <= s.first_position() || !std::isfinite(s.weight())) continue;
    events.emplace_back(s.first_position(), 1, s.weight());
    events.emplace_back(s.end_position(), 0, -s.weight());  // ends sort before starts at one position
  }
  std::sort(events.begin(), events.end());
  auto& steps = steps_;
  steps.clear();
  double weight = 0;
  int64_t open = 0;
  for (size_t i = 0; i < events.size();) {
    const uint32_t at = std::get<0>(events[i]);
    for (; i < events.size() && std::get<0>(events[i]) == at; ++i) {
      weight += std::get<2>(events[i]);
      open += std::get<1>(events[i]) ? 1 : -1;
    }
    if (open == 0) weight = 0;  // no rounding residue outside every sentence
    steps.emplace_back(at, weight);
  }
}

}  // namespace crawl::queueserver
