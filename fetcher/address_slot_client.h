// The fetcher lane's side of the cluster-wide connection slots per address
// (fetcher/http/address_gate.h; the server side is
// queueserver/politeness/address_slots.h). One thread per lane and crawl
// batches the sessions' requests by owning queue server (rendezvous hash of
// the address over the crawl's servers, common/crawl/rendezvous.h) into
// AddressSlots calls: acquires as they come (a call in flight gathers the
// next ones), refused ones again after the owner's retry_ms, every held slot
// renewed every kRenewEvery, releases with the next call. A slot given
// back while another of the lane's sessions waits for the same address
// passes to it at once, without a call (the owner still counts one slot):
// behind a CDN a lane cycles its hosts through the slots it holds. At most
// kAcquiresPerAddress acquires of one address go in one call.
//
// Fails open: when an owner cannot be reached or does not know the crawl
// (an older queue server, a restart), waiting sessions are granted locally
// after kFailOpenAfter, so a lost queue server slows connections to its
// addresses but never stops the crawl; the per-lane IpConnectionLimiter
// still applies. Every such grant is counted
// (crawl_fetcher_address_slots_total{outcome="unchecked"}).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/base/mutex.h"
#include "fetcher/http/address_gate.h"
#include "proto/crawl.grpc.pb.h"

namespace crawl::fetcher {

class AddressSlotClient final : public AddressGate {
 public:
  // One AddressSlots call to the server at `server_index`.
  using SlotCall = std::function<grpc::Status(size_t server_index, const v1::AddressSlotsRequest&,
                                              v1::AddressSlotsResponse*)>;
  static constexpr std::chrono::milliseconds kRenewEvery{10'000};
  static constexpr std::chrono::milliseconds kFailOpenAfter{2'000};
  static constexpr size_t kAcquiresPerAddress = 4;
  // An owner whose call failed is not asked for this long; its waiting
  // addresses are granted locally meanwhile.
  static constexpr std::chrono::milliseconds kOwnerDownFor{5'000};

  // `server_ids`: the crawl's queue servers in CrawlInfo order.
  AddressSlotClient(uint64_t crawl_id, std::string fetcher_id, std::vector<std::string> server_ids,
                    SlotCall call, std::chrono::milliseconds fail_open_after = kFailOpenAfter,
                    std::chrono::milliseconds renew_every = kRenewEvery);
  // Gives back every held slot (one call per owner, best effort) and
  // answers every waiter with nullopt.
  ~AddressSlotClient() override;

  uint64_t Acquire(const std::string& address, OnGrant on_grant) override EXCLUDES(mu_);
  void Release(const std::string& address, uint64_t ticket) override EXCLUDES(mu_);

  // Slots held and awaited now (tests, status).
  [[nodiscard]] size_t held() const EXCLUDES(mu_);
  [[nodiscard]] size_t waiting() const EXCLUDES(mu_);
  // Times the client's thread woke (tests: an idle client sleeps).
  [[nodiscard]] uint64_t wakeups() const EXCLUDES(mu_);

  // Registers the fetcher's slot metrics at zero (call at start).
  static void ExportMetrics();

 private:
  using Clock = std::chrono::steady_clock;
  struct Wait {
    std::string address;
    OnGrant on_grant;
    Clock::time_point asked;
    Clock::time_point next_try;  // not before (after a refusal)
  };
  struct Held {
    std::string address;
    uint64_t server_ticket = 0;  // the ticket the owner knows the slot by
    AddressGate::Grant grant;    // as last granted
  };
  // One round: a call per owner with its releases, renewals and due
  // acquires. Runs on the thread, without the lock held during calls.
  void Round() EXCLUDES(mu_);
  // Applies one call's answers to its acquires (resp null: the call failed).
  void Settle(const v1::AddressSlotsRequest& req, const std::vector<uint64_t>& acquires,
              const v1::AddressSlotsResponse* resp, Clock::time_point now,
              std::vector<std::pair<OnGrant, Grant>>* granted) REQUIRES(mu_);
  // Whether Round has work now; else when it will.
  bool Due(Clock::time_point now, Clock::time_point* wake) REQUIRES(mu_);
  void Loop() EXCLUDES(mu_);
  size_t OwnerOf(const std::string& address) const;

  const uint64_t crawl_id_;
  const std::string fetcher_id_;
  const std::vector<std::string> server_ids_;
  const SlotCall call_;
  const std::chrono::milliseconds fail_open_after_;
  const std::chrono::milliseconds renew_every_;
  // Per owner: not asked before this (set after a failed call). Read and
  // written by the thread only (Round, Settle).
  std::vector<Clock::time_point> down_until_;

  mutable Mutex mu_;
  CondVar cv_;
  bool stop_ GUARDED_BY(mu_) = false;
  uint64_t next_ticket_ GUARDED_BY(mu_) = 1;
  std::map<uint64_t, Wait> waiting_ GUARDED_BY(mu_);
  std::unordered_map<uint64_t, Held> held_ GUARDED_BY(mu_);
  std::vector<v1::AddressSlot> releases_ GUARDED_BY(mu_);
  // Waits released before their grant: answered nullopt by the thread.
  std::vector<OnGrant> withdrawn_ GUARDED_BY(mu_);
  // Slots passed on by Release: answered by the thread.
  std::vector<std::pair<OnGrant, Grant>> handed_ GUARDED_BY(mu_);
  Clock::time_point last_renew_ GUARDED_BY(mu_) = Clock::now();
  uint64_t wakeups_ GUARDED_BY(mu_) = 0;
  std::thread thread_;
};

}  // namespace crawl::fetcher
