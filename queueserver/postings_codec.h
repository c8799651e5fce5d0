// Postings of one term in one index partition, delta + varint coded
// (DESIGN.md section 7: "postings ... delta/varint-coded postings with
// positions"). docs/ARCHITECTURE.md "Index and search" shows the layout.
//
// A list is a sequence of postings with ascending doc numbers (a document's
// arrival number inside its partition). Each posting is coded as
//   varint(doc - previous doc)            (the first: doc itself)
//   varint(weighted frequency x 100, rounded)
//   varint(number of positions)
//   varint(position - previous position)  (the first: position itself)
// Varints are LEB128 (7 bits a byte, low first). Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace crawl::queueserver {

struct Posting {
  uint32_t doc = 0;  // arrival number in the partition
  // Region-weighted term frequency (f of DESIGN.md 8), kept to 1/100.
  double frequency = 0;
  std::vector<uint32_t> positions;  // ascending
  bool operator==(const Posting&) const = default;
};

void PutVarint(std::string* out, uint64_t v);
// Reads a varint at *pos and moves past it; false on truncated or over-long
// input.
[[nodiscard]] bool GetVarint(std::string_view in, size_t* pos, uint64_t* v);

// Appends `postings` (doc numbers ascending and above `previous_doc`, or any
// when previous_doc is -1) to `out`.
// REQUIRES: docs ascending, positions ascending.
void EncodePostings(const std::vector<Posting>& postings, std::string* out, int64_t previous_doc = -1);
// Same for the postings [first, last).
void EncodePostingRange(const Posting* first, const Posting* last, std::string* out, int64_t previous_doc = -1);

// Decodes a list written by EncodePostings (chunks appended with the
// previous chunk's last doc as previous_doc decode as one list).
// Bad input gives kInvalidArgument, never a crash.
[[nodiscard]] Result<std::vector<Posting>> DecodePostings(std::string_view in);

}  // namespace crawl::queueserver
