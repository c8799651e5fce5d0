// Simhash of a page's words (simhash.h; Charikar 2002).
#include "fetcher/page/simhash.h"

#include <array>
#include <string>

#include "common/base/hash.h"
#include "common/text/tokenizer.h"

namespace crawl::fetcher {

uint64_t SimhashOfWords(std::string_view words) {
  // Starts of the last kSimhashShingleWords words, in a ring.
  std::array<std::size_t, kSimhashShingleWords> starts{};
  std::array<int32_t, 64> votes{};
  std::size_t count = 0;
  std::size_t pos = 0;
  while (pos < words.size()) {
    std::size_t end = words.find(' ', pos);
    if (end == std::string_view::npos) end = words.size();
    starts[count % kSimhashShingleWords] = pos;
    ++count;
    if (count >= kSimhashShingleWords) {
      const std::size_t first = starts[(count - kSimhashShingleWords) % kSimhashShingleWords];
      uint64_t h = hash::PageTextHash(words.substr(first, end - first));
      // Each bit votes +1 or -1; a shingle's 64 votes, bit by bit.
      for (int b = 0; b < 64; ++b, h >>= 1) votes[b] += static_cast<int32_t>(h & 1) * 2 - 1;
    }
    pos = end + 1;
  }
  if (count < kSimhashMinWords) return 0;
  uint64_t fingerprint = 0;
  for (int b = 0; b < 64; ++b) {
    if (votes[b] > 0) fingerprint |= uint64_t{1} << b;
  }
  return fingerprint;
}

uint64_t SimhashOfText(std::string_view text) {
  std::string words;
  words.reserve(text.size());
  text::ForEachToken(text, [&](std::string_view t) {
    if (!words.empty()) words.push_back(' ');
    words.append(t);
  });
  return SimhashOfWords(words);
}

}  // namespace crawl::fetcher
