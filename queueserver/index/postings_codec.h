// Postings of one term in one index partition, delta + varint coded
// (docs/DESIGN.md §7: "postings ... delta/varint-coded postings with
// positions"). queueserver/index/index_records.h shows the record layout.
//
// A list is a sequence of postings with ascending doc numbers (a document's
// arrival number inside its partition). Each posting is coded as
//   varint(doc - previous doc)            (the first: doc itself)
//   varint(weighted frequency x 100, rounded)
//   varint(number of positions)
//   varint(position - previous position)  (the first: position itself)
// Varints are LEB128 (7 bits a byte, low first). Pure functions.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "common/base/varint.h"

namespace crawl::queueserver {

// A posting's weighted frequency as written: max(0, frequency) x 100,
// rounded half away from zero, as std::llround. Inline: a call into libm
// per posting is costly at ingest. Values past 2^52 (and
// infinity) take llround itself.
inline uint64_t FrequencyHundredths(double frequency) {
  const double x = (frequency > 0 ? frequency : 0.0) * 100.0;  // NaN -> 0, as std::max(0.0, NaN)
  if (!(x < 0x1p52)) return static_cast<uint64_t>(std::llround(x));
  const auto whole = static_cast<uint64_t>(static_cast<int64_t>(x));
  return whole + static_cast<uint64_t>(x - static_cast<double>(whole) >= 0.5);  // x - whole: exact
}

struct Posting {
  uint32_t doc = 0;  // arrival number in the partition
  // Region-weighted term frequency (f of docs/DESIGN.md §8), kept to 1/100.
  double frequency = 0;
  std::vector<uint32_t> positions;  // ascending
  bool operator==(const Posting&) const = default;
};

// Appends `postings` (doc numbers ascending and above `previous_doc`, or any
// when previous_doc is -1) to `out`.
// REQUIRES: docs ascending, positions ascending.
void EncodePostings(const std::vector<Posting>& postings, std::string* out, int64_t previous_doc = -1);
// Same for the postings [first, last).
void EncodePostingRange(const Posting* first, const Posting* last, std::string* out,
                        int64_t previous_doc = -1);

// Decodes a list written by EncodePostings (chunks appended with the
// previous chunk's last doc as previous_doc decode as one list).
// Bad input gives kInvalidArgument, never a crash.
[[nodiscard]] Result<std::vector<Posting>> DecodePostings(std::string_view in);

// Postings held flat (no vector per posting): frequency kept x 100; the
// positions of posting i are count[i] varint gaps (the first from 0) at
// gaps[first[i], first[i + 1]), as the encoded lists hold them, so that a
// merge copies them instead of decoding and encoding every position (the
// bulk of a partition merge's work).
struct FlatPostings {
  std::vector<uint32_t> doc, freq100, count, first{0};
  std::string gaps;
  [[nodiscard]] size_t size() const { return doc.size(); }
  void clear() {
    doc.clear();
    freq100.clear();
    count.clear();
    first.assign(1, 0);
    gaps.clear();
  }
  // Appends a posting. REQUIRES: positions ascending.
  void Add(uint32_t d, uint32_t f100, const std::vector<uint32_t>& positions);
  // The positions of posting i.
  [[nodiscard]] std::vector<uint32_t> Positions(size_t i) const;
};
// Appends the postings of an EncodePostings list to `out`, mapping each doc
// number d to map[d] when `map` is given (kInvalidArgument when d is outside
// it, or on bad input).
[[nodiscard]] Status DecodeAppend(std::string_view in, FlatPostings* out,
                                  const std::vector<uint32_t>* map = nullptr);

// Past the n-th varint that starts at `p` (each ends at a byte below
// 0x80), or nullptr when [p, end) holds fewer. n == 0: `p`.
[[nodiscard]] const char* SkipVarints(const char* p, const char* end, uint64_t n);

// The postings of `in` whose doc d has keep[d] (d < keep.size()), as
// indices into `in`, ordered by doc and, for equal docs, by index: what
// sorting (doc << 32 | index) gives, which is how a partition merge puts a
// list in doc-map order. Long lists take a stable radix sort on the doc
// (11 bits a pass); `scratch` is its buffer, reused between calls.
void KeptInDocOrder(const FlatPostings& in, const std::vector<bool>& keep, std::vector<uint32_t>* order,
                    std::vector<uint64_t>* scratch);

// A list in blocks (the stored form of a closed partition's postings, and
// what queries read): varint(blocks), then per block varint(last doc),
// varint(bytes), then the blocks, each EncodePostings-coded with doc deltas
// continuing from the previous block's last doc. Blocks of kBlockPostings let
// a reader skip to a doc without decoding what lies before it.
constexpr size_t kBlockPostings = 128;
// Appends postings `order[0..]` of `in` (doc numbers strictly ascending in
// that order) to `out` in blocks.
void EncodeBlocked(const FlatPostings& in, const std::vector<uint32_t>& order, std::string* out);

// Walks a blocked list (not owning it). After Open, Seek positions on the
// first posting at or after a doc; bad input makes Seek/Next return false and
// corrupt() true.
class BlockedReader {
 public:
  [[nodiscard]] bool Open(std::string_view list);
  // Moves to the first posting with doc >= target (never backwards); false
  // when there is none.
  [[nodiscard]] bool Seek(uint32_t target);
  // Moves to the next posting; false at the end.
  [[nodiscard]] bool Next();
  [[nodiscard]] const Posting& current() const { return current_; }
  [[nodiscard]] bool corrupt() const { return corrupt_; }

 private:
  bool Fail() {
    corrupt_ = true;
    return valid_ = false;
  }
  bool LoadBlock(size_t block);
  bool DecodeOne();
  std::string_view data_;
  std::vector<uint32_t> last_;  // last doc of each block
  std::vector<size_t> offset_;  // start of each block in data_, and the end
  size_t block_ = 0, pos_ = 0, end_ = 0;
  int64_t previous_ = -1;
  bool valid_ = false, corrupt_ = false;
  Posting current_;
};

}  // namespace crawl::queueserver
