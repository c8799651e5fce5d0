// Query parser (search_query.h).
#include "queueserver/index/search_query.h"

#include <algorithm>

#include "common/base/hash.h"
#include "common/text/stemmer.h"
#include "common/text/tokenizer.h"

namespace crawl::queueserver {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Splits on `|` outside double quotes.
std::vector<std::string_view> SplitAlternatives(std::string_view text) {
  std::vector<std::string_view> out;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    if (text[i] == '|' && !quoted) {
      out.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(text.substr(start));
  return out;
}

size_t AddTerm(QueryClause* c, text::Stemmer& stemmer, std::string_view word) {
  std::string stem(stemmer.Stem(word));
  c->words.emplace_back(word);
  auto it = std::find(c->terms.begin(), c->terms.end(), stem);
  if (it != c->terms.end()) return static_cast<size_t>(it - c->terms.begin());
  c->term_ids.push_back(hash::Hash8(stem));
  c->terms.push_back(std::move(stem));
  return c->terms.size() - 1;
}

Result<QueryClause> ParseClause(std::string_view text, text::Stemmer& stemmer, text::CaseFolding folding) {
  QueryClause c;
  size_t i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
      ++i;
      continue;
    }
    if (ch == '"') {
      size_t end = text.find('"', i + 1);
      if (end == std::string_view::npos) end = text.size();  // unclosed: to the end
      std::vector<size_t> phrase;
      text::ForEachToken(text.substr(i + 1, end - i - 1), folding,
                         [&](std::string_view w) { phrase.push_back(AddTerm(&c, stemmer, w)); });
      if (phrase.size() > 1) c.phrases.push_back(std::move(phrase));
      i = end + 1;
      continue;
    }
    size_t end = text.find_first_of(" \t\r\n\"", i);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(i, end - i);
    if (word.size() >= 5 && Lower(word.substr(0, 5)) == "site:") {
      std::string host = Lower(word.substr(5));
      while (!host.empty() && (host.back() == '/' || host.back() == '.')) host.pop_back();
      if (host.empty()) return Status::InvalidArgument("site: needs a host name");
      c.sites.push_back(std::move(host));
    } else {
      text::ForEachToken(word, folding, [&](std::string_view w) { AddTerm(&c, stemmer, w); });
    }
    i = end;
  }
  return c;
}

}  // namespace

Result<Query> ParseQuery(std::string_view text, text::Stemmer& stemmer, text::CaseFolding folding) {
  if (text.size() > kMaxQueryBytes)
    return Status::InvalidArgument("query longer than " + std::to_string(kMaxQueryBytes) + " bytes");
  Query q;
  size_t terms = 0;
  for (std::string_view alt : SplitAlternatives(text)) {
    auto clause = ParseClause(alt, stemmer, folding);
    if (!clause.ok()) return clause.status();
    if (clause->terms.empty() && clause->sites.empty()) continue;  // "a | | b"
    if (clause->terms.empty())
      return Status::InvalidArgument("a site: restriction needs words to search for");
    terms += clause->terms.size();
    q.clauses.push_back(std::move(*clause));
  }
  if (q.clauses.empty()) return Status::InvalidArgument("empty query");
  if (terms > kMaxQueryTerms)
    return Status::InvalidArgument("more than " + std::to_string(kMaxQueryTerms) + " query terms");
  return q;
}

}  // namespace crawl::queueserver
