// PageRank by power iteration (Page, Brin, Motwani, Winograd: "The PageRank
// citation ranking", 1999): r' = (1-d)/N + d * (sum over in-links of r(u)/out(u)
// + dangling mass / N), where pages without out-links spread their rank
// uniformly over all N pages. Pure: no I/O.
#pragma once

#include <cstdint>
#include <vector>

namespace crawl::testweb {

struct PageRankOptions {
  double damping = 0.85;
  double tolerance = 1e-9;  // stop when the L1 change of one step is below this
  int max_iterations = 1000;
};

struct PageRankResult {
  std::vector<double> rank;  // sums to 1 (up to rounding)
  int iterations = 0;
  bool converged = false;
};

// `outlinks[u]`: the nodes u links to (indexes < outlinks.size(); duplicates
// count once each time they appear, self-links allowed). An empty graph
// gives an empty result.
[[nodiscard]] PageRankResult PageRank(const std::vector<std::vector<uint32_t>>& outlinks,
                                      const PageRankOptions& options = {});

}  // namespace crawl::testweb
