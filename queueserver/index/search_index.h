// One queue server's index of one crawl (docs/DESIGN.md §7 and §8): turns
// the fetchers' per-page mini indexes (FetchRecord.mini_index) and the links'
// anchor text into documents, partitions, a doc map, postings and term
// statistics, and answers queries over them.
//
// Storage: every change is handed to an IndexJournal (index_journal.h; the
// ShardWriter, so it lands in the same RocksDB WriteBatch as the rest of the
// request: an applied SubmitResults batch is indexed exactly once, across
// kill -9). Queries read postings, doc map entries and summaries from the
// journal (RocksDB): in memory are only the totals, the term statistics, the
// active partition's doc map keys (16 bytes a document) and per-request
// buffers. Load() picks up what the journal holds. Record layouts are in
// docs/ARCHITECTURE.md "Index and search".
//
// Documents: a fetched page (status 2xx, not noindex) is a page document; a
// link with anchor text is a small document of its target whose text is the
// anchor text minus stop words (docs/DESIGN.md §7). Doc id (24 bytes, docs/DESIGN.md §4)
// = url hash (8) + type ('p' page, 'l' link) + text hash (7) + host hash (8);
// a doc id already indexed is not indexed again.
//
// SearchIndex is the facade over the parts that do the work, which share
// an IndexMemory (index_memory.h): IndexBuilder (index_builder.h: documents
// and postings in), LivenessTracker (page_liveness.h: which version of a
// URL answers), IndexLoader (index_load.h), PartitionMerger (index_merge.h)
// and IndexCompactor (index_compact.h: closed partitions rewritten and dead
// documents dropped), SearchPreparer (search_prepare.h) and SearchWalk
// (search_walk.h: a search taken, then walked).
//
// Not thread-safe (the service serialises calls, and so guards every part),
// except SearchIndex::Run on a PreparedSearch, which needs no index: the
// service walks searches outside its lock. Time comes from the clock passed
// to Search/Run.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/base/clock.h"
#include "common/base/flat_string_map.h"
#include "common/base/flat_u64_set.h"
#include "common/base/status.h"
#include "common/base/string_hash.h"
#include "common/text/packed_terms.h"
#include "common/text/stemmer.h"
#include "proto/crawl.pb.h"
#include "queueserver/index/doc_map.h"
#include "queueserver/index/doc_summary.h"
#include "queueserver/index/index_builder.h"
#include "queueserver/index/index_compact.h"
#include "queueserver/index/index_journal.h"
#include "queueserver/index/index_memory.h"
#include "queueserver/index/index_merge.h"
#include "queueserver/index/index_options.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/page_liveness.h"
#include "queueserver/index/postings_codec.h"
#include "queueserver/index/search_prepare.h"
#include "queueserver/index/search_query.h"
#include "queueserver/index/search_scoring.h"

namespace crawl::queueserver {

struct SearchOptions {
  uint32_t max_matches = 200;    // n of docs/DESIGN.md §8
  int64_t deadline_unix_ms = 0;  // 0: none
};

struct SearchHit {
  std::string url, title, snippet, language;
  // url_hash is the grouping key: Hash8 of canonical_url when the page
  // names another canonical (its copies group under it), else of url.
  uint64_t url_hash = 0, text_hash = 0;
  std::string canonical_url;
  std::vector<std::pair<std::string, std::string>> alternates;  // (hreflang, url)
  uint64_t near_duplicate_cluster = 0;                          // DocSummary's (0: none)
  bool link = false;
  double doc_rank = 0, bonus = 0, relevance = 0, proximity = 0;
  [[nodiscard]] double total() const { return doc_rank + bonus + relevance + proximity; }
};

struct SearchOutcome {
  std::vector<SearchHit> hits;  // best first, at most max_matches
  uint64_t matches = 0;
  bool timed_out = false;
};

// A search taken from the index (SearchIndex::Prepare) with everything its
// walk needs: the query, the totals, the term statistics of its terms, the
// partitions' sizes, the lists of its terms in unmerged partitions (from
// memory) and a snapshot of the stored records. It refers to nothing of the
// index, so SearchIndex::Run may walk it while the index takes new
// documents (queueserver/service.cc runs it outside the service lock).
struct PreparedSearch {
  struct Part {
    uint32_t docs = 0;
    bool closed = false, merged = false;
  };
  struct Stats {
    uint64_t docs = 0, occurrences = 0;
  };
  Query query;
  IndexOptions options;
  uint64_t documents = 0, total_length = 0;
  std::vector<Part> parts;
  // The active partition's document at each place (the last partition).
  std::shared_ptr<const std::vector<uint32_t>> active_at;
  std::unordered_map<uint64_t, Stats> stats;  // known terms and title keys of the query
  // (partition, term id) -> blocked list, for partitions not merged.
  std::map<std::pair<uint32_t, uint64_t>, std::string> memory_lists;
  std::shared_ptr<const IndexSnapshot> snapshot;
};

class SearchIndex {
 public:
  // `journal` may be null (then a MemoryIndexJournal of its own); it must
  // outlive the index.
  SearchIndex(IndexOptions options, IndexJournal* journal);
  ~SearchIndex();
  SearchIndex(const SearchIndex&) = delete;
  SearchIndex& operator=(const SearchIndex&) = delete;

