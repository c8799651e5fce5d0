// The crawl orders' queues in the store, read and written through a
// ShardBatch so reads see the request's own writes: the opic order's queue
// and visits (OpicStore) and the tiered orders' tier queues and their entry
// counts (TierStore). Internal to queueserver/store/.
//
// Keys: opic 'Q' sort(8, descending) seq(8) -> entry; 'H' hash(8) -> sort(8)
// seq(8); 'V' hash(8) -> credit(8) history(8) (doubles' bits; a recrawl's
// fetched pages). Tiers 'T' tier(4) seq(8) -> entry; 'C' tier(4) -> count(8).
//
// Not thread-safe: part of one ShardWriter, used as it is by one thread at a
// time, under the queue server's service lock (mu_, queueserver/service.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "queueserver/store/queue_store.h"
#include "queueserver/store/shard_batch.h"

namespace crawl::queueserver {

class ShardOrderQueues {
 public:
  // `batch` must outlive the queues.
  explicit ShardOrderQueues(ShardBatch* batch) : batch_(batch) {}

  // OpicStore's and TierStore's calls (ShardWriter forwards them).
  void OpicPut(const OpicKey& key, uint64_t url_hash, const FrontierEntry& e);
  void OpicErase(const OpicKey& key, uint64_t url_hash);
  [[nodiscard]] std::optional<OpicKey> OpicFind(uint64_t url_hash);
  [[nodiscard]] std::optional<FrontierEntry> OpicGet(const OpicKey& key);
  [[nodiscard]] std::vector<std::pair<OpicKey, FrontierEntry>> OpicTop(size_t n);
  [[nodiscard]] std::optional<OpicVisits> OpicVisitsGet(uint64_t url_hash);
  void OpicVisitsPut(uint64_t url_hash, const OpicVisits& v);
  [[nodiscard]] Status OpicScan(const OpicStore::ScanVisitor& visit) const;
  void TierPut(int32_t tier, const SeqEntry& e);
  void TierErase(int32_t tier, uint64_t seq);
  [[nodiscard]] std::vector<SeqEntry> TierRead(int32_t tier, uint64_t after, size_t n);
  [[nodiscard]] std::map<int32_t, TierStore::TierInfo> TierSummary();
  [[nodiscard]] Status TierScan(const TierStore::ScanVisitor& visit) const;

  // Commit's steps: puts the tier counts this request changed and returns
  // them; once the batch is written, Committed(them).
  std::map<int32_t, uint64_t> StageTierCounts();
  void Committed(const std::map<int32_t, uint64_t>& counts);
  // Drops the request's count changes (ShardWriter::Discard).
  void Discard() { tier_delta_.clear(); }

 private:
  std::string OpicQueueKey(const OpicKey& key) const;
  std::string OpicHashKey(uint64_t hash, char kind = 'H') const;
  std::string TierKey(char kind, int32_t tier) const;
  std::string TierEntryKey(int32_t tier, uint64_t seq) const;
  void LoadTierCounts();

  ShardBatch* batch_;
  // Tier entry counts: committed (loaded on first use) and this request's
  // changes.
  std::map<int32_t, uint64_t> tier_counts_;
  bool tier_counts_loaded_ = false;
  std::map<int32_t, int64_t> tier_delta_;
};

}  // namespace crawl::queueserver
