// The URL-seen set of one crawl (docs/DESIGN.md §5), for
// billions of URLs: exact membership of 8-byte URL hashes (common/base/hash.h Hash8 of the
// canonical URL) in about 8 bytes of RAM per URL.
//
// Why not a Bloom filter: a false positive drops a new page for ever. Why
// not RocksDB lookups per link: most links on a page were seen before, so
// every check would touch the LSM tree; IRLbot's DRUM avoids that by
// checking in sorted batches against a sorted file. Here the sorted file is
// in RAM, compactly: the hash space is cut into 2^16 segments by the top 16
// bits, each a sorted array of full 8-byte hashes, looked up by
// interpolation (the hashes are uniform). New hashes go to a small
// open-addressing table (the DRUM bucket); when it holds 1/64 of the set it
// is sorted and merged into the segments one segment at a time, so the
// merge never needs a second copy of the whole set. RocksDB's `seen` column
// family stays the durable copy (queueserver/store/queue_store.h); Restore()
// bulk-loads it after a restart.
//
// Exactness: two URLs with the same 8-byte hash count as one, so a new URL
// is wrongly taken as seen with probability n / 2^64 when n URLs are in the
// set (5.4e-11 at n = 10^9), and a crawl of 10^9 URLs has about
// n^2 / 2^65 = 0.027 colliding pairs in all.
//
// Memory: 8 bytes per hash in the segments, at most 1/64 * 16 bytes per
// hash in the table, and 1.5 MiB of segment headers: MemoryBytes() reports
// it. Not thread-safe: the owner serialises calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace crawl::queueserver {

// The set's key of a canonical URL: exactly hash::Hash8 (common/base/hash.h, MD5
// folded to 8 bytes), so stores written before stay valid; by
// hash::RecurringHash8, which remembers the URLs a thread met last (links
// to a site's navigation pages come with every page, and MD5 of each is
// costly). Thread-safe.
[[nodiscard]] uint64_t UrlKey(std::string_view url);

class UrlSeenSet {
 public:
  UrlSeenSet();
  UrlSeenSet(const UrlSeenSet&) = delete;
  UrlSeenSet& operator=(const UrlSeenSet&) = delete;
  // A moved-from set may only be destroyed or assigned to.
  UrlSeenSet(UrlSeenSet&&) = default;
  UrlSeenSet& operator=(UrlSeenSet&&) = default;

  // Adds `hash`; true when it was not in the set before.
  bool Insert(uint64_t hash);

  // Batch form (DRUM's check-and-update): `is_new[i]` tells whether
  // hashes[i] was new, counting earlier entries of the same batch as seen.
  // REQUIRES: is_new.size() == hashes.size().
  void InsertBatch(std::span<const uint64_t> hashes, std::span<uint8_t> is_new);

  [[nodiscard]] bool Contains(uint64_t hash) const;

  // Replaces the content with `hashes` (any order, duplicates allowed).
  void Restore(std::vector<uint64_t> hashes);

  // Replaces the content with the hashes `scan` yields (any order,
  // duplicates allowed), in the memory of the finished set: `scan` runs
  // twice, once to size each segment and once to fill it, so no copy of
  // every hash is held (Restore's vector was as large as the set).
  // `scan(visit)` calls visit for every hash and returns false on failure.
  // Returns false, leaving the set empty, when a scan fails or the two
  // scans disagree.
  using HashScan = std::function<bool(const std::function<void(uint64_t)>&)>;
  [[nodiscard]] bool RestoreFromScan(const HashScan& scan);

  [[nodiscard]] size_t size() const { return sorted_count_ + pending_count_; }
  // Heap bytes held (segments, pending table, headers).
  [[nodiscard]] size_t MemoryBytes() const;

  // Copies every hash into `out` (unordered); for tests and snapshots.
  void ForEach(const std::function<void(uint64_t)>& fn) const;

 private:
  static constexpr int kSegmentBits = 16;
  static constexpr size_t kSegments = size_t{1} << kSegmentBits;

  struct Segment {
    std::unique_ptr<uint64_t[]> keys;  // sorted, exactly `size` long
    uint32_t size = 0;
  };

  [[nodiscard]] bool InSegments(uint64_t hash) const;
  [[nodiscard]] bool InPending(uint64_t hash) const;
  // Adds to the pending table. REQUIRES: hash is in neither part.
  void AddPending(uint64_t hash);
  void GrowPending();
  // Moves every pending hash into the segments.
  void MergePending();
  [[nodiscard]] size_t PendingLimit() const;

  std::vector<Segment> segments_;
  size_t sorted_count_ = 0;
  // Open addressing with linear probing; 0 marks an empty slot, so the hash
  // 0 itself is kept in `pending_has_zero_`.
  std::vector<uint64_t> pending_;
  size_t pending_count_ = 0;
  bool pending_has_zero_ = false;
};

}  // namespace crawl::queueserver
