// Ground truth rows; see ground_truth.h.
#include "tests/testweb/ground_truth.h"

#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "tests/testweb/pagerank.h"

namespace crawl::testweb {

std::vector<TruthRow> GroundTruth(const Universe& universe) {
  // URLs get ids at first sight (walked or linked), so each out-link is
  // kept as 4 bytes, not as a string: a million-page walk fits in a few
  // hundred MB. Every linked URL is walked later (Walk lists what it
  // reports), so every id ends up with a row.
  std::vector<TruthRow> rows;
  std::vector<std::vector<uint32_t>> links_by_id;
  std::vector<uint32_t> row_of_id;
  std::unordered_map<std::string, uint32_t> id_of;
  auto id = [&](const std::string& url) {
    auto [it, fresh] = id_of.try_emplace(url, static_cast<uint32_t>(row_of_id.size()));
    if (fresh) {
      row_of_id.push_back(UINT32_MAX);
      links_by_id.emplace_back();
    }
    return it->second;
  };
  universe.Walk([&](const WalkedUrl& w) {
    const uint32_t self = id(w.url);
    row_of_id[self] = static_cast<uint32_t>(rows.size());
    rows.push_back({w.url, w.kind, w.depth, 0});
    std::vector<uint32_t> out;
    out.reserve(w.outlinks.size());
    for (const auto& l : w.outlinks) out.push_back(id(l));
    links_by_id[self] = std::move(out);
  });
  id_of.clear();
  std::vector<std::vector<uint32_t>> graph(rows.size());
  for (size_t i = 0; i < row_of_id.size(); ++i) {
    if (row_of_id[i] == UINT32_MAX) continue;  // cannot happen (see above); skip rather than misindex
    auto& out = graph[row_of_id[i]];
    for (uint32_t target : links_by_id[i]) {
      if (row_of_id[target] != UINT32_MAX) out.push_back(row_of_id[target]);
    }
    std::vector<uint32_t>().swap(links_by_id[i]);
  }
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

std::string FormatVersionRow(const VersionRow& row) {
  std::string line = row.url + '\t' + std::to_string(row.state.status);
  if (row.state.alive()) {
    line += '\t' + std::to_string(row.state.version) + '\t' + row.etag + '\t' +
            std::to_string(static_cast<int64_t>(std::floor(row.state.last_modified))) + '\t' + row.digest;
  } else {
    line += "\t-\t-\t-\t-";
  }
  line += '\n';
  return line;
}

void WriteVersions(const Universe& universe, double t, std::ostream& out) {
  universe.ExportVersionsTo([&out](const VersionRow& row) { out << FormatVersionRow(row); }, t);
}

}  // namespace crawl::testweb
