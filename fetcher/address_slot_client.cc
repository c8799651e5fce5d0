// AddressSlotClient (address_slot_client.h).
#include "fetcher/address_slot_client.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/base/metrics.h"
#include "common/crawl/rendezvous.h"

namespace crawl::fetcher {

namespace {

prometheus::Family<prometheus::Counter>& SlotOutcomes() {
  static auto& family = []() -> prometheus::Family<prometheus::Counter>& {
    auto& f = metrics::CounterFamily("crawl_fetcher_address_slots_total",
                                     "Cluster-wide address slots by outcome: granted, refused (the address "
                                     "was full; asked again), unchecked (its queue server could not be "
                                     "asked: granted locally)");
    metrics::AddSeries(f, "outcome", {"granted", "refused", "unchecked"});
    return f;
  }();
  return family;
}

void Count(const char* outcome, double n = 1) { SlotOutcomes().Add({{"outcome", outcome}}).Increment(n); }

}  // namespace

void AddressSlotClient::ExportMetrics() { (void)SlotOutcomes(); }

AddressSlotClient::AddressSlotClient(uint64_t crawl_id, std::string fetcher_id,
                                     std::vector<std::string> server_ids, SlotCall call,
                                     std::chrono::milliseconds fail_open_after,
                                     std::chrono::milliseconds renew_every)
    : crawl_id_(crawl_id),
      fetcher_id_(std::move(fetcher_id)),
      server_ids_(std::move(server_ids)),
      call_(std::move(call)),
      fail_open_after_(fail_open_after),
      renew_every_(renew_every),
      down_until_(std::max<size_t>(server_ids_.size(), 1), Clock::time_point::min()),
      thread_([this] { Loop(); }) {}

AddressSlotClient::~AddressSlotClient() {
  {
    MutexLock lock(mu_);
    stop_ = true;
  }
  cv_.NotifyAll();
  thread_.join();
  // Best effort: the slots go back now rather than when their lease ends.
  std::map<size_t, v1::AddressSlotsRequest> calls;
  std::vector<OnGrant> answer_none;
  {
    MutexLock lock(mu_);
    for (const auto& [ticket, h] : held_) {
      v1::AddressSlot slot;
      slot.set_address(h.address);
      slot.set_ticket(h.server_ticket);
      releases_.push_back(std::move(slot));
    }
    held_.clear();
    for (v1::AddressSlot& r : releases_) *calls[OwnerOf(r.address())].add_release() = std::move(r);
    releases_.clear();
    for (auto& [ticket, w] : waiting_) answer_none.push_back(std::move(w.on_grant));
    waiting_.clear();
    for (OnGrant& g : withdrawn_) answer_none.push_back(std::move(g));
    withdrawn_.clear();
    for (auto& [g, grant] : handed_) answer_none.push_back(std::move(g));
    handed_.clear();
  }
  for (auto& [server, req] : calls) {
    req.set_crawl_id(crawl_id_);
    req.set_fetcher_id(fetcher_id_);
    v1::AddressSlotsResponse resp;
    (void)call_(server, req, &resp);
  }
  for (OnGrant& g : answer_none) g(std::nullopt);
}

size_t AddressSlotClient::OwnerOf(const std::string& address) const {
  return server_ids_.empty() ? 0 : OwnerIndex(server_ids_, address);
}

uint64_t AddressSlotClient::Acquire(const std::string& address, OnGrant on_grant) {
  MutexLock lock(mu_);
  const uint64_t ticket = next_ticket_++;
  const auto now = Clock::now();
  waiting_.emplace(ticket, Wait{address, std::move(on_grant), now, now});
  lock.Unlock();
  cv_.NotifyAll();
  return ticket;
}

void AddressSlotClient::Release(const std::string& address, uint64_t ticket) {
  MutexLock lock(mu_);
  if (auto w = waiting_.find(ticket); w != waiting_.end()) {
    withdrawn_.push_back(std::move(w->second.on_grant));
    waiting_.erase(w);
  } else if (auto h = held_.find(ticket); h != held_.end()) {
    Held slot = std::move(h->second);
    held_.erase(h);
    auto next = std::find_if(waiting_.begin(), waiting_.end(),
                             [&](const auto& w) { return w.second.address == slot.address; });
    if (next != waiting_.end()) {  // passes on within the lane
      AddressGate::Grant grant = slot.grant;
      grant.waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - next->second.asked);
      handed_.emplace_back(std::move(next->second.on_grant), grant);
      held_.emplace(next->first, std::move(slot));
      waiting_.erase(next);
    } else {
      v1::AddressSlot given;
      given.set_address(slot.address);
      given.set_ticket(slot.server_ticket);
      releases_.push_back(std::move(given));
    }
  } else {
    return;
  }
  lock.Unlock();
  cv_.NotifyAll();
}

size_t AddressSlotClient::held() const {
  MutexLock lock(mu_);
  return held_.size();
}

size_t AddressSlotClient::waiting() const {
  MutexLock lock(mu_);
  return waiting_.size();
}

uint64_t AddressSlotClient::wakeups() const {
  MutexLock lock(mu_);
  return wakeups_;
}

