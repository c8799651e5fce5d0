// One queue server's index of one crawl (DESIGN.md sections 7 and 8): turns
// the fetchers' per-page mini indexes (FetchRecord.mini_index) and the links'
// anchor text into documents, partitions, a doc map, postings and term
// statistics, and answers queries over them.
//
// Storage: every change is handed to an IndexJournal (the ShardWriter, so it
// lands in the same RocksDB WriteBatch as the rest of the request: an applied
// SubmitResults batch is indexed exactly once, across kill -9). Restore()
// rebuilds the index from what the journal wrote. Record layouts are in
// docs/ARCHITECTURE.md "Index and search". The whole index is also held in
// memory for querying.
//
// Documents: a fetched page (status 2xx, not noindex) is a page document; a
// link with anchor text is a small document of its target whose text is the
// anchor text minus stop words (DESIGN.md 7). Doc id (24 bytes, DESIGN.md 4)
// = url hash (8) + type ('p' page, 'l' link) + text hash (7) + host hash (8);
// a doc id already indexed is not indexed again.
//
// Not thread-safe (the service serialises calls); time comes from the clock
// passed to Search.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "fetcher/stemmer.h"
#include "proto/crawl.pb.h"
#include "queueserver/postings_codec.h"
#include "queueserver/search_query.h"
#include "queueserver/search_scoring.h"

namespace crawl::queueserver {

// Index column families (keys below are what follows the crawl id prefix).
enum class IndexFamily {
  kDocs,      // doc id (24) -> zlib(summary)
  kDocMap,    // 'a' partition(4) doc(4) -> document entry; 'r' partition(4) place(4) -> doc(4) (closed partitions)
  kPostings,  // term id (8) partition(4) first doc(4) -> postings chunk (postings_codec.h)
  kTerms,     // term id (8) -> varint documents, varint occurrences
};

// Where index changes go (implemented by ShardWriter).
class IndexJournal {
 public:
  virtual ~IndexJournal() = default;
  virtual void PutIndex(IndexFamily family, const std::string& key, const std::string& value) = 0;
};

// What the store holds, per family: (key without crawl prefix, value) in key
// order.
struct IndexImage {
  std::vector<std::pair<std::string, std::string>> docs, doc_map, postings, terms;
};

struct IndexOptions {
  uint32_t partition_docs = 100'000;  // DESIGN.md 7
  BonusWeights bonus;
  double proximity_weight = 1.0;
  // Region weights of an occurrence in the term frequency f: title, body;
  // a description occurrence adds its sentence's weight to the body's.
  double title_weight = 2.0;
  double body_weight = 1.0;
};

// The summary kept per document (compressed in the docs family).
struct DocSummary {
  std::string url;
  std::string title;
  std::vector<std::string> description;  // sentences
  std::string language;
  bool nosnippet = false;
  bool link = false;
};

struct SearchOptions {
  uint32_t max_matches = 200;  // n of DESIGN.md 8
  int64_t deadline_unix_ms = 0;  // 0: none
};

struct SearchHit {
  std::string url, title, snippet, language;
  uint64_t url_hash = 0, text_hash = 0;
  bool link = false;
  double doc_rank = 0, bonus = 0, relevance = 0, proximity = 0;
  [[nodiscard]] double total() const { return doc_rank + bonus + relevance + proximity; }
};

struct SearchOutcome {
  std::vector<SearchHit> hits;  // best first, at most max_matches
  uint64_t matches = 0;
  bool timed_out = false;
};

class SearchIndex {
 public:
  // `journal` may be null (in memory only); it must outlive the index.
  SearchIndex(IndexOptions options, IndexJournal* journal);

  // Indexes a fetch record if it is an indexable page (see above); returns
  // whether it did.
  bool AddPage(const v1::FetchRecord& record);
  // Indexes a link as a document of its target, its anchor text stemmed for
  // `iso_language` (the linking page's language; "" = English). Returns
  // whether it did (not for empty anchors, redirects, sitemap entries, or
  // anchors made only of stop words).
  bool AddLink(const v1::DiscoveredLink& link, const std::string& iso_language);

