// Delta + varint postings (postings_codec.h).
#include "queueserver/index/postings_codec.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace crawl::queueserver {

const char* SkipVarints(const char* p, const char* end, uint64_t n) {
  if (n == 0) return p;
#if defined(__SSE2__)
  // Sixteen bytes at a time: a varint ends at each byte below 0x80.
  while (end - p >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    auto ends = static_cast<uint32_t>(~_mm_movemask_epi8(bytes) & 0xffff);
    const auto here = static_cast<uint64_t>(__builtin_popcount(ends));
    if (here < n) {
      n -= here;
      p += 16;
      continue;
    }
    for (; n > 1; --n) ends &= ends - 1;  // the n-th end
    return p + __builtin_ctz(ends) + 1;
  }
#endif
  for (; p < end; ++p) {
    if (static_cast<uint8_t>(*p) < 0x80 && --n == 0) return p + 1;
  }
  return nullptr;
}

void EncodePostings(const std::vector<Posting>& postings, std::string* out, int64_t previous_doc) {
  EncodePostingRange(postings.data(), postings.data() + postings.size(), out, previous_doc);
}

void EncodePostingRange(const Posting* first, const Posting* last, std::string* out, int64_t previous_doc) {
  for (const Posting* it = first; it != last; ++it) {
    const Posting& p = *it;
    PutVarint(out, static_cast<uint64_t>(static_cast<int64_t>(p.doc) - previous_doc - 1));
    previous_doc = p.doc;
    PutVarint(out, FrequencyHundredths(p.frequency));
    PutVarint(out, p.positions.size());
    uint32_t previous = 0;
    for (uint32_t pos : p.positions) {
      PutVarint(out, pos - previous);
      previous = pos;
    }
  }
}

void FlatPostings::Add(uint32_t d, uint32_t f100, const std::vector<uint32_t>& positions) {
  doc.push_back(d);
  freq100.push_back(f100);
  count.push_back(static_cast<uint32_t>(positions.size()));
  uint32_t previous = 0;
  for (uint32_t p : positions) {
    PutVarint(&gaps, p - previous);
    previous = p;
  }
  first.push_back(static_cast<uint32_t>(gaps.size()));
}

std::vector<uint32_t> FlatPostings::Positions(size_t i) const {
  // The gaps were checked when they were added (DecodeAppend, Add).
  std::vector<uint32_t> out(count[i]);
  const std::string_view span(gaps.data(), first[i + 1]);
  size_t pos = first[i];
  uint64_t position = 0;
  for (uint32_t& p : out) {
    uint64_t d = 0;
    (void)GetVarint(span, &pos, &d);
    p = static_cast<uint32_t>(position += d);
  }
  return out;
}

Result<std::vector<Posting>> DecodePostings(std::string_view in) {
  // One decoder of the format (DecodeAppend); this form only regroups it.
  FlatPostings flat;
  if (Status s = DecodeAppend(in, &flat); !s.ok()) return s;
  std::vector<Posting> out(flat.size());
  for (size_t k = 0; k < flat.size(); ++k) {
    out[k].doc = flat.doc[k];
    out[k].frequency = static_cast<double>(flat.freq100[k]) / 100.0;
    out[k].positions = flat.Positions(k);
  }
  return out;
}

