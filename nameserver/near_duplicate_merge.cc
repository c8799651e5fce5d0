// Near-duplicate merges of the name server (near_duplicate_merge.h).
#include "nameserver/near_duplicate_merge.h"

#include <algorithm>
#include <unordered_map>

namespace crawl::nameserver {

std::vector<v1::SearchResult> FoldNearDuplicates(std::vector<v1::SearchResult> best_first) {
  std::unordered_map<uint64_t, size_t> by_cluster;
  std::vector<v1::SearchResult> kept;
  kept.reserve(best_first.size());
  for (v1::SearchResult& r : best_first) {
    if (r.link_only()) {
      kept.push_back(std::move(r));
      continue;
    }
    const uint64_t key = r.near_duplicate_cluster() != 0 ? r.near_duplicate_cluster() : r.url_hash();
    auto [it, fresh] = by_cluster.try_emplace(key, kept.size());
    if (fresh) {
      kept.push_back(std::move(r));
      continue;
    }
    v1::SearchResult& lead = kept[it->second];
    lead.set_similar_pages(lead.similar_pages() + 1 + r.similar_pages());
  }
  return kept;
}

std::vector<v1::NearDuplicateCluster> MergeClusters(
    const std::vector<v1::NearDuplicateClustersResponse>& answers, uint32_t limit) {
  std::unordered_map<uint64_t, size_t> at;
  std::vector<v1::NearDuplicateCluster> all;
  for (const v1::NearDuplicateClustersResponse& a : answers) {
    for (const v1::NearDuplicateCluster& c : a.clusters()) {
      auto [it, fresh] = at.try_emplace(c.cluster(), all.size());
      if (fresh) {
        all.push_back(c);
        continue;
      }
      v1::NearDuplicateCluster& m = all[it->second];
      // Both counted the first page: once is enough.
      m.set_pages(m.pages() + (c.pages() > 0 ? c.pages() - 1 : 0));
      if (m.url().empty()) m.set_url(c.url());
      for (const std::string& u : c.sample_urls()) {
        if (m.sample_urls_size() < 5) m.add_sample_urls(u);
      }
    }
  }
  std::sort(all.begin(), all.end(), [](const v1::NearDuplicateCluster& a, const v1::NearDuplicateCluster& b) {
    return a.pages() != b.pages() ? a.pages() > b.pages() : a.cluster() < b.cluster();
  });
  if (all.size() > limit) all.resize(limit);
  return all;
}

}  // namespace crawl::nameserver
