// The 64-bit simhash of a page's main text (Charikar, "Similarity
// estimation techniques from rounding algorithms", STOC 2002), the
// fingerprint of near-duplicate detection (docs/ARCHITECTURE.md
// "Near-duplicates"; FetchRecord.simhash in proto/crawl.proto).
//
// Features are 3-word shingles of the page's tokens (common/text/tokenizer.h:
// case-folded words), each of weight 1 per occurrence, hashed to 64 bits
// from its three words' XXH3-64 hashes (hash::PageTextHash), rotated apart
// and mixed (simhash.cc ShingleHash). Bit b of the fingerprint is 1 when more features have bit b set
// than clear. Pages that differ in a date line or a menu differ in few
// shingles, so their fingerprints differ in few bits.
//
// Pure, reentrant; linear in the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace crawl::fetcher {

// Words in a shingle (a feature).
inline constexpr std::size_t kSimhashShingleWords = 3;
// Pages with fewer words have no fingerprint (0): a short page's few
// shingles make every small edit a large change, and navigation-only pages
// would cluster by their menus alone.
inline constexpr std::size_t kSimhashMinWords = 20;

// The simhash of `words`: tokens one space apart (as text_analysis.cc
// hashes them: no leading, trailing or double spaces). 0 when there are
// fewer than kSimhashMinWords words (a real fingerprint of 0 is read as
// none; one page in 2^64).
[[nodiscard]] uint64_t SimhashOfWords(std::string_view words);

// The simhash of any UTF-8 text: its tokens (common/text/tokenizer.h, the
// default case folding) one space apart, then SimhashOfWords.
[[nodiscard]] uint64_t SimhashOfText(std::string_view text);

}  // namespace crawl::fetcher
