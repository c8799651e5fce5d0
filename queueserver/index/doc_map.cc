// Doc map grouping and order (doc_map.h, docs/DESIGN.md §7).
#include "queueserver/index/doc_map.h"

#include <algorithm>
#include <unordered_map>

namespace crawl::queueserver {
namespace {

struct Group {
  uint64_t score = 0;
  uint32_t first = 0;  // earliest member
  std::vector<uint32_t> members;
};

// Groups `members` by key(member), each group's score the sum of score(m);
// returns groups best first.
template <typename Key, typename Score>
std::vector<Group> GroupBy(const std::vector<uint32_t>& members, Key key, Score score) {
  std::unordered_map<uint64_t, size_t> index;
  std::vector<Group> groups;
  for (uint32_t m : members) {
    auto [it, fresh] = index.try_emplace(key(m), groups.size());
    if (fresh) groups.push_back(Group{0, m, {}});
    Group& g = groups[it->second];
    g.score += score(m);
    g.members.push_back(m);
  }
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    return a.score != b.score ? a.score > b.score : a.first < b.first;
  });
  return groups;
}

}  // namespace

std::vector<uint32_t> OrderDocMap(const std::vector<DocMapKey>& docs) {
  const auto n = static_cast<uint64_t>(docs.size());
  std::vector<uint32_t> all(docs.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  auto score = [n](uint32_t m) { return n - m; };
  std::vector<uint32_t> order;
  order.reserve(docs.size());
  for (const Group& by_url : GroupBy(
           all, [&](uint32_t m) { return docs[m].url_hash; }, score)) {
    for (const Group& by_text : GroupBy(
             by_url.members, [&](uint32_t m) { return docs[m].text_hash; }, score)) {
      order.insert(order.end(), by_text.members.begin(), by_text.members.end());
    }
  }
  return order;
}

}  // namespace crawl::queueserver
