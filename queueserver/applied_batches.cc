// The bounded record of applied batches (applied_batches.h).
#include "queueserver/applied_batches.h"

#include <algorithm>
#include <tuple>

namespace crawl::queueserver {
namespace {

void PutU64(std::string* out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>((v >> shift) & 0xff));
}

uint64_t ReadU64(std::string_view s) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(s[i]);
  return v;
}

}  // namespace

AppliedBatch AppliedBatches::Add(const std::string& key, int64_t now_ms, std::vector<std::string>* dropped) {
  AppliedBatch added{key, now_ms, next_order_++};
  keys_.insert(key);
  by_age_.push_back(added);
  size_t drops = 0;
  while (drops < limits_.max_drops_per_add && !by_age_.empty()) {
    const AppliedBatch& oldest = by_age_.front();
    const bool over_cap = by_age_.size() > limits_.max_kept;
    const bool expired = by_age_.size() > limits_.min_kept && oldest.applied_ms + limits_.window_ms < now_ms;
    if (!over_cap && !expired) break;
    keys_.erase(oldest.key);
    dropped->push_back(oldest.key);
    by_age_.pop_front();
    ++drops;
  }
  return added;
}

void AppliedBatches::Restore(std::vector<AppliedBatch> stored) {
  std::sort(stored.begin(), stored.end(), [](const AppliedBatch& a, const AppliedBatch& b) {
    return std::tie(a.order, a.applied_ms, a.key) < std::tie(b.order, b.applied_ms, b.key);
  });
  keys_.clear();
  by_age_.clear();
  next_order_ = 1;
  for (AppliedBatch& b : stored) {
    if (!keys_.insert(b.key).second) continue;
    next_order_ = std::max(next_order_, b.order + 1);
    by_age_.push_back(std::move(b));
  }
}

std::string AppliedBatches::EncodeValue(const AppliedBatch& b) {
  std::string v;
  PutU64(&v, static_cast<uint64_t>(b.applied_ms));
  PutU64(&v, b.order);
  return v;
}

bool AppliedBatches::DecodeValue(std::string_view value, AppliedBatch* b) {
  if (value.empty()) {
    b->applied_ms = 0;
    b->order = 0;
    return true;
  }
  if (value.size() != 16) return false;
  b->applied_ms = static_cast<int64_t>(ReadU64(value.substr(0, 8)));
  b->order = ReadU64(value.substr(8, 8));
  return true;
}

}  // namespace crawl::queueserver
