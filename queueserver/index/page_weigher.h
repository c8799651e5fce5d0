// A page's terms as its mini index gives them, and the weight of each
// position (IndexBuilder::AddPage): title and body region weights plus the
// weight of the description sentences covering a position (docs/DESIGN.md §6-7),
// so a term's frequency f is its positions' weights summed.
//
// Not thread-safe: owned by an IndexBuilder, under its SearchIndex's
// serialisation (the service lock). Buffers are reused page to page.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "common/base/status.h"
#include "common/text/packed_terms.h"
#include "proto/crawl.pb.h"
#include "queueserver/index/index_options.h"
#include "queueserver/index/search_scoring.h"

namespace crawl::queueserver {

class PageWeigher {
 public:
  // A page's terms: term i's positions are positions[first[i], first[i + 1]),
  // ascending and distinct.
  struct PageTerms {
    std::vector<std::string_view> term;
    std::vector<text::TermCounts> counts;
    std::vector<uint32_t> first{0}, positions;
    std::vector<std::string_view> gaps;  // the positions' bytes, when the reader could give them
    void clear();
    template <typename Positions>
    void Add(std::string_view t, const text::TermCounts& c, const Positions& p, std::string_view g = {});
  };

  // `options` (its region weights) must outlive the weigher.
  explicit PageWeigher(const IndexOptions& options) : options_(options) {}

  // Reads the terms of `index` (its `postings`, or its `terms` when that is
  // empty) whole; an error on a bad `postings`. The terms refer to `index`.
  [[nodiscard]] Status Read(const v1::MiniIndex& index);
  [[nodiscard]] const PageTerms& terms() const { return terms_; }
  // Each position's weight (PositionWeights, search_scoring.h) for the
  // terms Read last, of `record`'s page.
  void Weigh(const v1::FetchRecord& record, uint32_t title_tokens);
  // A term's f from its positions (ascending): the weights summed, or
  // PositionsFrequency for a position past the table Weigh made.
  [[nodiscard]] double TermFrequency(std::span<const uint32_t> positions, uint32_t title_tokens) const {
    if (!positions.empty() && positions.back() >= weights_.size())
      return PositionsFrequency(positions, title_tokens, steps_, options_.title_weight, options_.body_weight);
    double f = 0;
    for (uint32_t p : positions) f += weights_[p];
    return f;
  }

 private:
  // The description sentences' weight as a step function of the position,
  // into steps_.
  void DescriptionSteps(const v1::FetchRecord& record);

  const IndexOptions& options_;
  PageTerms terms_;
  std::vector<std::tuple<uint32_t, uint32_t, double>> regions_;
  // The description weight as a step function of the position: (first
  // position of a step, weight of the sentences covering it), sorted.
  std::vector<std::pair<uint32_t, double>> steps_;
  std::vector<double> scratch_weights_;  // grows only; weights_ is the page's part
  std::span<double> weights_;            // position -> its weight (PositionWeights)
};

}  // namespace crawl::queueserver
