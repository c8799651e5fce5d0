// Search query language (docs/DESIGN.md §8, after Yioop): words are
// conjunctive; "an exact phrase" in double quotes; `|` separates
// alternatives (each a conjunction); `site:host` keeps results whose host is
// host or one of its subdomains. Words are tokenised like page text
// (common/text/tokenizer.h) and stemmed like documents (common/text/stemmer.h).
// Pure; bad input gives an error, never a crash.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "common/text/tokenizer.h"

namespace crawl::text {
class Stemmer;
}

namespace crawl::queueserver {

// One alternative: every term must be in the document, every phrase must
// occur as consecutive positions, and the host must match one of `sites`
// (when any).
struct QueryClause {
  // Distinct stemmed terms (words and phrase words), in query order.
  std::vector<std::string> terms;
  std::vector<uint64_t> term_ids;  // Hash8 of each term (docs/DESIGN.md §4)
  // Each phrase as indexes into `terms`, in phrase order (repeats allowed).
  std::vector<std::vector<size_t>> phrases;
  std::vector<std::string> sites;  // lower-case hosts
  // The raw lower-cased words, for snippets.
  std::vector<std::string> words;
};

struct Query {
  std::vector<QueryClause> clauses;
};

inline constexpr size_t kMaxQueryBytes = 4096;
// A clause of 20 Chinese or Japanese characters is 39 distinct terms (each
// character and each neighbour pair, common/text/tokenizer.h): 64 lets a
// quoted clause of a sentence be searched (up to 32 characters).
inline constexpr size_t kMaxQueryTerms = 64;

// Parses `text`, stemming words with `stemmer` (which returns its input when
// it has no algorithm) after cutting and folding them as pages of the query's
// language are (`folding`: text::CaseFoldingFor(language)). Errors: empty
// query, too long, too many terms, a clause with no words and no site.
[[nodiscard]] Result<Query> ParseQuery(std::string_view text, text::Stemmer& stemmer,
                                       text::CaseFolding folding = text::CaseFolding::kDefault);

}  // namespace crawl::queueserver
