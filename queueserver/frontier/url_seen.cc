// See url_seen.h for the design and its error odds.
#include "queueserver/frontier/url_seen.h"

#include <algorithm>

#include "common/base/hash.h"

namespace crawl::queueserver {
namespace {

constexpr size_t kMinPendingSlots = size_t{1} << 17;
constexpr int kLowBits = 64 - 16;  // bits below the segment number

size_t SegmentOf(uint64_t hash) { return static_cast<size_t>(hash >> kLowBits); }

// Fibonacci hashing spreads the (already uniform) hash over the table; it
// also keeps a slot independent of the segment number.
size_t SlotOf(uint64_t hash, size_t mask) {
  return static_cast<size_t>((hash * 0x9E3779B97F4A7C15ULL) >> 20) & mask;
}

}  // namespace

uint64_t UrlKey(std::string_view url) { return hash::RecurringHash8(url); }

UrlSeenSet::UrlSeenSet() : segments_(kSegments), pending_(kMinPendingSlots, 0) {}

size_t UrlSeenSet::PendingLimit() const { return std::max(kMinPendingSlots / 2, sorted_count_ / 64); }

bool UrlSeenSet::InSegments(uint64_t hash) const {
  const Segment& seg = segments_[SegmentOf(hash)];
  if (seg.size == 0) return false;
  const uint64_t* keys = seg.keys.get();
  // Interpolation: the low bits are uniform, so the hash sits near
  // low/2^48 of the way through the segment; look in a window around that
  // first and fall back to the whole segment when the window misses.
  const uint64_t low = hash & ((uint64_t{1} << kLowBits) - 1);
  const size_t guess = static_cast<size_t>(((low >> 16) * seg.size) >> 32);
  constexpr size_t kWindow = 32;
  size_t lo = guess > kWindow ? guess - kWindow : 0;
  size_t hi = std::min<size_t>(seg.size, guess + kWindow + 1);
  if (keys[lo] > hash || keys[hi - 1] < hash) {
    lo = 0;
    hi = seg.size;
  }
  const uint64_t* it = std::lower_bound(keys + lo, keys + hi, hash);
  return it != keys + hi && *it == hash;
}

bool UrlSeenSet::InPending(uint64_t hash) const {
  if (hash == 0) return pending_has_zero_;
  const size_t mask = pending_.size() - 1;
  for (size_t i = SlotOf(hash, mask);; i = (i + 1) & mask) {
    if (pending_[i] == hash) return true;
    if (pending_[i] == 0) return false;
  }
}

bool UrlSeenSet::Contains(uint64_t hash) const { return InPending(hash) || InSegments(hash); }

void UrlSeenSet::GrowPending() {
  std::vector<uint64_t> old(pending_.size() * 2, 0);
  old.swap(pending_);
  const size_t mask = pending_.size() - 1;
  for (uint64_t h : old) {
    if (h == 0) continue;
    size_t i = SlotOf(h, mask);
    while (pending_[i] != 0) i = (i + 1) & mask;
    pending_[i] = h;
  }
}

void UrlSeenSet::AddPending(uint64_t hash) {
  ++pending_count_;
  if (hash == 0) {
    pending_has_zero_ = true;
  } else {
    // Load stays at most 1/2, so probes stay short.
    if ((pending_count_ + 1) * 2 > pending_.size()) GrowPending();
    const size_t mask = pending_.size() - 1;
    size_t i = SlotOf(hash, mask);
    while (pending_[i] != 0) i = (i + 1) & mask;
    pending_[i] = hash;
  }
  if (pending_count_ >= PendingLimit()) MergePending();
}

bool UrlSeenSet::Insert(uint64_t hash) {
  if (Contains(hash)) return false;
  AddPending(hash);
  return true;
}

void UrlSeenSet::InsertBatch(std::span<const uint64_t> hashes, std::span<uint8_t> is_new) {
  for (size_t i = 0; i < hashes.size(); ++i) is_new[i] = Insert(hashes[i]) ? 1 : 0;
}

void UrlSeenSet::MergePending() {
  std::vector<uint64_t> add;
  add.reserve(pending_count_);
  if (pending_has_zero_) add.push_back(0);
  for (uint64_t h : pending_)
    if (h != 0) add.push_back(h);
  std::sort(add.begin(), add.end());
  // One segment at a time: the extra memory is one segment, not the set.
  size_t i = 0;
  while (i < add.size()) {
    const size_t s = SegmentOf(add[i]);
    size_t j = i;
    while (j < add.size() && SegmentOf(add[j]) == s) ++j;
    Segment& seg = segments_[s];
    const size_t n = seg.size + (j - i);
    auto merged = std::make_unique_for_overwrite<uint64_t[]>(n);
    std::merge(seg.keys.get(), seg.keys.get() + seg.size, add.begin() + static_cast<std::ptrdiff_t>(i),
               add.begin() + static_cast<std::ptrdiff_t>(j), merged.get());
    seg.keys = std::move(merged);
    seg.size = static_cast<uint32_t>(n);
    i = j;
  }
  sorted_count_ += add.size();
  pending_count_ = 0;
  pending_has_zero_ = false;
  // Size the next table for the next limit, so it rarely grows meanwhile.
  size_t slots = kMinPendingSlots;
  while (slots < PendingLimit() * 2 + 2) slots *= 2;
  std::vector<uint64_t>(slots, 0).swap(pending_);
}

void UrlSeenSet::Restore(std::vector<uint64_t> hashes) {
  std::sort(hashes.begin(), hashes.end());
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
  for (Segment& seg : segments_) seg = Segment{};
  std::vector<uint64_t>(kMinPendingSlots, 0).swap(pending_);
  pending_count_ = 0;
  pending_has_zero_ = false;
  sorted_count_ = hashes.size();
  size_t i = 0;
  while (i < hashes.size()) {
    const size_t s = SegmentOf(hashes[i]);
    size_t j = i;
    while (j < hashes.size() && SegmentOf(hashes[j]) == s) ++j;
    Segment& seg = segments_[s];
    seg.keys = std::make_unique_for_overwrite<uint64_t[]>(j - i);
    std::copy(hashes.begin() + static_cast<std::ptrdiff_t>(i),
              hashes.begin() + static_cast<std::ptrdiff_t>(j), seg.keys.get());
    seg.size = static_cast<uint32_t>(j - i);
    i = j;
  }
}

bool UrlSeenSet::RestoreFromScan(const HashScan& scan) {
  for (Segment& seg : segments_) seg = Segment{};
  std::vector<uint64_t>(kMinPendingSlots, 0).swap(pending_);
  pending_count_ = 0;
  pending_has_zero_ = false;
  sorted_count_ = 0;
  // Pass 1: how many hashes fall in each segment.
  std::vector<uint32_t> count(kSegments, 0);
  if (!scan([&](uint64_t h) { ++count[SegmentOf(h)]; })) return false;
  for (size_t s = 0; s < kSegments; ++s) {
    if (count[s] > 0) segments_[s].keys = std::make_unique_for_overwrite<uint64_t[]>(count[s]);
  }
  // Pass 2: fill; `size` counts the hashes placed so far.
  bool overflow = false;
  const bool ok = scan([&](uint64_t h) {
    Segment& seg = segments_[SegmentOf(h)];
    if (seg.size == count[SegmentOf(h)]) {
      overflow = true;
      return;
    }
    seg.keys[seg.size++] = h;
  });
  bool same = ok && !overflow;
  for (size_t s = 0; s < kSegments && same; ++s) same = segments_[s].size == count[s];
  if (!same) {
    for (Segment& seg : segments_) seg = Segment{};
    return false;
  }
  for (Segment& seg : segments_) {
    std::sort(seg.keys.get(), seg.keys.get() + seg.size);
    seg.size = static_cast<uint32_t>(std::unique(seg.keys.get(), seg.keys.get() + seg.size) - seg.keys.get());
    sorted_count_ += seg.size;
  }
  return true;
}

size_t UrlSeenSet::MemoryBytes() const {
  return segments_.capacity() * sizeof(Segment) + sorted_count_ * sizeof(uint64_t) +
         pending_.capacity() * sizeof(uint64_t);
}

void UrlSeenSet::ForEach(const std::function<void(uint64_t)>& fn) const {
  for (const Segment& seg : segments_)
    for (uint32_t k = 0; k < seg.size; ++k) fn(seg.keys[k]);
  if (pending_has_zero_) fn(0);
  for (uint64_t h : pending_)
    if (h != 0) fn(h);
}

}  // namespace crawl::queueserver
