// The block tables of near-duplicate detection (Manku, Jain, Das Sarma,
// "Detecting near-duplicates for web crawling", WWW 2007; docs/ARCHITECTURE.md
// "Near-duplicates"): a 64-bit fingerprint is cut into kFingerprintTables
// blocks of 16 bits; two fingerprints within kMaxFingerprintDistance bits
// agree exactly on at least one block (pigeonhole), so table t, keyed by
// block t, finds every match by looking in one bucket. Bucket (t, block) is
// owned by one queue server of the crawl, chosen by rendezvous hashing
// (common/crawl/rendezvous.h), so fetchers and queue servers agree.
//
// Pure, reentrant.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace crawl {

inline constexpr uint32_t kFingerprintTables = 4;
inline constexpr uint32_t kMaxFingerprintDistance = kFingerprintTables - 1;
// CrawlParams.near_duplicate_bits 0 means this.
inline constexpr uint32_t kDefaultFingerprintDistance = 3;

// Block `table` (0..3) of `fingerprint`: bits 16*table .. 16*table+15.
[[nodiscard]] constexpr uint16_t FingerprintBlock(uint64_t fingerprint, uint32_t table) {
  return static_cast<uint16_t>(fingerprint >> (16 * table));
}

// Bits in which two fingerprints differ.
[[nodiscard]] constexpr uint32_t FingerprintDistance(uint64_t a, uint64_t b) {
  return static_cast<uint32_t>(std::popcount(a ^ b));
}

// The crawl's distance from CrawlParams.near_duplicate_bits: 0 means the
// default, more than kMaxFingerprintDistance is capped to it.
[[nodiscard]] uint32_t EffectiveFingerprintDistance(uint32_t near_duplicate_bits);

// Index in `server_ids` of the queue server owning bucket (table, block):
// OwnerIndex of "fp/<table>/<block>". REQUIRES: !server_ids.empty().
[[nodiscard]] size_t FingerprintBucketOwner(const std::vector<std::string>& server_ids, uint32_t table,
                                            uint16_t block);

}  // namespace crawl
