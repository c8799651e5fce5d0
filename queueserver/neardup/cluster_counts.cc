// Cluster members of a queue server (cluster_counts.h).
#include "queueserver/neardup/cluster_counts.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/base/hash.h"

namespace crawl::queueserver::neardup {

namespace {

std::string CrawlPrefix(uint64_t crawl_id) {
  std::string k;
  for (int i = 7; i >= 0; --i) k.push_back(static_cast<char>((crawl_id >> (8 * i)) & 0xff));
  k.push_back('c');
  return k;
}

void AppendBe(std::string* k, uint64_t v) {
  for (int i = 7; i >= 0; --i) k->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t ReadBe(std::string_view in, size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(in[at + i]);
  return v;
}

// Larger first, then the lower cluster key.
bool Before(const v1::NearDuplicateCluster& a, const v1::NearDuplicateCluster& b) {
  return a.pages() != b.pages() ? a.pages() > b.pages() : a.cluster() < b.cluster();
}

}  // namespace

Status AddClusterMembers(KvStore& store, uint64_t crawl_id,
                         const google::protobuf::RepeatedPtrField<v1::FetchRecord>& records) {
  std::vector<std::pair<std::string, std::string>> puts;
  for (const v1::FetchRecord& r : records) {
    if (r.near_duplicate_cluster() == 0) continue;
    const uint64_t url_hash = hash::Hash8(r.url());
    if (url_hash == r.near_duplicate_cluster()) continue;  // the first page itself
    std::string key = CrawlPrefix(crawl_id);
    AppendBe(&key, r.near_duplicate_cluster());
    AppendBe(&key, url_hash);
    puts.emplace_back(std::move(key), r.near_duplicate_of() + '\0' + r.url());
  }
  if (puts.empty()) return Status::Ok();
  return store.Put(puts);
}

Status LargestClusters(KvStore& store, uint64_t crawl_id, uint32_t limit,
                       v1::NearDuplicateClustersResponse* resp) {
  const size_t keep = limit == 0 ? kDefaultClusterLimit : std::min(limit, kMaxClusterLimit);
  // A heap of the `keep` largest so far, the smallest on top.
  std::vector<v1::NearDuplicateCluster> heap;
  v1::NearDuplicateCluster current;
  auto flush = [&] {
    if (current.pages() == 0) return;
    heap.push_back(std::move(current));
    std::push_heap(heap.begin(), heap.end(), Before);
    if (heap.size() > keep) {
      std::pop_heap(heap.begin(), heap.end(), Before);
      heap.pop_back();
    }
    current = v1::NearDuplicateCluster();
  };
  Status s = store.Scan(CrawlPrefix(crawl_id), [&](std::string_view k, std::string_view v) {
    if (k.size() != 25) return true;
    const uint64_t cluster = ReadBe(k, 9);
    if (cluster != current.cluster() || current.pages() == 0) {
      flush();
      current.set_cluster(cluster);
      current.set_pages(1);  // the first page
      const size_t nul = v.find('\0');
      current.set_url(std::string(v.substr(0, nul == std::string_view::npos ? v.size() : nul)));
    }
    current.set_pages(current.pages() + 1);
    const size_t nul = v.find('\0');
    if (nul != std::string_view::npos && current.sample_urls_size() < kClusterSampleUrls)
      current.add_sample_urls(std::string(v.substr(nul + 1)));
    return true;
  });
  if (!s.ok()) return s;
  flush();
  std::sort(heap.begin(), heap.end(), Before);
  for (auto& c : heap) *resp->add_clusters() = std::move(c);
  return Status::Ok();
}

Status DeleteClusters(KvStore& store, uint64_t crawl_id) { return store.DeletePrefix(CrawlPrefix(crawl_id)); }

}  // namespace crawl::queueserver::neardup
