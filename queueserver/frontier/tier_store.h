// Where the bfs and host_budget orders keep their tier FIFOs
// (queueserver/frontier/frontier_order.h, TieredOrder). Every queued page lives here
// (RocksDB in the server: column family "tiers", keyed by tier and sequence
// number); the order holds only a bounded window of each tier's head in RAM
// and reads the next chunk when a window runs dry, as the opic order does
// with its OpicStore.
//
// Reads see the writes made before them, committed or not. Errors of a
// durable store surface at its commit.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "common/base/status.h"
#include "queueserver/frontier/frontier_types.h"

namespace crawl::queueserver {

class TierStore {
 public:
  virtual ~TierStore() = default;
  // Files `e` in `tier` under e.seq. REQUIRES: nothing is filed there yet.
  virtual void TierPut(int32_t tier, const SeqEntry& e) = 0;
  // REQUIRES: an entry is filed under (tier, seq).
  virtual void TierErase(int32_t tier, uint64_t seq) = 0;
  // Up to `n` entries of `tier` with sequence numbers above `after`, ascending.
  [[nodiscard]] virtual std::vector<SeqEntry> TierRead(int32_t tier, uint64_t after, size_t n) = 0;
  struct TierInfo {
    uint64_t count = 0;      // entries filed in the tier
    uint64_t first_seq = 0;  // smallest and largest sequence number
    uint64_t last_seq = 0;
    bool operator==(const TierInfo&) const = default;
  };
  // Every non-empty tier, without reading its entries.
  [[nodiscard]] virtual std::map<int32_t, TierInfo> TierSummary() = 0;
  // Visits every filed entry, tier by tier (lowest first) and in sequence
  // order within a tier, until `visit` returns false. Read-only: changes
  // nothing, not even what a later commit reports. A durable store reads
  // only what was committed (REQUIRES: between requests); its read errors
  // come back here.
  using ScanVisitor = std::function<bool(int32_t tier, const SeqEntry& e)>;
  [[nodiscard]] virtual Status TierScan(const ScanVisitor& visit) const = 0;
};

// A TierStore in RAM (tests, and shards without a store).
class MemoryTierStore final : public TierStore {
 public:
  void TierPut(int32_t tier, const SeqEntry& e) override;
  void TierErase(int32_t tier, uint64_t seq) override;
  [[nodiscard]] std::vector<SeqEntry> TierRead(int32_t tier, uint64_t after, size_t n) override;
  [[nodiscard]] std::map<int32_t, TierInfo> TierSummary() override;
  [[nodiscard]] Status TierScan(const ScanVisitor& visit) const override;
  // Reads so far (tests: the window is refilled in chunks).
  [[nodiscard]] uint64_t reads() const { return reads_; }

 private:
  std::map<int32_t, std::map<uint64_t, FrontierEntry>> tiers_;
  uint64_t reads_ = 0;
};

}  // namespace crawl::queueserver
