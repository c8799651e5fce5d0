// How `crawlctl search` prints results: text (optionally with each score's
// parts) or one JSON object. Pure, unit-tested, so scripts can rely on it.
#pragma once

#include <string>

#include "proto/crawl.pb.h"

namespace crawl::crawlctl {

// One JSON object and a newline: crawl_id, matches, documents, timed_out,
// errors, and `results`: objects with url, title, snippet, score, doc_rank,
// bonus, relevance, proximity, link_only, queue_server, similar_pages (other
// pages of its near-duplicate cluster folded into it) and
// near_duplicate_cluster (16 hex digits, "" for none).
[[nodiscard]] std::string SearchJson(const v1::SearchResponse& response);

// Numbered results: title, URL, snippet; with `explain` also
// "score T = doc rank R + bonus B + relevance D + proximity P"; "N similar
// pages" under a result that stands for other pages of its cluster.
[[nodiscard]] std::string SearchText(const v1::SearchResponse& response, bool explain);

// A cluster key as 16 lower-case hex digits ("" for 0).
[[nodiscard]] std::string ClusterHex(uint64_t cluster);

// `crawlctl near-duplicates --json`: one JSON object and a newline: errors,
// and `clusters`: objects with cluster (hex), url (the first page), pages
// and sample_urls.
[[nodiscard]] std::string NearDuplicatesJson(const v1::NearDuplicateClustersResponse& response);

// Numbered clusters, largest first: "N pages like URL" and sample URLs.
[[nodiscard]] std::string NearDuplicatesText(const v1::NearDuplicateClustersResponse& response);

}  // namespace crawl::crawlctl
