// The record of applied batches that makes a retried SubmitResults or AddUrls
// apply once (docs/DESIGN.md §3 step 6), kept bounded (it must not grow with the crawl).
//
// What deduplication needs. A fetcher ships its batches one at a time and
// retries one for at most its ship retry limit (120 s, CrawlWorker::Options
// in fetcher/crawl_worker.h) before it moves on; so a replay of a batch
// arrives within that time of the batch's first attempt. A key therefore has
// to be remembered for at least the retry limit after it was applied, not
// for the whole crawl. This record keeps:
//   - every key applied within the last `window_ms` (30 min: a wide margin
//     over the retry limit; the applied time is stored, so the window holds
//     across a queue server restart);
//   - in any case the `min_kept` most recent keys (a clock step backwards or
//     forwards cannot empty the record);
//   - never more than `max_kept` keys: beyond it the oldest go whatever their
//     age, so memory and the store's `batches` family stay bounded at any
//     rate of batches.
// Forgetting is paced (at most `max_drops_per_add` keys per applied batch) so
// one request's write stays small even when an older store, which kept every
// key of the crawl, brings a backlog.
//
// Pure: no store and no clock of its own (callers pass the time and write
// what Add returns in the same atomic batch as the batch itself). Not
// thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace crawl::queueserver {

// One applied batch as stored: its key, when it was applied and its place in
// the order of application (older stores: 0 and 0, the oldest).
struct AppliedBatch {
  std::string key;
  int64_t applied_ms = 0;
  uint64_t order = 0;
};

class AppliedBatches {
 public:
  struct Limits {
    int64_t window_ms = 30 * 60 * 1000;
    size_t min_kept = 1024;
    size_t max_kept = 200'000;
    size_t max_drops_per_add = 64;
  };

  AppliedBatches() = default;
  explicit AppliedBatches(Limits limits) : limits_(limits) {}

  [[nodiscard]] bool Contains(const std::string& key) const { return keys_.count(key) > 0; }
  // Records `key` as applied at `now_ms` and returns its record; the keys
  // forgotten to keep the bounds are appended to `*dropped`.
  // REQUIRES: !Contains(key).
  AppliedBatch Add(const std::string& key, int64_t now_ms, std::vector<std::string>* dropped);
  // Starts from the stored records (any order). Keys beyond the bounds are
  // forgotten by later Adds, paced as above.
  void Restore(std::vector<AppliedBatch> stored);
  [[nodiscard]] size_t size() const { return keys_.size(); }

  // The stored value of a record: applied_ms(8) order(8), big-endian.
  [[nodiscard]] static std::string EncodeValue(const AppliedBatch& b);
  // Reads `value` into `*b` (an empty value, from older stores, reads as
  // 0 and 0); false when it is neither empty nor 16 bytes.
  [[nodiscard]] static bool DecodeValue(std::string_view value, AppliedBatch* b);

 private:
  Limits limits_;
  std::unordered_set<std::string> keys_;
  std::deque<AppliedBatch> by_age_;  // oldest first; the same keys as keys_
  uint64_t next_order_ = 1;
};

}  // namespace crawl::queueserver