  // Indexes a fetch record if it is an indexable page (see above); returns
  // whether it did. `boost` (the crawl's ScoringFilter IndexerScore; finite,
  // clamped to [0, 10]) is added to the page's doc rank when it is found.
  bool AddPage(const v1::FetchRecord& record, double boost = 0);
  // Indexes a link as a document of its target, its anchor text stemmed for
  // `iso_language` (the linking page's language; "" = English). Returns
  // whether it did (not for empty anchors, redirects, sitemap entries, or
  // anchors made only of stop words).
  bool AddLink(const v1::DiscoveredLink& link, std::string_view iso_language);

  // Reads what the journal holds (totals, partitions, the active
  // partition's doc map, term statistics); postings and summaries stay in
  // the journal. On corrupt records returns an error.
  [[nodiscard]] Status Load();

  // Answers `query`: matches walked in doc-rank order until
  // options.max_matches or the deadline, scored (docs/DESIGN.md §8), best first.
  // Host and path words are stemmed with `stemmer` (the query's). Postings
  // are read from the journal; corrupt records are an error. Documents added
  // since the last Flush are flushed first.
  [[nodiscard]] Result<SearchOutcome> Search(const Query& query, const SearchOptions& options,
                                             const Clock& clock, text::Stemmer& stemmer);
  // Search in two steps: Prepare (flushes, then copies what the walk needs
  // from memory and snapshots the store; REQUIRES: the caller's exclusive
  // access to the index, as every other method) and Run (the walk, reading
  // only `prepared`: thread-safe, needs neither the index nor a lock; sees
  // the index as it was at Prepare). `stemmer` must not be in use by another
  // thread (the index's own are, by indexing: give Run a Stemmer of its own).
  [[nodiscard]] Result<std::shared_ptr<const PreparedSearch>> Prepare(const Query& query);
  [[nodiscard]] static Result<SearchOutcome> Run(const PreparedSearch& prepared, const SearchOptions& options,
                                                 const Clock& clock, text::Stemmer& stemmer);

  // Writes the postings and term statistics of the documents added since
  // the last Flush to the journal, one postings chunk per term and partition.
  // Call once per request, before committing it.
  void Flush();

  // Rewrites each closed partition's postings chunks as one blocked list per
  // term in doc-map order (WriteIndexNow). Call after the request that
  // closed it is committed; a partition not merged yet (a failure, a kill)
  // is still searched from its chunks and merged at the next call.
  // Then, when the dead documents awaiting compaction reach
  // options.compact_share of the live ones, Compact.
  [[nodiscard]] Status MergeClosed();
  // A merge, or a compaction, is due.
  [[nodiscard]] bool merge_pending() const;
  // Compaction of dead documents (index_compact.h): a page document whose
  // URL's liveness record names another version loses its postings, its
  // summary (kDocs) and its doc map entries ('a', 'r'); a merge drops
  // those of its partition, Compact those of every merged partition (one
  // atomic write a partition). Kept: the version a record names (live or
  // removed: RevivePage brings it back) and link documents. A version
  // compacted and seen again is indexed as a new document. Term statistics
  // and totals still count the compacted documents (so scores do not move).
  [[nodiscard]] Status Compact();
  // Dead documents counted since the last Compact (an upper bound of those
  // in merged partitions), and documents compacted so far.
  [[nodiscard]] uint64_t garbage() const { return memory_.garbage; }
  [[nodiscard]] uint64_t compacted() const { return memory_.compacted; }

  [[nodiscard]] uint64_t documents() const { return memory_.documents; }
  [[nodiscard]] uint64_t partitions() const { return memory_.partitions.size(); }
  [[nodiscard]] text::Stemmer& StemmerFor(const std::string& iso_language) {
    return builder_.StemmerFor(iso_language);
  }

  // The index follows the web (index_records.h
  // PageLiveness). AddPage makes the page document it adds (or finds
  // already indexed) the URL's one live page document, in the request's
  // batch: the URL's earlier version stops answering. RemovePage takes the
  // URL's page (and its link documents) out of search results (a page gone
  // 404/410 twice, moved 301/308, or now noindex); RevivePage brings a
  // removed page back when a revisit finds its content unchanged (304, same
  // digest). Both return whether they changed anything. Term statistics
  // still count the documents no longer live.
  bool RemovePage(const std::string& url);
  bool RevivePage(const std::string& url);
  // Since this process took the index: versions replaced by a newer one,
  // pages removed.
  [[nodiscard]] uint64_t pages_replaced() const { return liveness_.pages_replaced(); }
  [[nodiscard]] uint64_t pages_removed() const { return liveness_.pages_removed(); }
  // Pages AddPage did not index because their mini index's `postings` were
  // malformed (input from another process).
  [[nodiscard]] uint64_t pages_rejected() const { return builder_.pages_rejected(); }
  // Bytes of postings segments Load could not read back
  // (IndexJournal::ScanSegments): their documents are in the doc map but
  // in no postings list.
  [[nodiscard]] uint64_t segment_bytes_lost() const { return memory_.segment_bytes_lost; }

  // Words dropped from anchor text (docs/DESIGN.md §7: "click", "here", ...).
  [[nodiscard]] static bool IsAnchorStopWord(std::string_view word);

 private:
  static IndexOptions WithDefaults(IndexOptions options);

  IndexOptions options_;
  std::unique_ptr<MemoryIndexJournal> own_journal_;
  IndexJournal* journal_;
  // The parts, each with one job, sharing memory_ (declared first: the
  // others refer to it).
  IndexMemory memory_;
  LivenessTracker liveness_;
  IndexBuilder builder_;
  IndexCompactor compactor_;
  PartitionMerger merger_;
  SearchPreparer preparer_;
};

}  // namespace crawl::queueserver