Status DecodeAppend(std::string_view in, FlatPostings* out, const std::vector<uint32_t>* map) {
  size_t pos = 0;
  int64_t previous_doc = -1;
  auto bad = [] { return Status::InvalidArgument("corrupt postings list"); };
  while (pos < in.size()) {
    uint64_t delta = 0, freq = 0, n = 0;
    if (!GetVarint(in, &pos, &delta) || !GetVarint(in, &pos, &freq) || !GetVarint(in, &pos, &n)) return bad();
    const int64_t doc = previous_doc + 1 + static_cast<int64_t>(delta);
    if (doc > UINT32_MAX || n > in.size() - pos || freq > UINT32_MAX) return bad();
    previous_doc = doc;
    if (map != nullptr && static_cast<uint64_t>(doc) >= map->size()) return bad();
    out->doc.push_back(map ? (*map)[static_cast<size_t>(doc)] : static_cast<uint32_t>(doc));
    out->freq100.push_back(static_cast<uint32_t>(freq));
    out->count.push_back(static_cast<uint32_t>(n));
    // The gaps are checked (whole varints, positions within 32 bits) and
    // kept as they are. Found by their ends: with at most three bytes more
    // than varints (none longer than 4 bytes, one at most 2^28), n < 2^24
    // gaps cannot pass 2^32; other lists are decoded gap by gap.
    const size_t start = pos;
    const char* const gaps_end = SkipVarints(in.data() + pos, in.data() + in.size(), n);
    if (gaps_end == nullptr) return bad();
    const auto gap_bytes = static_cast<size_t>(gaps_end - (in.data() + pos));
    if (gap_bytes - n <= 3 && n < (uint64_t{1} << 24)) {
      out->gaps.append(in.data() + start, gap_bytes);
      out->first.push_back(static_cast<uint32_t>(out->gaps.size()));
      pos += gap_bytes;
      continue;
    }
    uint64_t position = 0;
    for (uint64_t i = 0; i < n; ++i) {
      if (pos < in.size() && static_cast<uint8_t>(in[pos]) < 0x80) {
        position += static_cast<uint8_t>(in[pos++]);
        continue;
      }
      uint64_t d = 0;
      if (!GetVarint(in, &pos, &d)) return bad();
      position += d;
      if (position > UINT32_MAX) return bad();
    }
    if (position > UINT32_MAX) return bad();
    out->gaps.append(in.data() + start, pos - start);
    out->first.push_back(static_cast<uint32_t>(out->gaps.size()));
  }
  return Status::Ok();
}

void EncodeBlocked(const FlatPostings& in, const std::vector<uint32_t>& order, std::string* out) {
  // Written in place into room for the longest encoding (10 bytes a doc
  // delta, which an `order` out of doc order would make negative, 5 a
  // frequency or a count, the gaps as they are; a block's header, its last
  // doc and its size, at most 15), then appended: a string append per byte
  // is costly in partition merges.
  const size_t blocks = (order.size() + kBlockPostings - 1) / kBlockPostings;
  size_t body_max = 0;
  for (const uint32_t i : order) body_max += 20 + static_cast<size_t>(in.first[i + 1] - in.first[i]);
  const auto header = std::make_unique_for_overwrite<char[]>(10 + 15 * blocks);
  const auto body = std::make_unique_for_overwrite<char[]>(body_max);
  char* h = WriteVarint(header.get(), blocks);
  char* b = body.get();
  int64_t previous = -1;
  for (size_t k0 = 0; k0 < order.size(); k0 += kBlockPostings) {
    const char* const start = b;
    const size_t end = std::min(order.size(), k0 + kBlockPostings);
    for (size_t k = k0; k < end; ++k) {
      const uint32_t i = order[k];
      b = WriteVarint(b, static_cast<uint64_t>(static_cast<int64_t>(in.doc[i]) - previous - 1));
      previous = in.doc[i];
      b = WriteVarint(b, in.freq100[i]);
      b = WriteVarint(b, in.count[i]);
      const size_t gap_bytes = in.first[i + 1] - in.first[i];
      std::memcpy(b, in.gaps.data() + in.first[i], gap_bytes);
      b += gap_bytes;
    }
    h = WriteVarint(h, static_cast<uint64_t>(previous));
    h = WriteVarint(h, static_cast<uint64_t>(b - start));
  }
  out->append(header.get(), static_cast<size_t>(h - header.get()));
  out->append(body.get(), static_cast<size_t>(b - body.get()));
}

bool BlockedReader::Open(std::string_view list) {
  data_ = list;
  last_.clear();
  offset_.clear();
  valid_ = false;
  corrupt_ = false;
  size_t pos = 0;
  uint64_t blocks = 0;
  // Every block takes at least 3 bytes of header.
  if (!GetVarint(list, &pos, &blocks) || blocks > list.size()) return Fail();
  std::vector<uint64_t> sizes;
  sizes.reserve(blocks);
  last_.reserve(blocks);
  for (uint64_t b = 0; b < blocks; ++b) {
    uint64_t last = 0, size = 0;
    if (!GetVarint(list, &pos, &last) || !GetVarint(list, &pos, &size) || last > UINT32_MAX ||
        (!last_.empty() && last <= last_.back()) || size > list.size())
      return Fail();
    last_.push_back(static_cast<uint32_t>(last));
    sizes.push_back(size);
  }
  offset_.push_back(pos);
  for (uint64_t size : sizes) offset_.push_back(offset_.back() + size);
  if (offset_.back() != list.size()) return Fail();
  return !last_.empty() && LoadBlock(0) && DecodeOne();
}

