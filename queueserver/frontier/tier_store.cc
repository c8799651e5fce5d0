#include "queueserver/frontier/tier_store.h"

namespace crawl::queueserver {

void MemoryTierStore::TierPut(int32_t tier, const SeqEntry& e) { tiers_[tier][e.seq] = e.entry; }

void MemoryTierStore::TierErase(int32_t tier, uint64_t seq) {
  auto it = tiers_.find(tier);
  if (it == tiers_.end()) return;
  it->second.erase(seq);
  if (it->second.empty()) tiers_.erase(it);
}

std::vector<SeqEntry> MemoryTierStore::TierRead(int32_t tier, uint64_t after, size_t n) {
  ++reads_;
  std::vector<SeqEntry> out;
  auto it = tiers_.find(tier);
  if (it == tiers_.end()) return out;
  for (auto e = it->second.upper_bound(after); e != it->second.end() && out.size() < n; ++e)
    out.push_back(SeqEntry{e->first, e->second});
  return out;
}

std::map<int32_t, TierStore::TierInfo> MemoryTierStore::TierSummary() {
  std::map<int32_t, TierInfo> out;
  for (const auto& [tier, entries] : tiers_) {
    if (entries.empty()) continue;
    out[tier] = TierInfo{entries.size(), entries.begin()->first, entries.rbegin()->first};
  }
  return out;
}

Status MemoryTierStore::TierScan(const ScanVisitor& visit) const {
  for (const auto& [tier, entries] : tiers_) {
    for (const auto& [seq, entry] : entries)
      if (!visit(tier, SeqEntry{seq, entry})) return Status::Ok();
  }
  return Status::Ok();
}

}  // namespace crawl::queueserver
