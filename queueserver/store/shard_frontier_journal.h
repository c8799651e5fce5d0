// The frontier's changes of one request (FrontierJournal, frontier/) as
// records of a ShardBatch: queues, waiting lists, origins, leases and
// structure nodes at once; the order's scalars, the CLD statistics, the new
// URL-seen hashes and the URLs reported done on open leases held until
// Commit stages them (written once each, however often noted). Internal to
// queueserver/store/.
//
// Not thread-safe: part of one ShardWriter, used as it is by one thread at a
// time, under the queue server's service lock (mu_, queueserver/service.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "queueserver/store/queue_store.h"
#include "queueserver/store/shard_batch.h"

namespace crawl::queueserver {

class ShardFrontierJournal {
 public:
  // `batch` must outlive the journal.
  explicit ShardFrontierJournal(ShardBatch* batch) : batch_(batch) {}

  // FrontierJournal's calls (ShardWriter forwards them).
  void Seen(uint64_t url_hash);
  void Queued(QueueKind queue, const SeqEntry& e);
  void Dequeued(QueueKind queue, uint64_t seq);
  void WaitAdded(const std::string& origin, const SeqEntry& e);
  void WaitRemoved(const std::string& origin, uint64_t seq);
  void OriginChanged(const std::string& origin, const OriginRecord& record);
  void LeaseOpened(uint64_t schedule_id, const LeaseRecord& lease, const std::vector<FrontierEntry>& entries);
  void LeaseUrlDone(uint64_t schedule_id, const std::string& url);
  void LeaseClosed(uint64_t schedule_id);
  void CldChanged(const std::string& cld, const CldStats& stats);
  void OrderStateChanged(const std::string& blob);
  void StructureNodeChanged(const StructureNodeRecord& node);

  // Commit's steps: the order state, CLD statistics and URL-seen record
  // into the batch (whether a seen record was put); then the lease done
  // marks; then, once the batch is written, Committed.
  bool StageScalars();
  void StageLeaseDone();
  void Committed(bool wrote_seen);
  // Drops what is held (ShardWriter::Discard).
  void Discard();
  // Changes held (ShardWriter::pending).
  [[nodiscard]] size_t held() const;

 private:
  std::string QueueKey(QueueKind q, uint64_t seq) const;
  std::string WaitKey(const std::string& origin, uint64_t seq) const;
  std::string LeaseKey(uint64_t id, char tag, std::string_view url = {}) const;
  // Puts this batch's new URL-seen hashes as one record under the next
  // seen-record number (read from the store on first use); true if any.
  bool PutSeenRecord();

  ShardBatch* batch_;
  // URLs reported done per open lease, written at Commit unless the lease
  // closes first (its range delete covers them).
  std::map<uint64_t, std::vector<std::string>> lease_done_;
  // The order's scalars and the CLD statistics, written once at Commit
  // (orders note them often).
  std::unordered_map<std::string, CldStats> clds_;
  std::string order_state_;
  bool order_state_set_ = false;
  // New URL-seen hashes of this batch (8 bytes each), one record at Commit
  // under the next seen-record number (read from the store on first use).
  std::string seen_;
  std::optional<uint64_t> next_seen_record_;
};

}  // namespace crawl::queueserver
