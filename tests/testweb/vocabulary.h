// The words pages are written in: a fixed vocabulary (common English words
// followed by made-up words) drawn with Zipf frequencies, and a list of topic
// words from which each host gets a few of its own, so that searches over a
// crawl find something meaningful (docs/DESIGN.md §10).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tests/testweb/rng.h"
#include "tests/testweb/zipf.h"

namespace crawl::testweb {

// Immutable after construction; safe to share between threads. Identical
// for every seed (the seed changes which words a page uses, not the words).
class Vocabulary {
 public:
  // `size` words in total (common ones first, then made-up ones), drawn with
  // Zipf exponent `exponent`.
  explicit Vocabulary(uint32_t size = 1000, double exponent = 1.0);

  // A word drawn with Zipf frequencies (rank 0 most frequent).
  [[nodiscard]] std::string_view Draw(Rng& rng) const { return words_[sampler_.Sample(rng)]; }
  [[nodiscard]] std::string_view Word(uint32_t rank) const { return words_[rank]; }
  [[nodiscard]] uint32_t size() const { return static_cast<uint32_t>(words_.size()); }

  // Topic words: a separate list; a host picks a few by index.
  [[nodiscard]] static uint32_t TopicCount();
  [[nodiscard]] static std::string_view Topic(uint32_t i);

 private:
  std::vector<std::string> words_;
  ZipfSampler sampler_;
};

}  // namespace crawl::testweb
