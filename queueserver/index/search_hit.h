// A hit's score (docs/DESIGN.md §8: DFR relevance, proximity, bonus) and its
// snippet from the document's summary.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/text/stemmer.h"
#include "queueserver/index/doc_summary.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"
#include "queueserver/index/search_index.h"
#include "queueserver/index/search_query.h"

namespace crawl::queueserver {

// Distinct clause terms among the stemmed words of `text`, and its word count.
std::pair<uint32_t, uint32_t> MatchWords(std::string_view text, const QueryClause& clause,
                                         text::Stemmer& stemmer);

// Scores `doc`, matched by `clause` with `postings` (clause term order), at
// `doc_rank`: sets hit's doc_rank, relevance, proximity and bonus.
void ScoreHit(const PreparedSearch& p, const QueryClause& clause, const IndexedDoc& doc, double doc_rank,
              const std::vector<const Posting*>& postings, text::Stemmer& stemmer, SearchHit* hit);

// The description sentences that hold a clause term (the first sentence if
// none does), at most 300 bytes; "" for nosnippet pages and link documents.
std::string Snippet(const DocSummary& s, const QueryClause& clause, text::Stemmer& stemmer);

}  // namespace crawl::queueserver
