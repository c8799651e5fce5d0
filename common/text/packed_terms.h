// A page's mini index terms packed into one buffer (v1::MiniIndex.postings,
// proto/crawl.proto): per term, in order of first occurrence,
//   varint(term byte length) term bytes
//   varint(title count) varint(description count) varint(body count)
//   varint(anchor count)
//   varint(number of positions) then each position as a varint gap from
//   the one before (the first from 0); positions strictly ascend.
// The fetcher writes it (fetcher/page/mini_index.h), the queue server reads it
// (queueserver/index/search_index.h): one field on the wire instead of a
// message, a string and an array per term.
//
// Bad input (from another process) is an error from the reader, never a
// crash: truncated or over-long varints, a count past 2^32 - 1, a term
// longer than what is left, a position count larger than the bytes left, a
// gap of 0 or a position past 2^32 - 1. (An empty term is read as one; the
// index skips it, as it skips one in `terms`.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "proto/crawl.pb.h"

namespace crawl::text {

struct TermCounts {
  uint32_t title = 0;
  uint32_t description = 0;
  uint32_t body = 0;
  uint32_t anchor = 0;
  bool operator==(const TermCounts&) const = default;
};

// Appends one term. REQUIRES: positions strictly ascending.
void AppendPackedTerm(std::string* out, std::string_view term, const TermCounts& counts,
                      const uint32_t* positions, size_t n);

// Walks a packed buffer term by term, without allocating per term.
class PackedTermReader {
 public:
  explicit PackedTermReader(std::string_view in) : in_(in) {}
  // Reads the next term: false at the end or on bad input (then !status().ok()).
  [[nodiscard]] bool Next();
  // The term read last; valid while the buffer lives.
  [[nodiscard]] std::string_view term() const { return term_; }
  [[nodiscard]] const TermCounts& counts() const { return counts_; }
  // Its positions, ascending; valid until the next Next().
  [[nodiscard]] const std::vector<uint32_t>& positions() const { return positions_; }
  // Its positions' gap varints as read, when each is in its shortest form
  // (as AppendPackedTerm and PutVarint write them): a copy of these bytes is
  // what encoding positions() again would write. Empty otherwise, and when
  // the term has no positions. Valid while the buffer lives.
  [[nodiscard]] std::string_view shortest_gaps() const { return shortest_gaps_; }
  [[nodiscard]] const Status& status() const { return status_; }

 private:
  bool Fail(const char* what);
  // The n gaps at pos_ when each takes one or two bytes and nothing about
  // them is wrong: positions_ (sized n) and shortest_gaps_ filled, pos_ past
  // them, true. False otherwise, pos_ unchanged.
  bool ReadShortGaps(uint64_t n);

  std::string_view in_;
  size_t pos_ = 0;
  std::string_view term_;
  TermCounts counts_;
  std::vector<uint32_t> positions_;
  std::string_view shortest_gaps_;
  Status status_;
};

// Checks a whole buffer; the number of terms in it, or why it is bad.
[[nodiscard]] Result<size_t> CountPackedTerms(std::string_view in);

// Moves `terms` into `postings` (PackTerms) or back (UnpackTerms), for
// tests, benchmarks and records of older fetchers. Unpack fails, changing
// nothing, on a bad buffer. Pack requires strictly ascending positions
// (kInvalidArgument otherwise, nothing changed).
[[nodiscard]] Status PackTerms(v1::MiniIndex* index);
[[nodiscard]] Status UnpackTerms(v1::MiniIndex* index);

}  // namespace crawl::text