bool BlockedReader::LoadBlock(size_t block) {
  block_ = block;
  pos_ = offset_[block];
  end_ = offset_[block + 1];
  previous_ = block == 0 ? -1 : static_cast<int64_t>(last_[block - 1]);
  return true;
}

bool BlockedReader::DecodeOne() {
  valid_ = false;
  if (pos_ >= end_) {
    if (block_ + 1 >= last_.size()) return false;
    LoadBlock(block_ + 1);
  }
  const std::string_view in = data_.substr(0, end_);
  uint64_t delta = 0, freq = 0, n = 0;
  if (!GetVarint(in, &pos_, &delta) || !GetVarint(in, &pos_, &freq) || !GetVarint(in, &pos_, &n) ||
      n > end_ - pos_)
    return Fail();
  const int64_t doc = previous_ + 1 + static_cast<int64_t>(delta);
  if (doc > last_[block_]) return Fail();
  previous_ = doc;
  current_.doc = static_cast<uint32_t>(doc);
  current_.frequency = static_cast<double>(freq) / 100.0;
  current_.positions.resize(n);
  uint64_t position = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t d = 0;
    if (!GetVarint(in, &pos_, &d)) return Fail();
    position += d;
    current_.positions[i] = static_cast<uint32_t>(position);
  }
  valid_ = true;
  return true;
}

bool BlockedReader::Seek(uint32_t target) {
  if (!valid_) return false;
  if (current_.doc >= target) return true;
  if (target > last_[block_]) {
    const auto it =
        std::lower_bound(last_.begin() + static_cast<std::ptrdiff_t>(block_) + 1, last_.end(), target);
    if (it == last_.end()) return valid_ = false;
    LoadBlock(static_cast<size_t>(it - last_.begin()));
  }
  while (DecodeOne()) {
    if (current_.doc >= target) return true;
  }
  return false;
}

bool BlockedReader::Next() { return valid_ && DecodeOne(); }

void KeptInDocOrder(const FlatPostings& in, const std::vector<bool>& keep, std::vector<uint32_t>* order,
                    std::vector<uint64_t>* scratch) {
  const std::vector<uint32_t>& doc = in.doc;
  order->clear();
  uint32_t max_doc = 0;
  for (uint32_t i = 0; i < doc.size(); ++i) {
    if (doc[i] < keep.size() && keep[doc[i]]) {
      order->push_back(i);
      max_doc = std::max(max_doc, doc[i]);
    }
  }
  constexpr size_t kRadixFrom = 256;  // below it, a comparison sort is as quick
  if (order->size() < kRadixFrom) {
    // (doc, index) packed in one integer: no indirection per comparison.
    scratch->clear();
    for (uint32_t i : *order) scratch->push_back(uint64_t{doc[i]} << 32 | i);
    std::sort(scratch->begin(), scratch->end());
    for (size_t k = 0; k < scratch->size(); ++k) (*order)[k] = static_cast<uint32_t>((*scratch)[k]);
    return;
  }
  // LSD radix on the doc: each counting pass is stable, so equal docs keep
  // the index order the list came in.
  constexpr int kBits = 11;
  constexpr uint32_t kMask = (1u << kBits) - 1;
  std::vector<uint32_t> next(order->size());
  for (int shift = 0; shift < 32 && (max_doc >> shift) != 0; shift += kBits) {
    std::array<uint32_t, kMask + 2> start{};
    for (uint32_t i : *order) ++start[((doc[i] >> shift) & kMask) + 1];
    for (size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    for (uint32_t i : *order) next[start[(doc[i] >> shift) & kMask]++] = i;
    order->swap(next);
  }
}

}  // namespace crawl::queueserver
