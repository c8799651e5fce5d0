// Cluster-wide connection slots per IP address (docs/ARCHITECTURE.md
// "Politeness per address and pacing"). Hosts are partitioned over queue
// servers by host name, but many hosts share one address (shared hosting,
// CDNs) and their owners differ, so no host owner can count an address's
// connections. Each address is owned instead by the queue server its text
// hashes to (common/crawl/rendezvous.h over the crawl's servers): fetcher
// lanes take a slot there before connecting to the address, renew it while
// the connection stays open, and give it back when it closes. This table is
// that owner's bookkeeping: at most `limit` holders per address, each slot a
// lease that ends `kSlotLeaseMs` after its last renewal, so a fetcher that
// dies loses its slots within half a minute.
//
// Bounded: at most kMaxHolders slots and kMaxAddresses addresses (empty
// ones are dropped first); past that, acquires are refused like a full
// address. In memory only: a restarted owner starts empty and re-grants
// renewals while there is room (for up to one lease the count may then
// exceed the limit). Thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/mutex.h"
#include "proto/crawl.pb.h"

namespace crawl::queueserver {

inline constexpr uint32_t kSlotLeaseMs = 30'000;
inline constexpr uint32_t kSlotRetryMs = 50;
inline constexpr size_t kMaxHolders = 1'000'000;
inline constexpr size_t kMaxAddresses = 200'000;
inline constexpr size_t kMaxSlotRequestEntries = 10'000;
inline constexpr size_t kMaxAddressChars = 255;  // an IP, or a host name when a proxy resolves it
inline constexpr size_t kMaxHolderChars = 256;

class AddressSlotTable {
 public:
  struct Limits {
    uint32_t max_per_address = 4;
    uint32_t gap_ms = 0;  // per-address pace: each connection waits gap x open
  };

  // Applies one request (releases, then renewals, then acquires) at
  // `now_ms` (a steady clock) under `limits`; fills `resp` (not
  // unknown_crawl). REQUIRES: the request passed CheckRequest.
  void Apply(const v1::AddressSlotsRequest& req, Limits limits, int64_t now_ms,
             v1::AddressSlotsResponse* resp) EXCLUDES(mu_);
  // The addresses asked about, or the `limit` with most slots open.
  void Status(const v1::AddressStatusRequest& req, Limits limits, int64_t now_ms,
              v1::AddressStatusResponse* resp) EXCLUDES(mu_);
  // Forgets everything (a new crawl, or the crawl deleted).
  void Clear() EXCLUDES(mu_);
  // Slots held now and acquires refused so far (metrics).
  [[nodiscard]] size_t open() const EXCLUDES(mu_);
  [[nodiscard]] uint64_t refused() const EXCLUDES(mu_);

  // "" if `req` is well formed, else why not (sizes, empty names).
  [[nodiscard]] static std::string CheckRequest(const v1::AddressSlotsRequest& req);

 private:
  struct Holder {
    std::string fetcher_id;
    uint64_t ticket = 0;
    int64_t expires_ms = 0;
  };
  struct Address {
    std::vector<Holder> holders;
    uint64_t refused = 0;
  };

  // Drops the address's expired holders.
  void Expire(Address& a, int64_t now_ms) REQUIRES(mu_);
  Holder* Find(Address& a, const std::string& fetcher_id, uint64_t ticket) REQUIRES(mu_);
  // Holds (or renews) the slot if there is room; fills `grant`.
  void Take(const std::string& fetcher_id, const v1::AddressSlot& slot, Limits limits, int64_t now_ms,
            v1::AddressSlotGrant* grant) REQUIRES(mu_);
  void Give(const std::string& fetcher_id, const v1::AddressSlot& slot) REQUIRES(mu_);
  // Removes addresses without holders when the map is full.
  void SweepEmpty(int64_t now_ms) REQUIRES(mu_);
  // One address's line of a status answer.
  void FillStatus(const std::string& name, Address& a, Limits limits, int64_t now_ms,
                  v1::AddressStatusResponse* resp) REQUIRES(mu_);

  mutable Mutex mu_;
  std::unordered_map<std::string, Address> addresses_ GUARDED_BY(mu_);
  size_t holders_ GUARDED_BY(mu_) = 0;
  uint64_t refused_ GUARDED_BY(mu_) = 0;
};

}  // namespace crawl::queueserver
