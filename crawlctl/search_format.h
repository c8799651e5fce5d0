// How `crawlctl search` prints results: text (optionally with each score's
// parts) or one JSON object. Pure, unit-tested, so scripts can rely on it.
#pragma once

#include <string>

#include "proto/crawl.pb.h"

namespace crawl::crawlctl {

// One JSON object and a newline: crawl_id, matches, documents, timed_out,
// errors, and `results`: objects with url, title, snippet, score, doc_rank,
// bonus, relevance, proximity, link_only, queue_server.
[[nodiscard]] std::string SearchJson(const v1::SearchResponse& response);

// Numbered results: title, URL, snippet; with `explain` also
// "score T = doc rank R + bonus B + relevance D + proximity P".
[[nodiscard]] std::string SearchText(const v1::SearchResponse& response, bool explain);

}  // namespace crawl::crawlctl
