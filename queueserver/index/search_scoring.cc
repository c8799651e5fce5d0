// Score parts of docs/DESIGN.md §8 (search_scoring.h).
#include "queueserver/index/search_scoring.h"

#include <algorithm>
#include <cmath>

namespace crawl::queueserver {

double DocRank(uint64_t docs_after) {
  return docs_after == 0 ? 0.0 : std::log10(static_cast<double>(docs_after));
}

double DfrTerm(double f, double l_t, double n_docs, double l_d, double l_avg) {
  auto positive = [](double x) { return x > 0 ? x : 1.0; };
  l_t = positive(l_t);
  n_docs = positive(n_docs);
  l_d = positive(l_d);
  l_avg = positive(l_avg);
  f = std::max(0.0, f);
  const double f_prime = f * std::log2(1.0 + l_avg / l_d);
  const double base = std::log2(1.0 + l_t / n_docs);
  const double dfr = (base + f_prime * std::log2(1.0 + n_docs / l_t)) / (f_prime + 1.0);
  // For a term with more occurrences than there are documents (l_t > N) the
  // formula falls as f grows (it tends to log2(1 + N/l_t) < base): more
  // occurrences would lower relevance, so a page holding a site-wide word
  // once more, in its title, lost to long pages holding it once. The weight
  // is kept from falling below its f = 0 value; informative terms
  // (l_t <= N), where the formula rises with f, are unchanged.
  return std::max(dfr, base);
}

std::vector<Span> MinimalSpans(const std::vector<std::vector<uint32_t>>& positions) {
  std::vector<Span> spans;
  const size_t k = positions.size();
  if (k == 0) return spans;
  for (const auto& p : positions) {
    if (p.empty()) return spans;
  }
  // Every position tagged with its term, in position order.
  std::vector<std::pair<uint32_t, size_t>> merged;
  for (size_t t = 0; t < k; ++t) {
    for (uint32_t pos : positions[t]) merged.emplace_back(pos, t);
  }
  std::sort(merged.begin(), merged.end());
  // For each right end v, the latest position of each term at or before v;
  // the window [min of those, v] is the shortest one ending at v. It is
  // minimal when its start moved past the previous such window's start
  // (otherwise that window, ending earlier, lies inside it).
  std::vector<int64_t> last(k, -1);
  size_t covered = 0;
  int64_t previous_start = -1;
  for (const auto& [pos, term] : merged) {
    if (last[term] < 0) ++covered;
    last[term] = pos;
    if (covered < k) continue;
    const int64_t start = *std::min_element(last.begin(), last.end());
    if (start > previous_start) {
      spans.push_back({static_cast<uint32_t>(start), pos});
      previous_start = start;
    }
  }
  return spans;
}

double Proximity(const std::vector<std::vector<uint32_t>>& positions, uint32_t doc_length, double weight) {
  const size_t k = positions.size();
  if (k < 2) return 0.0;
  double sum = 0;
  for (const Span& s : MinimalSpans(positions)) sum += 1.0 / static_cast<double>(s.last - s.first + 1);
  const double starts = std::max<double>(1.0, static_cast<double>(doc_length) - static_cast<double>(k) + 1.0);
  return weight * static_cast<double>(k) * sum / starts;
}

double Bonus(const BonusInput& in, const BonusWeights& w) {
  double b = 0;
  if (in.cld_url) {
    b += w.cld_url;
  } else if (in.domain_url) {
    b += w.domain_url;
  }
  auto item = [](double factor, uint32_t matched, uint32_t terms) {
    return terms == 0 ? 0.0 : factor * static_cast<double>(matched) / static_cast<double>(terms);
  };
  b += item(w.host, in.host_matched, in.host_terms);
  // The title's factor grows with the query terms it holds: w.title per
  // matched term, times the share of the title they make up. A title made
  // of the query's k terms earns k * w.title, so it is not outweighed by a
  // long page repeating the words (relevance grows with every query term)
  // nor by a shorter title holding only some of them (j terms of a j-term
  // title: j * w.title).
  b += item(w.title * static_cast<double>(in.title_matched), in.title_matched, in.title_terms);
  b += item(w.path, in.path_matched, in.path_terms);
  return b;
}

double PositionsFrequency(std::span<const uint32_t> positions, uint32_t title_tokens,
                          std::span<const std::pair<uint32_t, double>> steps, double title, double body) {
  // The sum runs position by position, in order, as it always has (a
  // different order of additions could round differently): title positions
  // (they come first), then body positions before the first step (weight
  // 0), under the steps, and past the last one.
  const size_t n = positions.size();
  double f = 0;
  size_t i = 0;
  for (; i < n && positions[i] < title_tokens; ++i) f += title;
  if (!steps.empty()) {
    for (; i < n && positions[i] < steps.front().first; ++i) f += body + 0.0;
    const uint32_t last = steps.back().first;
    size_t step = 0;
    double sentence_weight = 0;
    for (; i < n && positions[i] < last; ++i) {
      for (; steps[step].first <= positions[i]; ++step) sentence_weight = steps[step].second;
      f += body + sentence_weight;
    }
    sentence_weight = steps.back().second;
    for (; i < n; ++i) f += body + sentence_weight;
  }
  for (; i < n; ++i) f += body + 0.0;
  return f;
}

void PositionWeights(uint32_t title_tokens, std::span<const std::pair<uint32_t, double>> steps, double title,
                     double body, std::span<double> weights) {
  // Filled a run at a time (the title, then each stretch between steps),
  // not a pass per position with its step test: this runs for every page.
  const size_t size = weights.size();
  double* const w = weights.data();
  size_t p = std::min<size_t>(title_tokens, size);
  std::fill(w, w + p, title);
  size_t step = 0;
  double sentence_weight = 0;
  while (p < size) {
    for (; step < steps.size() && steps[step].first <= p; ++step) sentence_weight = steps[step].second;
    const size_t next = step < steps.size() ? std::min<size_t>(steps[step].first, size) : size;
    std::fill(w + p, w + next, body + sentence_weight);
    p = next;
  }
}

}  // namespace crawl::queueserver
