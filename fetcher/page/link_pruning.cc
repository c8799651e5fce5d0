// Effective-terms link order (link_pruning.h).
#include "fetcher/page/link_pruning.h"

#include <algorithm>
#include <string>

#include "common/base/flat_string_map.h"
#include "common/base/string_hash.h"
#include "common/base/zlib_stream.h"
#include "common/text/tokenizer.h"

namespace crawl::fetcher {

// zlib's fixed overhead (RFC 1950): 2-byte header, 4-byte Adler-32 trailer,
// as PHP's gzcompress() produces.
constexpr std::size_t kGzipOverhead = 6;

// A small window and hash table: anchor texts are short (at most a few
// hundred bytes), and deflateReset clears the hash table on every call, so
// zlib's default 64 KiB table would cost more than the compression itself.
// The compressed lengths differ from zlib's defaults by a byte or two.
struct LinkPruner::Deflater {
  crawl::Deflater raw{{.format = ZlibFormat::kRaw, .level = 6, .window_log = 10, .mem_level = 1}};
};

struct LinkPruner::Cache {
  FlatStringMap<double> effective_terms;
};

LinkPruner::LinkPruner() : deflater_(std::make_unique<Deflater>()), cache_(std::make_unique<Cache>()) {}
LinkPruner::~LinkPruner() = default;

std::size_t LinkPruner::GzippedLength(std::string_view text) {
  const Result<std::size_t> deflated = deflater_->raw.CompressedSize(text);
  // If zlib cannot start: stored, as if incompressible.
  return (deflated.ok() ? *deflated : text.size()) + kGzipOverhead;
}

double LinkPruner::EffectiveTerms(std::string_view anchor) {
  auto& cache = cache_->effective_terms;
  const uint64_t hash = ShortStringHash(anchor);
  if (const double* known = cache.Find(anchor, hash)) return *known;
  std::size_t terms = 0;
  text::ForEachToken(anchor, [&](std::string_view) { ++terms; });
  const double value = terms == 0
                           ? 0.0
                           : static_cast<double>(terms) * static_cast<double>(GzippedLength(anchor) + 1) /
                                 static_cast<double>(anchor.size() + 1);
  if (cache.size() >= kMaxCachedAnchors) cache.clear();
  *cache.Insert(anchor, hash).first = value;
  return value;
}

std::vector<LinkPruner::Ranked> LinkPruner::Rank(const std::vector<std::string_view>& anchors,
                                                 std::size_t max_kept) {
  std::vector<Ranked> ranked;
  ranked.reserve(anchors.size());
  for (std::size_t i = 0; i < anchors.size(); ++i) ranked.push_back({i, EffectiveTerms(anchors[i])});
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Ranked& a, const Ranked& b) { return a.effective_terms > b.effective_terms; });
  if (ranked.size() > max_kept) ranked.resize(max_kept);
  return ranked;
}

std::vector<LinkPruner::Ranked> LinkPruner::PruneRanked(std::vector<Ranked> ranked,
                                                        const std::vector<bool>& onsite, LinkPruning mode,
                                                        std::size_t max_kept) {
  switch (mode) {
    case LinkPruning::kNone:
      return ranked;
    case LinkPruning::kAll:
      if (ranked.size() > max_kept) ranked.resize(max_kept);
      return ranked;
    case LinkPruning::kOffsite:
      break;
  }
  std::size_t offsite_kept = 0;
  std::erase_if(ranked, [&](const Ranked& r) { return !onsite[r.index] && ++offsite_kept > max_kept; });
  return ranked;
}

}  // namespace crawl::fetcher
