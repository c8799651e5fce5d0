// Link usefulness order and pruning (docs/DESIGN.md §6): a page's links
// are ordered by "effective terms" = terms in the anchor text x (gzipped
// length / raw length) of the anchor text, most first (ties keep page
// order); the first max_kept survive, and a link's position in that order
// is its link_rank (the weight i of docs/DESIGN.md §5.1).
//
// The "gzipped length" is that of the anchor text alone, compressed as
// PHP's gzcompress() does in Yioop's pruneLinks, which this follows: zlib
// format (RFC 1950), DEFLATE level 6 plus 6 bytes of header and trailer.
// Ratio = (compressed + 1) / (raw + 1), as there, so an empty string is
// harmless. (gzip's own 18-byte framing would let one-word anchors such as
// "PDF" outrank descriptive ones; the smaller zlib framing keeps the ratio
// near 1 for varied text.) Repetitive anchor text ("buy buy buy")
// compresses well and so counts for fewer effective terms than varied text
// with as many terms. Terms are tokens of common/text/tokenizer.h. An empty
// anchor (an image without alt, a frame) has 0 effective terms and sorts
// last.
//
// Which links pruning cuts depends on the crawl (common/crawl/link_pruning_mode.h):
// every page's (Yioop), only the links leaving the page's host, or none;
// PruneRanked applies the mode to the usefulness order.
//
// Not thread-safe (the compressor is reused): one LinkPruner per thread.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "common/crawl/link_pruning_mode.h"

namespace crawl::fetcher {

class LinkPruner {
 public:
  LinkPruner();
  ~LinkPruner();
  LinkPruner(const LinkPruner&) = delete;
  LinkPruner& operator=(const LinkPruner&) = delete;

  // Length of `text` compressed as above (zlib format).
  [[nodiscard]] std::size_t GzippedLength(std::string_view text);

  // Effective terms of an anchor text. Anchors repeat from page to page
  // ("Next", "Home", a site's menu), so results are cached (bounded: emptied
  // at kMaxCachedAnchors).
  [[nodiscard]] double EffectiveTerms(std::string_view anchor);

  static constexpr std::size_t kMaxCachedAnchors = 20'000;

  struct Ranked {
    std::size_t index;  // into the input
    double effective_terms;
  };
  // The usefulness order of `anchors` (one per link, in page order), cut to
  // `max_kept`.
  [[nodiscard]] std::vector<Ranked> Rank(const std::vector<std::string_view>& anchors, std::size_t max_kept);
  // The links of `ranked` (the whole usefulness order) that `mode` keeps, in
  // that order: kAll the first `max_kept`; kNone all; kOffsite every link
  // whose `onsite[index]` is true (its host is the page's) and the first
  // `max_kept` of the others. REQUIRES for kOffsite: onsite.size() > every
  // index (the other modes do not read it).
  [[nodiscard]] static std::vector<Ranked> PruneRanked(std::vector<Ranked> ranked,
                                                       const std::vector<bool>& onsite, LinkPruning mode,
                                                       std::size_t max_kept);

 private:
  struct Deflater;
  struct Cache;
  std::unique_ptr<Deflater> deflater_;
  std::unique_ptr<Cache> cache_;
};

}  // namespace crawl::fetcher
