#include "common/crawl/rendezvous.h"

#include "common/base/hash.h"

namespace crawl {

size_t OwnerIndex(const std::vector<std::string>& server_ids, std::string_view host) {
  size_t best = 0;
  uint64_t best_weight = 0;
  std::string key;
  for (size_t i = 0; i < server_ids.size(); ++i) {
    key.assign(server_ids[i]);
    key.push_back('\n');
    key.append(host);
    const uint64_t w = hash::Hash8(key);
    if (i == 0 || w > best_weight) {
      best = i;
      best_weight = w;
    }
  }
  return best;
}

}  // namespace crawl
