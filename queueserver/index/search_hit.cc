// A hit's score and snippet (search_hit.h).
#include "queueserver/index/search_hit.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "common/text/tokenizer.h"
#include "common/url/cld.h"
#include "common/url/url.h"

namespace crawl::queueserver {
namespace {

constexpr size_t kMaxSnippetChars = 300;

}  // namespace

std::pair<uint32_t, uint32_t> MatchWords(std::string_view text, const QueryClause& clause,
                                         text::Stemmer& stemmer) {
  std::set<size_t> matched;
  uint32_t words = 0;
  text::ForEachToken(text, [&](std::string_view w) {
    ++words;
    const std::string_view stem = stemmer.Stem(w);
    for (size_t t = 0; t < clause.terms.size(); ++t) {
      if (clause.terms[t] == stem) matched.insert(t);
    }
  });
  return {static_cast<uint32_t>(matched.size()), words};
}

void ScoreHit(const PreparedSearch& p, const QueryClause& clause, const IndexedDoc& doc, double doc_rank,
              const std::vector<const Posting*>& postings, text::Stemmer& stemmer, SearchHit* hit) {
  const auto n_docs = static_cast<double>(std::max<uint64_t>(p.documents, 1));
  const double l_avg = static_cast<double>(p.total_length) / n_docs;
  // The crawl's ScoringFilter IndexerScore (IndexedDoc::boost) raises the
  // page's doc rank: Nutch's document boost on Yioop's log10 scale.
  hit->doc_rank = doc_rank + doc.boost;
  hit->relevance = 0;
  std::vector<std::vector<uint32_t>> positions;
  uint32_t title_matched = 0;
  for (size_t t = 0; t < clause.term_ids.size(); ++t) {
    auto stats = p.stats.find(clause.term_ids[t]);
    const PreparedSearch::Stats st = stats == p.stats.end() ? PreparedSearch::Stats{} : stats->second;
    hit->relevance +=
        DfrTerm(postings[t]->frequency, static_cast<double>(st.occurrences), n_docs, doc.length, l_avg);
    positions.push_back(postings[t]->positions);
    if (!postings[t]->positions.empty() && postings[t]->positions.front() < doc.title_tokens) ++title_matched;
  }
  hit->proximity = Proximity(positions, doc.length, p.options.proximity_weight);
  BonusInput in;
  in.title_matched = title_matched;
  // Distinct terms, as title_matched counts distinct query terms (a title
  // repeating a word, "What's New in Python 2.6 - Python 3.11.2
  // documentation", is not a longer title for the bonus).
  in.title_terms = doc.title_terms;
  if (auto parts = url::Split(doc.url); parts.ok()) {
    const std::string path = parts->target.substr(0, parts->target.find('?'));
    in.domain_url = parts->target == "/";
    if (in.domain_url) {
      auto cld = CompanyLevelDomain(parts->host);
      in.cld_url = cld.ok() && (parts->host == *cld || parts->host == "www." + *cld);
    }
    std::tie(in.host_matched, in.host_terms) = MatchWords(parts->host, clause, stemmer);
    std::tie(in.path_matched, in.path_terms) = MatchWords(path, clause, stemmer);
  }
  hit->bonus = Bonus(in, p.options.bonus);
}

std::string Snippet(const DocSummary& s, const QueryClause& clause, text::Stemmer& stemmer) {
  if (s.nosnippet || s.link) return {};
  std::string out;
  for (const std::string& sentence : s.description) {
    if (out.size() >= kMaxSnippetChars) break;
    if (MatchWords(sentence, clause, stemmer).first == 0) continue;
    if (!out.empty()) out += " ... ";
    out += sentence;
  }
  if (out.empty() && !s.description.empty()) out = s.description.front();
  return CutUtf8(std::move(out), kMaxSnippetChars);
}

}  // namespace crawl::queueserver
