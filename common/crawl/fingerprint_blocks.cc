// Block tables of near-duplicate detection (fingerprint_blocks.h).
#include "common/crawl/fingerprint_blocks.h"

#include <algorithm>

#include "common/crawl/rendezvous.h"

namespace crawl {

uint32_t EffectiveFingerprintDistance(uint32_t near_duplicate_bits) {
  if (near_duplicate_bits == 0) return kDefaultFingerprintDistance;
  return std::min(near_duplicate_bits, kMaxFingerprintDistance);
}

size_t FingerprintBucketOwner(const std::vector<std::string>& server_ids, uint32_t table, uint16_t block) {
  std::string key = "fp/";
  key += std::to_string(table);
  key += '/';
  key += std::to_string(block);
  return OwnerIndex(server_ids, key);
}

}  // namespace crawl
