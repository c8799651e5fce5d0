// Encodings of the queue store's keys and values (queue_store.h lists the
// layout): fixed-width big-endian numbers, u32-length-prefixed strings, and
// the records of frontier entries, CLD statistics, origins and leases. Pure
// functions, no RocksDB; internal to queueserver/store/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "queueserver/frontier/frontier.h"

namespace crawl::queueserver::store_internal {

void PutU64(std::string* out, uint64_t v);
void PutU32(std::string* out, uint32_t v);
void PutStr(std::string* out, std::string_view s);

class Reader {
 public:
  explicit Reader(std::string_view d) : d_(d) {}
  bool U64(uint64_t* v) {
    if (d_.size() < 8) return false;
    *v = 0;
    for (int i = 0; i < 8; ++i) *v = (*v << 8) | static_cast<uint8_t>(d_[i]);
    d_.remove_prefix(8);
    return true;
  }
  bool U32(uint32_t* v) {
    if (d_.size() < 4) return false;
    *v = 0;
    for (int i = 0; i < 4; ++i) *v = (*v << 8) | static_cast<uint8_t>(d_[i]);
    d_.remove_prefix(4);
    return true;
  }
  bool Str(std::string* s) {
    uint32_t n = 0;
    if (!U32(&n) || d_.size() < n) return false;
    s->assign(d_.substr(0, n));
    d_.remove_prefix(n);
    return true;
  }
  bool Byte(uint8_t* v) {
    if (d_.empty()) return false;
    *v = static_cast<uint8_t>(d_[0]);
    d_.remove_prefix(1);
    return true;
  }
  [[nodiscard]] bool done() const { return d_.empty(); }

 private:
  std::string_view d_;
};

// The big-endian number at the start of `d` (0 if `d` is shorter).
uint64_t ReadU64(std::string_view d);
void PutF64(std::string* out, double v);

// Order-preserving bits of a double, descending: the best (highest) sort
// value has the smallest key.
uint64_t DescendingBits(double d);
double FromDescendingBits(uint64_t desc);

// url, referrer, depth, weight, tier, cash, retries, then the kind byte.
void AppendEntry(std::string* out, const FrontierEntry& e);
std::string EncodeEntry(const FrontierEntry& e);
// AppendEntry with its length first (PutStr of the encoded entry, without
// the intermediate string).
void AppendSizedEntry(std::string* out, const FrontierEntry& e);
[[nodiscard]] bool DecodeEntry(std::string_view d, FrontierEntry* e);

std::string EncodeCld(const CldStats& c);
[[nodiscard]] bool DecodeCld(std::string_view d, CldStats* c);
std::string EncodeOrigin(const OriginRecord& o);
[[nodiscard]] bool DecodeOrigin(std::string_view d, OriginRecord* o);
std::string EncodeLease(const LeaseRecord& l);
[[nodiscard]] bool DecodeLease(std::string_view d, LeaseRecord* l);

// Tier numbers sort as signed integers.
void PutTier(std::string* out, int32_t tier);
int32_t ReadTier(std::string_view d);

}  // namespace crawl::queueserver::store_internal
