// The score of a search result, part by part, exactly as docs/DESIGN.md §8
// defines it (after Yioop): score = doc rank + bonuses + relevance (DFR) +
// proximity. Pure functions; every result reports each part.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace crawl::queueserver {

// Doc rank of a document with `docs_after` documents after it: later in its
// partition's doc map, plus every document of the later partitions
// (docs/DESIGN.md §7 and Yioop's DOC_RANK: log10(number of documents after)). The
// last document (0 after) gets 0 rather than -infinity.
[[nodiscard]] double DocRank(uint64_t docs_after);

// A term's region-weighted frequency f in a page (docs/DESIGN.md §6-7) from its
// positions (ascending): `title` for each position in the title (below
// title_tokens), else `body` plus the weight of the description sentences
// covering the position. `steps` is that weight as a step function:
// (position, weight from there on), positions ascending, weight 0 before
// the first.
[[nodiscard]] double PositionsFrequency(std::span<const uint32_t> positions, uint32_t title_tokens,
                                        std::span<const std::pair<uint32_t, double>> steps, double title,
                                        double body);

// What PositionsFrequency adds for each position below weights.size(), so
// that a term's f is the sum of weights[p] over its positions, in order (the
// same additions of the same values: the same f to the last bit).
void PositionWeights(uint32_t title_tokens, std::span<const std::pair<uint32_t, double>> steps, double title,
                     double body, std::span<double> weights);

// One query term's DFR relevance (docs/DESIGN.md §8, Amati and van Rijsbergen's
// divergence from randomness with normalisation 2, as Yioop uses it):
//   (log2(1 + l_t/N) + f' log2(1 + N/l_t)) / (f' + 1),
//   f' = f log2(1 + l_avg/l_d)
// f: region-weighted frequency of the term in the document; l_t: the term's
// occurrences in the whole index; n_docs: documents in the index; l_d, l_avg:
// the document's length and the average length (in tokens). The logarithm of
// f' is taken base 2 as in normalisation 2. Inputs <= 0 are treated as 1
// (l_t, N, l_d, l_avg) so bad statistics never give NaN. The result is at
// least log2(1 + l_t/N), the formula's value at f = 0: for l_t > N the
// formula falls as f grows, and more occurrences must not lower relevance.
[[nodiscard]] double DfrTerm(double f, double l_t, double n_docs, double l_d, double l_avg);

// A span [first, last] of positions that holds every query term.
struct Span {
  uint32_t first = 0;
  uint32_t last = 0;
  bool operator==(const Span&) const = default;
};

// Minimal spans (docs/DESIGN.md §8): windows [u, v] holding at least one position
// of every term such that no smaller window inside them does. One vector of
// ascending positions per distinct query term; empty when a term has none.
[[nodiscard]] std::vector<Span> MinimalSpans(const std::vector<std::vector<uint32_t>>& positions);

// Proximity (docs/DESIGN.md §8) for two or more terms (0 for fewer):
//   weight * terms * sum over minimal spans of 1/(v - u + 1)
//          / (positions where a span could start = max(1, l_d - terms + 1)).
[[nodiscard]] double Proximity(const std::vector<std::vector<uint32_t>>& positions, uint32_t doc_length,
                               double weight);

// What the bonuses look at (docs/DESIGN.md §8: "domain-name URL 0.5, CLD URL 2;
// query terms in host, title, path: factor * matched / terms in that item").
struct BonusInput {
  bool domain_url = false;  // the URL is a host's root: scheme://host/
  bool cld_url = false;     // ... and the host is its company level domain (or www. + it)
  // For each item: query terms found in it, and the item's terms.
  uint32_t host_matched = 0, host_terms = 0;
  uint32_t title_matched = 0, title_terms = 0;
  uint32_t path_matched = 0, path_terms = 0;
};

struct BonusWeights {
  double domain_url = 0.5;
  double cld_url = 2.0;
  double host = 1.0;
  double title = 2.0;
  double path = 1.0;
};

// CLD URL earns 2 (and not also the 0.5 of a domain-name URL); each item
// earns factor * matched / terms (0 when it has no terms). The factor is the
// weight for host and path, and weight * matched for the title (the title
// bonus is title * matched^2 / title terms): a title holding all k query
// terms earns k * title, growing with the query as relevance does.
[[nodiscard]] double Bonus(const BonusInput& in, const BonusWeights& w);

}  // namespace crawl::queueserver
