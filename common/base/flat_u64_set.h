// A set of 64-bit keys (hashes) for hot membership checks: open addressing
// over one power-of-two array of keys, linear probing, load factor at most
// 1/2. No node per key, so a check costs one or two cache lines where
// std::unordered_set follows a bucket and a node. Keys need not be well
// mixed; they are mixed before use. clear() keeps the array.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace crawl {

class FlatU64Set {
 public:
  FlatU64Set() : slots_(kFirstSlots, 0) {}

  // Adds `key`; true when it was not there.
  bool Insert(uint64_t key) {
    if (key == 0) {
      const bool added = !has_zero_;
      has_zero_ = true;
      size_ += added ? 1 : 0;
      return added;
    }
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = Mix(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return false;
      if (slots_[i] == 0) {
        slots_[i] = key;
        if (++size_ * 2 > slots_.size()) Grow();
        return true;
      }
    }
  }

  [[nodiscard]] bool Contains(uint64_t key) const {
    if (key == 0) return has_zero_;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = Mix(key) & mask; slots_[i] != 0; i = (i + 1) & mask) {
      if (slots_[i] == key) return true;
    }
    return false;
  }

  [[nodiscard]] std::size_t size() const { return size_; }

  void clear() {
    std::fill(slots_.begin(), slots_.end(), 0);
    has_zero_ = false;
    size_ = 0;
  }

 private:
  static constexpr std::size_t kFirstSlots = 64;

  static uint64_t Mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
  }

  void Grow() {
    std::vector<uint64_t> bigger(slots_.size() * 2, 0);
    const std::size_t mask = bigger.size() - 1;
    for (uint64_t key : slots_) {
      if (key == 0) continue;
      std::size_t i = Mix(key) & mask;
      while (bigger[i] != 0) i = (i + 1) & mask;
      bigger[i] = key;
    }
    slots_.swap(bigger);
  }

  std::vector<uint64_t> slots_;  // 0: empty (key 0 is has_zero_)
  bool has_zero_ = false;
  std::size_t size_ = 0;
};

}  // namespace crawl
