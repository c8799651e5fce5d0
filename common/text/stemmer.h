// Snowball stemming by language (docs/DESIGN.md §6), over libstemmer
// (Debian libstemmer-dev, UTF-8 encoding).
//
// Thread-safety: a Stemmer is not thread-safe (libstemmer keeps state per
// stemmer); use one per thread (StemmerCache does).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct sb_stemmer;

namespace crawl::text {

// The Snowball algorithm for an ISO 639-1 code ("en" -> "english"); "" when
// libstemmer has none for it.
[[nodiscard]] std::string_view SnowballAlgorithm(std::string_view iso_language);

// One ISO 639-1 code for each Snowball algorithm libstemmer has ("ar",
// "hy", ... "yi"), in a fixed order.
[[nodiscard]] std::vector<std::string_view> StemmedLanguages();

class Stemmer {
 public:
  // A stemmer for `iso_language`; ok() is false when there is none (Stem
  // then returns its input).
  explicit Stemmer(std::string_view iso_language);
  ~Stemmer();
  Stemmer(const Stemmer&) = delete;
  Stemmer& operator=(const Stemmer&) = delete;

  [[nodiscard]] bool ok() const { return stemmer_ != nullptr; }
  // "english", or "" when !ok().
  [[nodiscard]] std::string_view algorithm() const { return algorithm_; }

  // The stem of a lower-cased UTF-8 word. The view is valid until the next
  // call on this stemmer.
  [[nodiscard]] std::string_view Stem(std::string_view word);

 private:
  sb_stemmer* stemmer_ = nullptr;
  std::string_view algorithm_;
};

// One Stemmer per language, created on first use. Not thread-safe: one per
// thread.
class StemmerCache {
 public:
  [[nodiscard]] Stemmer& For(std::string_view iso_language);

 private:
  std::map<std::string, std::unique_ptr<Stemmer>, std::less<>> stemmers_;
};

}  // namespace crawl::text
