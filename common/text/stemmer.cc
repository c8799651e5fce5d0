// Snowball stemming over libstemmer (stemmer.h).
#include "common/text/stemmer.h"

#include <libstemmer.h>

#include <utility>

namespace crawl::text {
namespace {

// ISO 639-1 code -> libstemmer algorithm; each algorithm's first code is
// the one StemmedLanguages names.
constexpr std::pair<std::string_view, std::string_view> kAlgorithms[] = {
    {"ar", "arabic"},    {"hy", "armenian"},   {"eu", "basque"},    {"ca", "catalan"},    {"da", "danish"},
    {"nl", "dutch"},     {"en", "english"},    {"fi", "finnish"},   {"fr", "french"},     {"de", "german"},
    {"el", "greek"},     {"hi", "hindi"},      {"hu", "hungarian"}, {"id", "indonesian"}, {"ga", "irish"},
    {"it", "italian"},   {"lt", "lithuanian"}, {"ne", "nepali"},    {"no", "norwegian"},  {"nb", "norwegian"},
    {"nn", "norwegian"}, {"pt", "portuguese"}, {"ro", "romanian"},  {"ru", "russian"},    {"sr", "serbian"},
    {"es", "spanish"},   {"sv", "swedish"},    {"ta", "tamil"},     {"tr", "turkish"},    {"yi", "yiddish"}};

}  // namespace

std::string_view SnowballAlgorithm(std::string_view iso) {
  for (const auto& [code, name] : kAlgorithms) {
    if (code == iso) return name;
  }
  return {};
}

std::vector<std::string_view> StemmedLanguages() {
  std::vector<std::string_view> out;
  std::string_view previous;
  for (const auto& [code, name] : kAlgorithms) {
    if (name != previous) out.push_back(code);
    previous = name;
  }
  return out;
}

Stemmer::Stemmer(std::string_view iso_language) {
  const std::string_view algorithm = SnowballAlgorithm(iso_language);
  if (algorithm.empty()) return;
  // The names above are string literals: NUL-terminated.
  stemmer_ = sb_stemmer_new(algorithm.data(), "UTF_8");
  if (stemmer_ != nullptr) algorithm_ = algorithm;
}

Stemmer::~Stemmer() {
  if (stemmer_ != nullptr) sb_stemmer_delete(stemmer_);
}

std::string_view Stemmer::Stem(std::string_view word) {
  if (stemmer_ == nullptr) return word;
  const sb_symbol* out = sb_stemmer_stem(stemmer_, reinterpret_cast<const sb_symbol*>(word.data()),
                                         static_cast<int>(word.size()));
  if (out == nullptr) return word;  // out of memory in libstemmer: keep the word
  return std::string_view(reinterpret_cast<const char*>(out),
                          static_cast<std::size_t>(sb_stemmer_length(stemmer_)));
}

Stemmer& StemmerCache::For(std::string_view iso_language) {
  auto it = stemmers_.find(iso_language);
  if (it == stemmers_.end()) {
    it = stemmers_.emplace(std::string(iso_language), std::make_unique<Stemmer>(iso_language)).first;
  }
  return *it->second;
}

}  // namespace crawl::text
