// Page description by sentence scoring (description.h).
#include "fetcher/page/description.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace crawl::fetcher {

std::size_t Utf8Length(std::string_view s) {
  // Characters = bytes - continuation bytes (10xxxxxx), counted 16 bytes at
  // a time: each block's compare (0xFF = -1 per continuation byte) is
  // subtracted into 16 byte counters, summed every 255 blocks, before they
  // can wrap (a popcount per block was a libgcc call: the build targets
  // x86-64 without POPCNT).
  std::size_t continuations = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  const std::size_t n = s.size();
  if (n >= 16) {
    const __m128i top_two = _mm_set1_epi8(static_cast<char>(0xC0));
    const __m128i continuation = _mm_set1_epi8(static_cast<char>(0x80));
    const __m128i zero = _mm_setzero_si128();
    auto is_continuation = [&](std::size_t at) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + at));
      return _mm_cmpeq_epi8(_mm_and_si128(v, top_two), continuation);
    };
    __m128i sums = zero;  // two 64-bit sums
    while (i + 16 <= n) {
      const std::size_t stop = i + std::min<std::size_t>((n - i) / 16, 255) * 16;
      __m128i counts = zero;
      for (; i < stop; i += 16) counts = _mm_sub_epi8(counts, is_continuation(i));
      sums = _mm_add_epi64(sums, _mm_sad_epu8(counts, zero));
    }
    if (i < n) {
      // The last 16 bytes, without the 16 - (n - i) of them counted above.
      alignas(16) static constexpr unsigned char kLastLanes[32] = {
          0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
          0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
      const __m128i keep = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLastLanes + (n - i)));
      const __m128i counts = _mm_sub_epi8(zero, _mm_and_si128(is_continuation(n - 16), keep));
      sums = _mm_add_epi64(sums, _mm_sad_epu8(counts, zero));
      i = n;
    }
    continuations = static_cast<std::size_t>(_mm_cvtsi128_si64(sums)) +
                    static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
#endif
  for (; i < s.size(); ++i) continuations += (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;
  return s.size() - continuations;
}

namespace {

// The first index from `i` on whose byte may end a sentence ('\n', '.', '!',
// '?', or 0xE3, the lead byte of U+3002), or text.size(). Most of a page's
// text holds none of these: with SSE2, 16 bytes are looked at a time.
std::size_t SkipOrdinary(std::string_view text, std::size_t i) {
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i dot = _mm_set1_epi8('.');
  const __m128i bang = _mm_set1_epi8('!');
  const __m128i question = _mm_set1_epi8('?');
  const __m128i ideographic = _mm_set1_epi8(static_cast<char>(0xE3));
  while (i + 16 <= text.size()) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
    const __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, newline), _mm_cmpeq_epi8(v, dot)),
                                  _mm_or_si128(_mm_cmpeq_epi8(v, bang), _mm_cmpeq_epi8(v, question))),
                     _mm_cmpeq_epi8(v, ideographic));
    const int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    i += 16;
  }
#endif
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n' || c == '.' || c == '!' || c == '?' || c == '\xE3') return i;
  }
  return i;
}

}  // namespace

std::vector<std::string_view> SplitSentences(std::string_view text) {
  std::vector<std::string_view> out;
  auto emit = [&](std::size_t b, std::size_t e) {
    while (b < e && (text[b] == ' ' || text[b] == '\n')) ++b;
    while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\n')) --e;
    if (e > b) out.push_back(text.substr(b, e - b));
  };
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    i = SkipOrdinary(text, i);
    if (i == text.size()) break;
    const char c = text[i];
    if (c == '\n') {
      emit(start, i);
      start = i + 1;
    } else if ((c == '.' || c == '!' || c == '?') && i + 1 < text.size() && text[i + 1] == ' ') {
      emit(start, i + 1);
      start = i + 1;
    } else if (c == '\xE3' && i + 3 < text.size() && text[i + 1] == '\x80' && text[i + 2] == '\x82') {
      emit(start, i + 3);  // U+3002 ideographic full stop
      start = i + 3;
    }
  }
  emit(start, text.size());
  return out;
}

std::vector<DescriptionPick> Summarize(const std::vector<SentenceWords>& sentences,
                                       const std::vector<uint8_t>& is_content, std::size_t max_chars) {
  // Word ids are dense: per-id arrays instead of hash maps. Only content
  // words are counted, and those are below is_content.size(); a word that
  // is not content has frequency 0, so it adds nothing to a sum and the
  // loops below need no branch on it.
  const std::size_t ids = is_content.size();
  std::vector<uint32_t> frequency(ids, 0);
  for (const SentenceWords& s : sentences) {
    for (uint32_t w : s.words) {
      if (w < ids) frequency[w] += is_content[w] != 0 ? 1 : 0;
    }
  }
  // seen[w] == k + 1: word w already counted for sentence k.
  std::vector<std::size_t> seen(ids, 0);
  struct Candidate {
    std::size_t sentence;
    double score;
  };
  std::vector<Candidate> candidates;
  for (std::size_t k = 0; k < sentences.size(); ++k) {
    const SentenceWords& s = sentences[k];
    if (s.words.size() < kMinSentenceWords) continue;
    uint64_t sum = 0;  // exact: the same double as adding one by one
    for (uint32_t w : s.words) {
      if (w >= ids) continue;
      const uint64_t fresh = seen[w] != k + 1 ? 1 : 0;
      seen[w] = k + 1;
      sum += fresh * frequency[w];
    }
    if (sum == 0) continue;
    candidates.push_back({k, static_cast<double>(sum) / std::sqrt(static_cast<double>(s.words.size()))});
  }
  // Best first; ties keep page order (the sentence index breaks them). A
  // heap, popped only as far as the description fills: a few of a page's
  // sentences, not a sort of all of them (the order is total, so the pops
  // come in the order a sort would give).
  auto worse = [](const Candidate& a, const Candidate& b) {
    return a.score != b.score ? a.score < b.score : a.sentence > b.sentence;
  };
  std::make_heap(candidates.begin(), candidates.end(), worse);
  std::vector<DescriptionPick> picks;
  std::size_t used = 0;
  double best = 0;
  while (!candidates.empty()) {
    std::pop_heap(candidates.begin(), candidates.end(), worse);
    const Candidate c = candidates.back();
    candidates.pop_back();
    const std::string_view text = sentences[c.sentence].text;
    // A UTF-8 character has at most 4 bytes: skip without counting when
    // even that lower bound does not fit.
    if (used + text.size() / 4 + 1 > max_chars) continue;
    const std::size_t len = Utf8Length(text) + 1;
    if (used + len > max_chars) continue;  // a shorter one may still fit
    used += len;
    if (picks.empty()) best = c.score;
    picks.push_back({c.sentence, static_cast<float>(c.score / best)});
    if (used + kMinSentenceWords * 2 > max_chars) break;
  }
  std::sort(picks.begin(), picks.end(),
            [](const DescriptionPick& a, const DescriptionPick& b) { return a.sentence < b.sentence; });
  return picks;
}

}  // namespace crawl::fetcher