  // Rebuilds the index from stored records. On corrupt records returns an
  // error (the index is then unusable).
  [[nodiscard]] Status Restore(const IndexImage& image);

  // Answers `query`: matches walked in doc-rank order until
  // options.max_matches or the deadline, scored (DESIGN.md 8), best first.
  // Host and path words are stemmed with `stemmer` (the query's).
  [[nodiscard]] SearchOutcome Search(const Query& query, const SearchOptions& options, const Clock& clock,
                                     fetcher::Stemmer& stemmer);

  // Writes the postings and term statistics of the documents added since
  // the last Flush to the journal, one postings chunk per term and partition.
  // Call once per request, before committing it.
  void Flush();

  // The summary of the newest document of `url` (page documents first), if
  // any.
  [[nodiscard]] std::optional<DocSummary> Lookup(const std::string& url) const;

  [[nodiscard]] uint64_t documents() const { return documents_; }
  [[nodiscard]] uint64_t partitions() const { return partitions_.size(); }
  [[nodiscard]] fetcher::Stemmer& StemmerFor(const std::string& iso_language) { return stemmers_.For(iso_language); }

  // Words dropped from anchor text (DESIGN.md 7: "click", "here", ...).
  [[nodiscard]] static bool IsAnchorStopWord(std::string_view word);

 private:
  struct Doc {
    std::array<uint8_t, 24> id{};
    uint64_t url_hash = 0, text_hash = 0, host_hash = 0;
    uint32_t length = 0;        // tokens
    uint32_t title_tokens = 0;
    bool link = false;
    std::string url;
  };
  struct Partition {
    std::vector<Doc> docs;
    std::unordered_map<uint64_t, std::vector<Posting>> postings;  // docs ascending
    bool closed = false;
    // Doc map (doc_map.h), computed when needed: place of each doc.
    bool order_valid = false;
    std::vector<uint32_t> place;
  };
  struct TermStats {
    uint64_t docs = 0;
    uint64_t occurrences = 0;
  };
  // One term of a document being added.
  struct NewTerm {
    uint64_t term_id = 0;
    Posting posting;
    uint64_t occurrences = 0;
  };

  void AddDocument(Doc doc, const DocSummary& summary, std::vector<NewTerm> terms);
  Partition& Active();
  void EnsureOrder(Partition& p);
  void ClosePartition(uint32_t index);
  std::string SummaryBytes(const DocSummary& s) const;
  [[nodiscard]] static Result<DocSummary> ParseSummary(std::string_view bytes);
  void ScoreHit(const QueryClause& clause, const Doc& doc, double doc_rank,
                const std::vector<const Posting*>& postings, fetcher::Stemmer& stemmer, SearchHit* hit);
  static std::string Snippet(const DocSummary& s, const QueryClause& clause, fetcher::Stemmer& stemmer);

  IndexOptions options_;
  IndexJournal* journal_;
  std::vector<Partition> partitions_;
  std::unordered_map<uint64_t, TermStats> terms_;
  std::unordered_set<std::string> doc_ids_;
  // Hashes of (target, anchor text, language) already turned into link
  // documents by this process: repeated links (navigation) skip the
  // tokenising and stemming. The doc id check stays the authority.
  std::unordered_set<uint64_t> links_seen_;
  std::unordered_map<std::string, std::string> summaries_;  // doc id -> compressed summary
  // URL -> doc ids of it, newest last.
  std::unordered_map<std::string, std::vector<std::string>> by_url_;
  // Postings added since the last Flush, by (term id, partition): where
  // they start in that partition's list (lists only grow).
  std::map<std::pair<uint64_t, uint32_t>, size_t> pending_;
  uint64_t documents_ = 0;
  uint64_t total_length_ = 0;
  fetcher::StemmerCache stemmers_;
};

}  // namespace crawl::queueserver
