// Ground truth rows; see ground_truth.h.
#include "tests/testweb/ground_truth.h"

#include <cstdio>
#include <unordered_map>

#include "tests/testweb/pagerank.h"

namespace crawl::testweb {

std::vector<TruthRow> GroundTruth(const Universe& universe) {
  std::vector<TruthRow> rows;
  std::vector<std::vector<std::string>> links;
  std::unordered_map<std::string, uint32_t> index;
  universe.Walk([&](const WalkedUrl& w) {
    index.emplace(w.url, static_cast<uint32_t>(rows.size()));
    rows.push_back({w.url, w.kind, w.depth, 0});
    links.push_back(w.outlinks);
  });
  std::vector<std::vector<uint32_t>> graph(rows.size());
  for (size_t u = 0; u < rows.size(); ++u) {
    for (const auto& l : links[u]) {
      // Walk lists every out-link it reports, so the lookup always succeeds.
      if (auto it = index.find(l); it != index.end()) graph[u].push_back(it->second);
    }
  }
  links.clear();
  const PageRankResult pr = PageRank(graph);
  for (size_t u = 0; u < rows.size(); ++u) rows[u].pagerank = pr.rank[u];
  return rows;
}

void WriteTruth(const std::vector<TruthRow>& rows, std::ostream& out) {
  char rank[40];
  for (const auto& r : rows) {
    std::snprintf(rank, sizeof rank, "%.17g", r.pagerank);
    out << r.url << '\t' << r.kind << '\t' << r.depth << '\t' << rank << '\n';
  }
}

}  // namespace crawl::testweb
