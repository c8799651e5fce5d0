// AddressSlotTable (address_slots.h).
#include "queueserver/politeness/address_slots.h"

#include <algorithm>
#include <utility>

namespace crawl::queueserver {

namespace {

uint32_t PaceOf(AddressSlotTable::Limits limits, size_t open) {
  const uint64_t pace = static_cast<uint64_t>(limits.gap_ms) * std::max<size_t>(open, 1);
  return static_cast<uint32_t>(std::min<uint64_t>(pace, UINT32_MAX));
}

}  // namespace

std::string AddressSlotTable::CheckRequest(const v1::AddressSlotsRequest& req) {
  if (req.fetcher_id().empty()) return "fetcher_id missing";
  if (req.fetcher_id().size() > kMaxHolderChars) return "fetcher_id longer than 256 characters";
  const size_t entries = static_cast<size_t>(req.acquire_size()) + static_cast<size_t>(req.renew_size()) +
                         static_cast<size_t>(req.release_size());
  if (entries > kMaxSlotRequestEntries) return "more than 10000 slots in one request";
  for (const auto* list : {&req.acquire(), &req.renew(), &req.release()}) {
    for (const v1::AddressSlot& s : *list) {
      if (s.address().empty()) return "a slot without an address";
      if (s.address().size() > kMaxAddressChars) return "an address longer than 255 characters";
    }
  }
  return "";
}

void AddressSlotTable::Expire(Address& a, int64_t now_ms) {
  const auto gone = std::remove_if(a.holders.begin(), a.holders.end(),
                                   [now_ms](const Holder& h) { return h.expires_ms <= now_ms; });
  holders_ -= static_cast<size_t>(a.holders.end() - gone);
  a.holders.erase(gone, a.holders.end());
}

AddressSlotTable::Holder* AddressSlotTable::Find(Address& a, const std::string& fetcher_id, uint64_t ticket) {
  for (Holder& h : a.holders)
    if (h.ticket == ticket && h.fetcher_id == fetcher_id) return &h;
  return nullptr;
}

void AddressSlotTable::SweepEmpty(int64_t now_ms) {
  for (auto it = addresses_.begin(); it != addresses_.end();) {
    Expire(it->second, now_ms);
    it = it->second.holders.empty() ? addresses_.erase(it) : std::next(it);
  }
}

void AddressSlotTable::Take(const std::string& fetcher_id, const v1::AddressSlot& slot, Limits limits,
                            int64_t now_ms, v1::AddressSlotGrant* grant) {
  grant->set_address(slot.address());
  grant->set_ticket(slot.ticket());
  auto it = addresses_.find(slot.address());
  if (it == addresses_.end()) {
    if (addresses_.size() >= kMaxAddresses) SweepEmpty(now_ms);
    if (addresses_.size() < kMaxAddresses) it = addresses_.emplace(slot.address(), Address{}).first;
  }
  if (it == addresses_.end()) {  // every address busy: refused like a full one
    ++refused_;
    grant->set_retry_ms(kSlotRetryMs);
    return;
  }
  Address& a = it->second;
  Expire(a, now_ms);
  const int64_t expires = now_ms + kSlotLeaseMs;
  if (Holder* h = Find(a, fetcher_id, slot.ticket())) {
    h->expires_ms = expires;
    grant->set_granted(true);
  } else if (a.holders.size() < limits.max_per_address && holders_ < kMaxHolders) {
    a.holders.push_back(Holder{fetcher_id, slot.ticket(), expires});
    ++holders_;
    grant->set_granted(true);
  } else {
    ++a.refused;
    ++refused_;
    grant->set_retry_ms(kSlotRetryMs);
  }
  grant->set_open(static_cast<uint32_t>(a.holders.size()));
  grant->set_pace_ms(PaceOf(limits, a.holders.size()));
  if (a.holders.empty() && a.refused == 0) addresses_.erase(it);
}

void AddressSlotTable::Give(const std::string& fetcher_id, const v1::AddressSlot& slot) {
  auto it = addresses_.find(slot.address());
  if (it == addresses_.end()) return;
  Address& a = it->second;
  if (Holder* h = Find(a, fetcher_id, slot.ticket())) {
    *h = std::move(a.holders.back());
    a.holders.pop_back();
    --holders_;
  }
  if (a.holders.empty() && a.refused == 0) addresses_.erase(it);
}

void AddressSlotTable::Apply(const v1::AddressSlotsRequest& req, Limits limits, int64_t now_ms,
                             v1::AddressSlotsResponse* resp) {
  MutexLock lock(mu_);
  for (const v1::AddressSlot& s : req.release()) Give(req.fetcher_id(), s);
  // A renewal of a slot this server no longer has (expired, or the server
  // restarted) takes it again if there is room.
  for (const v1::AddressSlot& s : req.renew()) Take(req.fetcher_id(), s, limits, now_ms, resp->add_renewed());
  for (const v1::AddressSlot& s : req.acquire())
    Take(req.fetcher_id(), s, limits, now_ms, resp->add_acquired());
  resp->set_lease_ms(kSlotLeaseMs);
}

void AddressSlotTable::FillStatus(const std::string& name, Address& a, Limits limits, int64_t now_ms,
                                  v1::AddressStatusResponse* resp) {
  Expire(a, now_ms);
  v1::AddressStatusResponse::Address* out = resp->add_addresses();
  out->set_address(name);
  out->set_open(static_cast<uint32_t>(a.holders.size()));
  for (const Holder& h : a.holders) out->add_holders(h.fetcher_id);
  out->set_refused(a.refused);
  out->set_pace_ms(PaceOf(limits, a.holders.size()));
}

void AddressSlotTable::Status(const v1::AddressStatusRequest& req, Limits limits, int64_t now_ms,
                              v1::AddressStatusResponse* resp) {
  MutexLock lock(mu_);
  resp->set_max_connections_per_address(limits.max_per_address);
  if (req.addresses_size() > 0) {
    for (const std::string& name : req.addresses()) {
      if (resp->addresses_size() >= 1000) break;
      auto it = addresses_.find(name);
      Address none;
      FillStatus(name, it == addresses_.end() ? none : it->second, limits, now_ms, resp);
    }
    return;
  }
  const size_t limit = req.limit() == 0 ? 20 : std::min<size_t>(req.limit(), 1000);
  std::vector<std::pair<size_t, const std::string*>> busiest;
  for (auto& [name, a] : addresses_) {
    Expire(a, now_ms);
    if (!a.holders.empty()) busiest.emplace_back(a.holders.size(), &name);
  }
  const size_t n = std::min(limit, busiest.size());
  std::partial_sort(busiest.begin(), busiest.begin() + static_cast<ptrdiff_t>(n), busiest.end(),
                    [](const auto& x, const auto& y) {
                      return x.first != y.first ? x.first > y.first : *x.second < *y.second;
                    });
  for (size_t i = 0; i < n; ++i)
    FillStatus(*busiest[i].second, addresses_[*busiest[i].second], limits, now_ms, resp);
}

void AddressSlotTable::Clear() {
  MutexLock lock(mu_);
  addresses_.clear();
  holders_ = 0;
  refused_ = 0;
}

size_t AddressSlotTable::open() const {
  MutexLock lock(mu_);
  return holders_;
}

uint64_t AddressSlotTable::refused() const {
  MutexLock lock(mu_);
  return refused_;
}

}  // namespace crawl::queueserver
