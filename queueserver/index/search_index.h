// One queue server's index of one crawl (docs/DESIGN.md §7 and §8): turns
// the fetchers' per-page mini indexes (FetchRecord.mini_index) and the links'
// anchor text into documents, partitions, a doc map, postings and term
// statistics, and answers queries over them.
//
// Storage: every change is handed to an IndexJournal (the ShardWriter, so it
// lands in the same RocksDB WriteBatch as the rest of the request: an applied
// SubmitResults batch is indexed exactly once, across kill -9). Queries read
// postings, doc map entries and summaries from the journal (RocksDB): in
// memory are only the totals, the term statistics, the active partition's
// doc map keys (16 bytes a document) and per-request buffers. Load() picks
// up what the journal holds. Record layouts are in docs/ARCHITECTURE.md
// "Index and search".
//
// Documents: a fetched page (status 2xx, not noindex) is a page document; a
// link with anchor text is a small document of its target whose text is the
// anchor text minus stop words (docs/DESIGN.md §7). Doc id (24 bytes, docs/DESIGN.md §4)
// = url hash (8) + type ('p' page, 'l' link) + text hash (7) + host hash (8);
// a doc id already indexed is not indexed again.
//
// Not thread-safe (the service serialises calls), except SearchIndex::Run
// on a PreparedSearch, which needs no index: the service walks searches
// outside its lock. Time comes from the clock passed to Search/Run.
#pragma once

#include <array>
#include <functional>
#include <tuple>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
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
#include "queueserver/index/index_journal.h"
#include "queueserver/index/index_options.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"
#include "queueserver/index/search_query.h"
#include "queueserver/index/search_scoring.h"

namespace crawl::queueserver {

struct SearchOptions {
  uint32_t max_matches = 200;  // n of docs/DESIGN.md §8
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
  [[nodiscard]] Result<SearchOutcome> Search(const Query& query, const SearchOptions& options, const Clock& clock,
                                             text::Stemmer& stemmer);
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
  // Compaction of dead documents (index_compact.cc): a page document whose
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
  [[nodiscard]] uint64_t garbage() const { return garbage_; }
  [[nodiscard]] uint64_t compacted() const { return compacted_; }

  [[nodiscard]] uint64_t documents() const { return documents_; }
  [[nodiscard]] uint64_t partitions() const { return partitions_.size(); }
  [[nodiscard]] text::Stemmer& StemmerFor(const std::string& iso_language) { return stemmers_.For(iso_language); }

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
  [[nodiscard]] uint64_t pages_replaced() const { return pages_replaced_; }
  [[nodiscard]] uint64_t pages_removed() const { return pages_removed_; }
  // Pages AddPage did not index because their mini index's `postings` were
  // malformed (input from another process).
  [[nodiscard]] uint64_t pages_rejected() const { return pages_rejected_; }
  // Bytes of postings segments Load could not read back
  // (IndexJournal::ScanSegments): their documents are in the doc map but
  // in no postings list.
  [[nodiscard]] uint64_t segment_bytes_lost() const { return segment_bytes_lost_; }

  // Words dropped from anchor text (docs/DESIGN.md §7: "click", "here", ...).
  [[nodiscard]] static bool IsAnchorStopWord(std::string_view word);

