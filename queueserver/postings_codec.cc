// Delta + varint postings (postings_codec.h).
#include "queueserver/postings_codec.h"

#include <algorithm>
#include <cmath>

namespace crawl::queueserver {

void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetVarint(std::string_view in, size_t* pos, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63; shift += 7) {
    if (*pos >= in.size()) return false;
    const auto byte = static_cast<uint8_t>(in[(*pos)++]);
    result |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

void EncodePostings(const std::vector<Posting>& postings, std::string* out, int64_t previous_doc) {
  EncodePostingRange(postings.data(), postings.data() + postings.size(), out, previous_doc);
}

void EncodePostingRange(const Posting* first, const Posting* last, std::string* out, int64_t previous_doc) {
  for (const Posting* it = first; it != last; ++it) {
    const Posting& p = *it;
    PutVarint(out, static_cast<uint64_t>(static_cast<int64_t>(p.doc) - previous_doc - 1));
    previous_doc = p.doc;
    PutVarint(out, static_cast<uint64_t>(std::llround(std::max(0.0, p.frequency) * 100.0)));
    PutVarint(out, p.positions.size());
    uint32_t previous = 0;
    for (uint32_t pos : p.positions) {
      PutVarint(out, pos - previous);
      previous = pos;
    }
  }
}

Result<std::vector<Posting>> DecodePostings(std::string_view in) {
  std::vector<Posting> out;
  size_t pos = 0;
  int64_t previous_doc = -1;
  auto bad = [] { return Status::InvalidArgument("corrupt postings list"); };
  while (pos < in.size()) {
    uint64_t delta = 0, freq = 0, n = 0;
    if (!GetVarint(in, &pos, &delta) || !GetVarint(in, &pos, &freq) || !GetVarint(in, &pos, &n)) return bad();
    const int64_t doc = previous_doc + 1 + static_cast<int64_t>(delta);
    // Every position takes at least one byte: a count beyond the input is corrupt.
    if (doc > UINT32_MAX || n > in.size() - pos) return bad();
    Posting& p = out.emplace_back();
    p.doc = static_cast<uint32_t>(doc);
    previous_doc = doc;
    p.frequency = static_cast<double>(freq) / 100.0;
    p.positions.reserve(n);
    uint64_t position = 0;
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t d = 0;
      if (!GetVarint(in, &pos, &d)) return bad();
      position += d;
      if (position > UINT32_MAX) return bad();
      p.positions.push_back(static_cast<uint32_t>(position));
    }
  }
  return out;
}

}  // namespace crawl::queueserver