bool AddressSlotClient::Due(Clock::time_point now, Clock::time_point* wake) {
  if (!releases_.empty() || !withdrawn_.empty() || !handed_.empty()) return true;
  // Nothing held, nothing to renew: only a waiting acquire (or a Notify)
  // wakes the loop. A renewal time in the past would not do: the wait
  // returned at once, and an idle lane's loop spun on the futex (two such
  // loops took 70% of a core at the end of a soak).
  *wake = held_.empty() ? now + std::chrono::hours(1) : last_renew_ + renew_every_;
  if (!held_.empty() && now >= *wake) return true;
  for (const auto& [ticket, w] : waiting_) {
    if (w.next_try <= now) return true;
    *wake = std::min(*wake, w.next_try);
  }
  return false;
}

void AddressSlotClient::Loop() {
  MutexLock lock(mu_);
  while (!stop_) {
    Clock::time_point wake;
    if (!Due(Clock::now(), &wake)) {
      cv_.WaitUntil(mu_, wake);
      ++wakeups_;
      continue;
    }
    lock.Unlock();
    Round();
    lock.Lock();
  }
}

void AddressSlotClient::Settle(const v1::AddressSlotsRequest& req, const std::vector<uint64_t>& acquires,
                               const v1::AddressSlotsResponse* resp, Clock::time_point now,
                               std::vector<std::pair<OnGrant, Grant>>* granted) {
  for (size_t i = 0; i < acquires.size(); ++i) {
    const uint64_t ticket = acquires[i];
    auto w = waiting_.find(ticket);
    const v1::AddressSlotGrant* g = resp != nullptr ? &resp->acquired(static_cast<int>(i)) : nullptr;
    if (w == waiting_.end()) {  // released while asked: give it back if it came
      if (g != nullptr && g->granted()) releases_.push_back(req.acquire(static_cast<int>(i)));
      continue;
    }
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(now - w->second.asked);
    Grant grant{0, std::chrono::milliseconds(0), waited};
    if (g != nullptr && g->granted()) {
      Count("granted");
      grant = Grant{g->open(), std::chrono::milliseconds(g->pace_ms()), waited};
    } else if (g == nullptr &&
               (waited >= fail_open_after_ || now < down_until_[OwnerOf(w->second.address)])) {
      Count("unchecked");
    } else {
      if (g != nullptr) Count("refused");
      const uint32_t retry = g != nullptr ? std::clamp<uint32_t>(g->retry_ms(), 20, 1'000) : 200;
      w->second.next_try = now + std::chrono::milliseconds(retry);
      continue;
    }
    granted->emplace_back(std::move(w->second.on_grant), grant);
    held_.emplace(ticket, Held{w->second.address, ticket, grant});
    waiting_.erase(w);
  }
}

void AddressSlotClient::Round() {
  struct Call {
    v1::AddressSlotsRequest req;
    std::vector<uint64_t> acquires;  // tickets, in req.acquire() order
    v1::AddressSlotsResponse resp;
    bool ok = false;
  };
  std::map<size_t, Call> calls;
  std::vector<OnGrant> answer_none;
  std::vector<std::pair<OnGrant, Grant>> handed;
  {
    MutexLock lock(mu_);
    const auto now = Clock::now();
    answer_none.swap(withdrawn_);
    handed.swap(handed_);
    for (v1::AddressSlot& r : releases_) *calls[OwnerOf(r.address())].req.add_release() = std::move(r);
    releases_.clear();
    if (now - last_renew_ >= renew_every_) {
      last_renew_ = now;
      for (const auto& [ticket, h] : held_) {
        v1::AddressSlot* slot = calls[OwnerOf(h.address)].req.add_renew();
        slot->set_address(h.address);
        slot->set_ticket(h.server_ticket);
      }
    }
    std::unordered_map<std::string_view, size_t> asked;  // acquires per address this round
    for (auto& [ticket, w] : waiting_) {
      if (w.next_try > now) continue;
      Call& c = calls[OwnerOf(w.address)];
      if (c.req.acquire_size() >= 5'000 || ++asked[w.address] > kAcquiresPerAddress) continue;
      v1::AddressSlot* slot = c.req.add_acquire();
      slot->set_address(w.address);
      slot->set_ticket(ticket);
      c.acquires.push_back(ticket);
    }
  }
  for (OnGrant& g : answer_none) g(std::nullopt);
  for (auto& [on_grant, grant] : handed) on_grant(grant);
  for (auto& [server, c] : calls) {
    // An owner that just failed is not asked again for a while: a call to
    // a server that hangs costs the whole round its deadline.
    if (Clock::now() < down_until_[server]) continue;  // c.ok stays false
    c.req.set_crawl_id(crawl_id_);
    c.req.set_fetcher_id(fetcher_id_);
    const grpc::Status s = call_(server, c.req, &c.resp);
    c.ok = s.ok() && !c.resp.unknown_crawl() && c.resp.acquired_size() == c.req.acquire_size();
    if (!c.ok) {
      down_until_[server] = Clock::now() + kOwnerDownFor;
      spdlog::warn("address slots at queue server {}: {}; its addresses unchecked for {} s",
                   server < server_ids_.size() ? server_ids_[server] : "?",
                   s.ok() ? "it does not know the crawl" : s.error_message(), kOwnerDownFor.count() / 1000);
    }
  }
  std::vector<std::pair<OnGrant, Grant>> granted;
  {
    MutexLock lock(mu_);
    const auto now = Clock::now();
    for (auto& [server, c] : calls) {
      Settle(c.req, c.acquires, c.ok ? &c.resp : nullptr, now, &granted);
    }
  }
  for (auto& [on_grant, grant] : granted) on_grant(grant);
}

}  // namespace crawl::fetcher