 private:
  using Doc = IndexedDoc;
  struct Partition {
    uint32_t docs = 0;
    bool closed = false;
    bool merged = false;
  };
  // The active partition's doc map keys (arrival order) and, computed when
  // needed, the place of each document and the document at each place.
  struct Active {
    std::vector<DocMapKey> keys;
    bool order_valid = false;
    std::vector<uint32_t> place;
    // Shared with prepared searches (PreparedSearch::active_at); replaced,
    // never changed, when the order is recomputed.
    std::shared_ptr<const std::vector<uint32_t>> at;
  };
  // A term's postings in one unmerged partition (EncodePostings form,
  // arrival order) and their share of the term statistics.
  struct TermList {
    std::string bytes;
    int64_t last = -1;
    uint32_t docs = 0;
    uint64_t occurrences = 0;
  };
  struct TermStats {
    uint64_t docs = 0;
    uint64_t occurrences = 0;
    // This term's slot in pending_ when pending_[pending].term_id is this
    // term and pending < pending_used_ (else it has no postings pending).
    uint32_t pending = UINT32_MAX;
    // The term's list in active_lists_ when active_part is the active
    // partition (saves Flush a lookup per term; active_lists_ only grows
    // until the partition closes).
    uint32_t active_part = UINT32_MAX;
    TermList* active = nullptr;
  };
  using Lists = std::unordered_map<uint64_t, TermList>;
  // A term's postings of the current request (reused across requests, so
  // their buffers keep their capacity).
  struct PendingList {
    uint64_t term_id = 0;
    TermStats* stats = nullptr;  // into terms_
    TermList list;
  };
  // What indexing a word needs, found with one hash lookup of the word
  // (word_ids_): its term id (an MD5-based Hash8 of the word), its title
  // key, and both terms' statistics. The pointers are into terms_, whose
  // nodes stay put (it only grows; Load clears both).
  struct WordIds {
    uint64_t id = 0, title_id = 0;
    TermStats* stats = nullptr;
    TermStats* title_stats = nullptr;
    uint64_t last_doc = UINT64_MAX;  // stamp of the last document that listed the word
  };
  // A closed partition waiting for its merge.
  struct Closing {
    Lists lists;
    std::vector<uint32_t> place;  // arrival -> place
  };

  bool DocExists(const std::array<uint8_t, 24>& id);
  // The URL's liveness record: false when it has none (or a corrupt one,
  // which the next write replaces).
  bool ReadLiveness(uint64_t url_hash, PageLiveness* out);
  // Makes the page document (url_hash, text_hash) the URL's live one.
  void MakeLive(uint64_t url_hash, uint64_t text_hash);
  // The description sentences' weight as a step function of the position,
  // into scratch_steps_.
  void DescriptionSteps(const v1::FetchRecord& record);
  // Each position's weight (PositionWeights, search_scoring.h) for the page
  // whose terms are in scratch_terms_, into scratch_weights_.
  void WeighPositions(const v1::FetchRecord& record, uint32_t title_tokens);
  // A term's f from its positions (ascending): the table's weights summed,
  // or PositionsFrequency for a position past the table.
  [[nodiscard]] double TermFrequency(std::span<const uint32_t> positions, uint32_t title_tokens) const;
  WordIds& IdsOf(std::string_view word) { return IdsOf(word, ShortStringHash(word)); }
  // `hash`: ShortStringHash(word).
  WordIds& IdsOf(std::string_view word, uint64_t hash);
  // ShortStringHash of each of `terms`, in scratch_hashes_.
  const std::vector<uint64_t>& HashTerms(const std::vector<std::string_view>& terms);
  // Prefetches the word-id lookups of the terms ahead of `i` (AddPage).
  void PrefetchWordIds(const std::vector<uint64_t>& hashes, size_t i) const;
  // `gaps`, when not empty, is `positions` already written as gap varints
  // (PackedTermReader::shortest_gaps): copied, not encoded again.
  void AddPosting(uint64_t term_id, TermStats& stats, uint32_t doc, double frequency, const uint32_t* positions,
                  size_t n, uint64_t occurrences, std::string_view gaps = {});
  TermList* PendingOf(uint64_t term_id);
  void FinishDocument(const Doc& doc, const DocSummary& summary);
  void EnsureOrder();
  void ClosePartition();
  void FlushPostings();
  static void AppendChunk(TermList* list, std::string_view chunk, uint32_t last, uint32_t docs,
                          uint64_t occurrences);
  Status LoadSegments(uint32_t part, Lists* lists);
  // Load: the doc map's totals and compaction counters.
  Status LoadCounters();
  Status MergePartition(uint32_t part);
  void MergedTermStats(uint32_t part, const Closing& closing, std::vector<IndexJournal::Put>* puts);
  // Of closed partition `part`: which places hold a document to keep (a
  // doc map entry, not dead), and the records of the dead ones still
  // stored (appended to `deletes`, counted in `dropped`).
  Status KeptPlaces(uint32_t part, std::vector<bool>* keep, std::vector<IndexJournal::Key>* deletes,
                    uint64_t* dropped);
  Status CompactPartition(uint32_t part);
  [[nodiscard]] bool CompactDue() const;
  // The compaction counters record 'g' (garbage, compacted).
  [[nodiscard]] IndexJournal::Put GarbagePut() const;
  // Place -> arrival (or, with `inverse`, arrival -> place) of a closed
  // partition, from its 'r' records.
  Status ClosedOrder(uint32_t part, bool inverse, std::vector<uint32_t>* out);
  // A term's list in `part` in blocked form, doc numbers being places; ""
  // when the term is not in the partition.
  Status ListOf(uint32_t part, uint64_t term_id, std::string* out);

