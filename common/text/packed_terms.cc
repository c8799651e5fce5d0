// Packed mini index terms (packed_terms.h).
#include "common/text/packed_terms.h"

#include <bit>
#include <cstring>
#include <limits>

#include "common/base/varint.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace crawl::text {

void AppendPackedTerm(std::string* out, std::string_view term, const TermCounts& counts,
                      const uint32_t* positions, size_t n) {
  // Written in place into room for the longest encoding, then cut to size:
  // a string append per byte is costly on text-heavy pages.
  const size_t start = out->size();
  out->resize(start + 10 * 6 + term.size() + 5 * n);
  char* p = out->data() + start;
  p = WriteVarint(p, term.size());
  if (!term.empty()) std::memcpy(p, term.data(), term.size());
  p += term.size();
  p = WriteVarint(p, counts.title);
  p = WriteVarint(p, counts.description);
  p = WriteVarint(p, counts.body);
  p = WriteVarint(p, counts.anchor);
  p = WriteVarint(p, n);
  uint32_t previous = 0;
  for (size_t i = 0; i < n; ++i) {
    p = WriteVarint(p, positions[i] - previous);
    previous = positions[i];
  }
  out->resize(static_cast<size_t>(p - out->data()));
}

bool PackedTermReader::Fail(const char* what) {
  status_ = Status::InvalidArgument(std::string("mini index postings: ") + what + " at byte " +
                                    std::to_string(pos_));
  pos_ = in_.size();
  return false;
}

bool PackedTermReader::ReadShortGaps(uint64_t n) {
  // Gaps of one byte and of two come mixed (a word's next use a few words
  // or a few hundred on), so a branch on the length was mispredicted about
  // as often as taken: here both are decoded and one kept without a
  // branch. Anything else (a gap of 3 bytes or more, a 0 gap after the
  // first, a two-byte gap under 128, which is not in its shortest form,
  // fewer than two bytes left, a position past 2^32 - 1; also a first gap
  // of 0 outside a run of one-byte gaps) leaves the whole term to the
  // careful loop of Next(), which says what is wrong or reads it as it is.
  const auto* const in = reinterpret_cast<const uint8_t*>(in_.data());
  const size_t size = in_.size();
  size_t pos = pos_;
  uint32_t* const out = positions_.data();
  uint64_t position = 0;
  uint32_t unusual = 0;
  for (uint64_t i = 0; i < n; ++i) {
#if defined(__SSE2__)
    // A frequent word's gaps mostly take one byte: the run of one-byte,
    // non-zero gaps among the next 16 bytes is summed without the two-byte
    // arithmetic below.
    if (n - i >= 16 && size - pos >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + pos));
      const auto zeros = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())));
      // Stop at a two-byte gap's first byte, or at a 0 gap (allowed first).
      const uint32_t stop =
          static_cast<uint32_t>(_mm_movemask_epi8(v)) | (zeros & (i == 0 ? 0xFFFEu : 0xFFFFu));
      const int run = stop == 0 ? 16 : std::countr_zero(stop);
      for (int k = 0; k < run; ++k) {
        position += in[pos + static_cast<size_t>(k)];
        out[i + static_cast<uint64_t>(k)] = static_cast<uint32_t>(position);
      }
      i += static_cast<uint64_t>(run);
      pos += static_cast<size_t>(run);
      if (i == n) break;
    }
#endif
    if (pos + 2 > size) return false;
    const uint32_t b0 = in[pos];
    const uint32_t b1 = in[pos + 1];
    if ((b0 & b1 & 0x80) != 0) return false;
    const uint32_t two = b0 >> 7;  // 1: the gap takes two bytes
    const uint32_t gap = b0 + (((b1 << 7) - 0x80) & (0u - two));
    // The least a gap may be: 128 in two bytes (less fits one), else 1. A
    // first gap of 0 (position 0: one term a page) goes to the careful loop.
    const uint32_t least = (two << 7) | (two ^ 1);
    unusual |= static_cast<uint32_t>(gap < least);
    position += gap;
    out[i] = static_cast<uint32_t>(position);
    pos += 1 + two;
  }
  if (unusual != 0 || position > std::numeric_limits<uint32_t>::max()) return false;
  shortest_gaps_ = in_.substr(pos_, pos - pos_);
  pos_ = pos;
  return true;
}

