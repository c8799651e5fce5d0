// Power iteration; see pagerank.h.
#include "tests/testweb/pagerank.h"

#include <algorithm>
#include <cmath>

namespace crawl::testweb {

PageRankResult PageRank(const std::vector<std::vector<uint32_t>>& outlinks, const PageRankOptions& options) {
  PageRankResult result;
  const size_t n = outlinks.size();
  if (n == 0) {
    result.converged = true;
    return result;
  }
  const double d = options.damping;
  std::vector<double> rank(n, 1.0 / static_cast<double>(n)), next(n);
  for (int it = 0; it < options.max_iterations; ++it) {
    double dangling = 0;
    for (size_t u = 0; u < n; ++u) {
      if (outlinks[u].empty()) dangling += rank[u];
    }
    const double base = (1.0 - d) / static_cast<double>(n) + d * dangling / static_cast<double>(n);
    std::fill(next.begin(), next.end(), base);
    for (size_t u = 0; u < n; ++u) {
      if (outlinks[u].empty()) continue;
      const double share = d * rank[u] / static_cast<double>(outlinks[u].size());
      for (uint32_t v : outlinks[u]) next[v] += share;
    }
    // Renormalise against rounding drift, so the ranks sum to 1.
    double sum = 0;
    for (double x : next) sum += x;
    double change = 0;
    for (size_t u = 0; u < n; ++u) {
      next[u] /= sum;
      change += std::fabs(next[u] - rank[u]);
    }
    rank.swap(next);
    result.iterations = it + 1;
    if (change < options.tolerance) {
      result.converged = true;
      break;
    }
  }
  result.rank = std::move(rank);
  return result;
}

}  // namespace crawl::testweb