  IndexOptions options_;
  std::unique_ptr<MemoryIndexJournal> own_journal_;
  IndexJournal* journal_;
  std::vector<Partition> partitions_;
  Active active_;
  // The active partition's postings (bounded by the partition size), and
  // closed partitions not merged yet (between a close and the commit after
  // it, or after a failed merge).
  Lists active_lists_;
  std::map<uint32_t, Closing> closing_;
  std::unordered_map<uint64_t, TermStats> terms_;
  // Hashes of (target, anchor text, language) already turned into link
  // documents by this process: repeated links (navigation) skip the
  // tokenising and stemming. Bounded (cleared when full); the doc id check
  // stays the authority.
  FlatU64Set links_seen_;
  // AddLink's scratch: the anchor's (stem, position) pairs, and the last
  // link host with its hash.
  std::vector<std::pair<std::string, uint32_t>> scratch_link_stems_;
  std::string last_link_host_;
  uint64_t last_link_host_hash_ = 0;
  // This request's postings per term (self-contained chunks), written as
  // one segment by Flush; the segment's key is its first document. Only
  // pending_[0, pending_used_) are this request's.
  std::vector<PendingList> pending_;
  size_t pending_used_ = 0;
  uint32_t segment_first_ = 0;
  // Word -> ids and statistics (WordIds), so that a word costs no MD5 after
  // its first document. Bounded (cleared when full, between documents).
  FlatStringMap<WordIds> word_ids_;
  uint64_t document_stamp_ = 0;  // counts AddPage calls, for WordIds::last_doc
  // Summary records (one zlib stream for every summary).
  bool totals_changed_ = false;
  uint64_t pages_replaced_ = 0, pages_removed_ = 0, pages_rejected_ = 0;
  uint64_t segment_bytes_lost_ = 0;
  uint64_t garbage_ = 0, compacted_ = 0;
  bool garbage_changed_ = false;
  uint64_t documents_ = 0;
  uint64_t total_length_ = 0;
  // A page's terms, read whole from its mini index before the page changes
  // anything (ReadPageTerms): term i's positions are
  // positions[first[i], first[i + 1]).
  struct PageTerms {
    std::vector<std::string_view> term;
    std::vector<text::TermCounts> counts;
    std::vector<uint32_t> first{0}, positions;
    std::vector<std::string_view> gaps;  // the positions' bytes, when the reader could give them
    void clear();
    template <typename Positions>
    void Add(std::string_view t, const text::TermCounts& c, const Positions& p, std::string_view g = {});
  };
  // The terms of `index` (its `postings`, or its `terms` when that is empty)
  // into scratch_terms_, each term's positions ascending and distinct; an
  // error on a bad `postings`.
  [[nodiscard]] Status ReadPageTerms(const v1::MiniIndex& index);
  // Per-document scratch, reused.
  PageTerms scratch_terms_;
  std::vector<uint32_t> scratch_positions_;
  std::vector<uint64_t> scratch_hashes_;  // of scratch_terms_.term (AddPage)
  std::vector<std::tuple<uint32_t, uint32_t, double>> scratch_regions_;
  // The description weight as a step function of the position: (first
  // position of a step, weight of the sentences covering it), sorted.
  std::vector<std::pair<uint32_t, double>> scratch_steps_;
  std::vector<double> scratch_weights_;  // grows only; weights_ is the page's part
  std::span<double> weights_;            // position -> its weight (PositionWeights)
  text::StemmerCache stemmers_;
};

}  // namespace crawl::queueserver