bool PackedTermReader::Next() {
  if (!status_.ok() || pos_ >= in_.size()) return false;
  constexpr uint64_t kMax32 = std::numeric_limits<uint32_t>::max();
  uint64_t length = 0;
  if (!GetVarint(in_, &pos_, &length)) return Fail("bad term length");
  if (length > in_.size() - pos_) return Fail("term past the end");
  term_ = in_.substr(pos_, length);
  pos_ += length;
  uint64_t n = 0;
  uint64_t five = 0;  // the next 5 bytes (and 3 more), when 8 are left
  if (in_.size() - pos_ >= 8) std::memcpy(&five, in_.data() + pos_, 8);
  if (std::endian::native == std::endian::little && in_.size() - pos_ >= 8 && (five & 0x8080808080) == 0) {
    // The four counts and the number of positions, each one byte (most
    // terms): read at once, not varint by varint.
    counts_ = {static_cast<uint32_t>(five & 0xff), static_cast<uint32_t>(five >> 8 & 0xff),
               static_cast<uint32_t>(five >> 16 & 0xff), static_cast<uint32_t>(five >> 24 & 0xff)};
    n = five >> 32 & 0xff;
    pos_ += 5;
  } else {
    uint64_t c[4];
    for (uint64_t& v : c) {
      if (!GetVarint(in_, &pos_, &v) || v > kMax32) return Fail("bad count");
    }
    counts_ = {static_cast<uint32_t>(c[0]), static_cast<uint32_t>(c[1]), static_cast<uint32_t>(c[2]),
               static_cast<uint32_t>(c[3])};
    if (!GetVarint(in_, &pos_, &n)) return Fail("bad position count");
  }
  // Each position takes a byte at least: a count past what is left is a lie,
  // not something to allocate for.
  if (n > in_.size() - pos_) return Fail("bad position count");
  positions_.resize(n);
  const size_t gaps_at = pos_;
  if (ReadShortGaps(n)) return true;
  bool shortest = true;
  uint64_t position = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t gap = 0;
    // Most gaps take one byte.
    if (pos_ < in_.size() && static_cast<uint8_t>(in_[pos_]) < 0x80) {
      gap = static_cast<uint8_t>(in_[pos_++]);
    } else if (!GetVarint(in_, &pos_, &gap)) {
      return Fail("bad position");
    } else {
      shortest = shortest && in_[pos_ - 1] != 0;  // a longer varint ends in a non-zero byte
    }
    if (gap == 0 && i > 0) return Fail("positions not ascending");
    if (gap > kMax32) return Fail("position past 2^32 - 1");
    position += gap;
    if (position > kMax32) return Fail("position past 2^32 - 1");
    positions_[i] = static_cast<uint32_t>(position);
  }
  shortest_gaps_ = shortest ? in_.substr(gaps_at, pos_ - gaps_at) : std::string_view();
  return true;
}

Result<size_t> CountPackedTerms(std::string_view in) {
  PackedTermReader reader(in);
  size_t terms = 0;
  while (reader.Next()) ++terms;
  if (!reader.status().ok()) return reader.status();
  return terms;
}

Status PackTerms(v1::MiniIndex* index) {
  std::string packed = index->postings();
  for (const v1::IndexTerm& t : index->terms()) {
    for (int i = 1; i < t.positions_size(); ++i) {
      if (t.positions(i) <= t.positions(i - 1))
        return Status::InvalidArgument("mini index: positions not ascending");
    }
    AppendPackedTerm(&packed, t.term(),
                     {t.title_count(), t.description_count(), t.body_count(), t.anchor_count()},
                     t.positions().data(), static_cast<size_t>(t.positions_size()));
  }
  index->set_postings(std::move(packed));
  index->clear_terms();
  return Status::Ok();
}

Status UnpackTerms(v1::MiniIndex* index) {
  google::protobuf::RepeatedPtrField<v1::IndexTerm> terms;
  PackedTermReader reader(index->postings());
  while (reader.Next()) {
    v1::IndexTerm* t = terms.Add();
    t->set_term(std::string(reader.term()));
    t->set_title_count(reader.counts().title);
    t->set_description_count(reader.counts().description);
    t->set_body_count(reader.counts().body);
    t->set_anchor_count(reader.counts().anchor);
    t->mutable_positions()->Add(reader.positions().begin(), reader.positions().end());
  }
  if (!reader.status().ok()) return reader.status();
  for (v1::IndexTerm& t : terms) *index->add_terms() = std::move(t);
  index->clear_postings();
  return Status::Ok();
}

}  // namespace crawl::text
