// A hash map from strings to small values for hot lookups of short keys
// (words, terms): open addressing over a power-of-two slot array that holds
// each key's hash beside its entry's index, keys back to back in one
// buffer, values in one vector. No allocation per key and no node chains:
// a lookup reads its slot, then one entry and its key bytes.
//
// The caller passes the key's hash (any well-mixed hash, the same for the
// same key): a caller that has hashed the key already does not hash it
// twice. Pointers to values are valid until the next Insert() or clear().
// Keys are at most 4 GiB in all (a bound the callers keep far below).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/string_hash.h"

namespace crawl {

template <typename Value>
class FlatStringMap {
 public:
  FlatStringMap() : slots_(kFirstSlots) {}

  // The value of `key`, or null. Only the hash's low 32 bits count.
  [[nodiscard]] Value* Find(std::string_view key, uint64_t hash) {
    return const_cast<Value*>(std::as_const(*this).Find(key, hash));
  }
  [[nodiscard]] const Value* Find(std::string_view key, uint64_t hash) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask; slots_[i].entry != 0; i = (i + 1) & mask) {
      if (slots_[i].hash == static_cast<uint32_t>(hash)) {
        const Entry& e = entries_[slots_[i].entry - 1];
        if (SameShortString(KeyOf(e), key)) return &e.value;
      }
    }
    return nullptr;
  }

  // Prefetching for a run of lookups whose hashes are known ahead (each
  // lookup of a large map misses the cache three times: slot, entry, key),
  // in three steps some lookups apart, each reading what the one before
  // brought in: Prefetch(hash) the key's first slot; PrefetchEntry(hash) the
  // entry that slot names when it holds this hash; Peek(hash) that entry's
  // key, returning its value as a guess (the key is not compared: Find()
  // decides). None changes the map.
  void Prefetch(uint64_t hash) const { __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]); }
  void PrefetchEntry(uint64_t hash) const {
    const Slot& slot = slots_[hash & (slots_.size() - 1)];
    if (slot.entry != 0 && slot.hash == static_cast<uint32_t>(hash))
      __builtin_prefetch(&entries_[slot.entry - 1]);
  }
  [[nodiscard]] const Value* Peek(uint64_t hash) const {
    const Slot& slot = slots_[hash & (slots_.size() - 1)];
    if (slot.entry == 0 || slot.hash != static_cast<uint32_t>(hash)) return nullptr;
    const Entry& e = entries_[slot.entry - 1];
    __builtin_prefetch(keys_.data() + e.key_at);
    return &e.value;
  }

  // The value of `key`, added value-initialised when absent; true when added.
  std::pair<Value*, bool> Insert(std::string_view key, uint64_t hash) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash & mask;
    for (; slots_[i].entry != 0; i = (i + 1) & mask) {
      if (slots_[i].hash == static_cast<uint32_t>(hash)) {
        Entry& e = entries_[slots_[i].entry - 1];
        if (SameShortString(KeyOf(e), key)) return {&e.value, false};
      }
    }
    entries_.push_back(
        Entry{hash, static_cast<uint32_t>(keys_.size()), static_cast<uint32_t>(key.size()), Value{}});
    keys_.append(key);
    slots_[i] = Slot{static_cast<uint32_t>(hash), static_cast<uint32_t>(entries_.size())};
    if (entries_.size() * 2 > slots_.size()) Grow();  // load factor <= 1/2
    return {&entries_.back().value, true};
  }

  [[nodiscard]] std::size_t size() const { return entries_.size(); }

  void clear() {
    keys_.clear();
    entries_.clear();
    slots_.assign(kFirstSlots, Slot{});
  }

 private:
  struct Slot {
    uint32_t hash = 0;   // the key hash's low 32 bits
    uint32_t entry = 0;  // entry index + 1; 0 = empty
  };
  struct Entry {
    uint64_t hash;
    uint32_t key_at, key_size;
    Value value;
  };
  static constexpr std::size_t kFirstSlots = 1024;

  [[nodiscard]] std::string_view KeyOf(const Entry& e) const {
    return std::string_view(keys_).substr(e.key_at, e.key_size);
  }

  void Grow() {
    std::vector<Slot> bigger(slots_.size() * 2);
    const std::size_t mask = bigger.size() - 1;
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      std::size_t i = entries_[k].hash & mask;
      while (bigger[i].entry != 0) i = (i + 1) & mask;
      bigger[i] = Slot{static_cast<uint32_t>(entries_[k].hash), static_cast<uint32_t>(k + 1)};
    }
    slots_.swap(bigger);
  }

  std::string keys_;
  std::vector<Entry> entries_;
  std::vector<Slot> slots_;
};

}  // namespace crawl
