// How much importance a crawl gathered early (docs/DESIGN.md §10, issue
// "ground truth"): given the PageRank of every reachable URL (the truth
// file of `testweb export --truth`) and a crawl's fetched URLs in fetch
// order, the cumulative PageRank captured after each k pages. A URL counts
// once, when first fetched; URLs the truth does not list (robots.txt,
// pages outside the reachable graph) count as pages with rank 0.
// `testweb pagerank-captured` is the command-line face of this file.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/base/status.h"

namespace crawl::testweb {

// URL -> PageRank, from truth lines "URL\tKIND\tDEPTH\tPAGERANK".
using RankTable = std::unordered_map<std::string, double>;

// InvalidArgument "truth:N: ..." for a malformed line (N from 1); blank
// lines are skipped.
[[nodiscard]] Result<RankTable> ParseTruthRanks(std::istream& in);

// The fetched URLs of a crawl, one per line, in fetch order. A line with
// tab-separated fields (e.g. `crawlctl log`) gives its first field that
// starts with "http://" or "https://". Lines whose URL path is /robots.txt
// are skipped (not pages); so are blank lines. InvalidArgument
// "fetched:N: ..." for a non-blank line with no URL.
[[nodiscard]] Result<std::vector<std::string>> ParseFetched(std::istream& in);

struct CapturedPoint {
  uint64_t pages = 0;   // k: pages fetched so far
  double captured = 0;  // sum of the ranks of the distinct URLs among them
};

// One point after every `every` pages, plus one after the last page if the
// count is not a multiple of `every`. REQUIRES: every >= 1. Pure.
[[nodiscard]] std::vector<CapturedPoint> CapturedPageRank(const RankTable& ranks,
                                                          const std::vector<std::string>& fetched,
                                                          uint64_t every = 1);

}  // namespace crawl::testweb
