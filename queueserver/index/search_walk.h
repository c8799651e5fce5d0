// The walk of a prepared search (SearchIndex::Run, docs/DESIGN.md §8): per
// clause, a title pass and an ordinary pass over every partition's matches
// in doc-rank order (at most max_matches a clause), each match scored and
// the best one per document kept; then the best hits get their summaries
// and snippets.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/base/clock.h"
#include "common/base/status.h"
#include "common/text/stemmer.h"
#include "queueserver/index/postings_codec.h"
#include "queueserver/index/search_index.h"

namespace crawl::queueserver {

// One use: construct, then Run once. Reads only the prepared search (see
// PreparedSearch), which, with `options`, `clock` and `stemmer`, must
// outlive it; `stemmer` must not be in use by another thread.
class SearchWalk {
 public:
  SearchWalk(const PreparedSearch& prepared, const SearchOptions& options, const Clock& clock,
             text::Stemmer& stemmer);
  [[nodiscard]] Result<SearchOutcome> Run();

 private:
  // A document's best scoring clause so far.
  struct Found {
    SearchHit hit;
    std::array<uint8_t, 24> id{};
    size_t clause = 0;
  };
  // One partition's walk of one clause: a reader per clause term over its
  // blocked list (doc numbers are places, so a walk in place order is a walk
  // in doc-rank order), positioned on the partition's next match.
  struct PartitionWalk {
    uint32_t part = 0, size = 0;
    uint64_t later_docs = 0;         // documents in the partitions after this one
    std::vector<std::string> lists;  // clause term order
    std::vector<BlockedReader> readers;
    std::vector<size_t> lead;  // reader indexes, shortest list first
    uint32_t place = 0;
  };

  // Both passes of clause `c`: first the pages whose title holds every
  // clause term (the terms' title postings), then the ordinary lists; both
  // in doc-rank order, together at most `wanted_` matches. A known item's
  // page late in doc-rank order is reached although its words (a site's
  // name on every page) match `wanted_` pages before it.
  [[nodiscard]] Status WalkClause(size_t c);
  // One pass of clause `c` over the lists of `ids` (title keys in pass 0,
  // the terms in pass 1): every partition's matches merged by doc rank.
  [[nodiscard]] Status WalkPass(size_t c, int pass, const std::vector<uint64_t>& ids);
  // The walks of the partitions where every list of `ids` is present and
  // they have a match, each on its first match. `walks` is reserved for
  // every partition, so its readers' lists stay put.
  [[nodiscard]] Status OpenWalks(const std::vector<uint64_t>& ids, std::vector<PartitionWalk>* walks) const;
  // Clause `c` matched at `w`'s place with `postings`: kept unless a
  // phrase, the title pass (pass 1 skips its documents) or a site filter
  // rejects it; scored, and the document's best clause kept.
  [[nodiscard]] Status TakeMatch(size_t c, int pass, const PartitionWalk& w,
                                 const std::vector<const Posting*>& postings);
  // Whether the deadline passed (looked at every 256th step).
  bool PastDeadline(uint64_t* steps) const;
  // The best `wanted_` hits, best first, with titles, languages, snippets.
  [[nodiscard]] Status CollectHits();

  // Leapfrog: moves every reader to the first place >= `from` they all hold.
  static bool NextMatch(PartitionWalk& w, uint32_t from);
  static bool AnyCorrupt(const PartitionWalk& w);
  static double RankOf(const PartitionWalk& w);

  const PreparedSearch& p_;
  const SearchOptions& options_;
  const Clock& clock_;
  text::Stemmer& stemmer_;
  const uint32_t wanted_;
  SearchOutcome out_;
  std::unordered_map<uint64_t, Found> found_;  // (partition << 32 | place) -> best scoring clause
  // The clause being walked: keys its title pass matched, and its matches.
  std::unordered_set<uint64_t> title_found_;
  uint32_t clause_matches_ = 0;
};

}  // namespace crawl::queueserver
