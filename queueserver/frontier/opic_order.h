// The opic order (docs/DESIGN.md §5.2, after Abiteboul, Preda and Cobena 2003,
// "Adaptive on-line page importance computation", and Yioop's CLD-aware
// variant): every URL carries cash; seeds share 1.0; the next URL scheduled
// is the one with the most cash; a fetched page's cash moves to its history
// and is split over its links by the ScoringFilter chain
// (queueserver/frontier/scoring_filter.h); importance = history / total history.
//
// Lost cash: a share that reaches no queued URL (the CLD-aware split with
// s = n, links to URLs already fetched, leased or waiting for robots.txt,
// links routed to another queue server, pages without links, URLs robots.txt
// disallows) is given back to every queued URL in equal parts at the end of
// the request, so the cash of this queue server's partition stays what its
// seeds were injected with. That is OPIC's virtual page, which links to
// every page; it keeps the order of the queue, so it is done with one
// number (bonus_) instead of touching every URL: a queued URL's cash is its
// stored raw cash plus the bonus.
//
// Across visits (a recrawl, OrderOptions::opic_revisits; the paper's
// definition): a page fetched here keeps a record of its history H and of
// the cash C it received since its last visit; links to it credit C rather
// than giving their share up as lost. At its next visit C joins the cash it
// is fetched with, H += C, and its importance (the IndexerScore) is
// H / total history. A 304 or unchanged page yields no links, so its cash
// is lost to the virtual page as for any page without links.
//
// RAM budget: every queued URL lives in the OpicStore (RocksDB in the
// server: column family "opic", keyed by descending sort value); at most
// ram_budget_urls of the best are also held in memory. Invariant: no URL
// outside memory sorts before the worst one in memory, so the best URL is
// always in memory unless memory is empty, and then the store is read for
// the next ones. A cash update of a URL outside memory rewrites its store
// key and brings it into memory if it now sorts before memory's worst.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "queueserver/frontier/frontier_order.h"

namespace crawl::queueserver {

// Position of a queued URL: higher sort value first, then arrival order.
struct OpicKey {
  double sort = 0;
  uint64_t seq = 0;
  bool operator==(const OpicKey&) const = default;
};
struct OpicKeyBefore {
  bool operator()(const OpicKey& a, const OpicKey& b) const {
    if (a.sort != b.sort) return a.sort > b.sort;
    return a.seq < b.seq;
  }
};

// A page fetched here, across visits: cash received since its last visit,
// and the history (all the cash it was fetched with).
struct OpicVisits {
  double credit = 0, history = 0;
};

// Where the opic order keeps its queue. Reads see the writes made before
// them, committed or not. Errors of a durable store surface at its commit.
class OpicStore {
 public:
  virtual ~OpicStore() = default;
  // Files `e` (its cash field holds the raw cash) under `key`.
  virtual void OpicPut(const OpicKey& key, uint64_t url_hash, const FrontierEntry& e) = 0;
  virtual void OpicErase(const OpicKey& key, uint64_t url_hash) = 0;
  // The key a queued URL is filed under.
  [[nodiscard]] virtual std::optional<OpicKey> OpicFind(uint64_t url_hash) = 0;
  [[nodiscard]] virtual std::optional<FrontierEntry> OpicGet(const OpicKey& key) = 0;
  // Up to `n` entries, best first.
  [[nodiscard]] virtual std::vector<std::pair<OpicKey, FrontierEntry>> OpicTop(size_t n) = 0;
  // The visits record of a fetched page (opic_revisits only).
  [[nodiscard]] virtual std::optional<OpicVisits> OpicVisitsGet(uint64_t url_hash) = 0;
  virtual void OpicVisitsPut(uint64_t url_hash, const OpicVisits& v) = 0;
  // Visits every queued entry, best first (the order Pop hands them out
  // in), until `visit` returns false. Read-only, as TierStore::TierScan: a
  // durable store reads only what was committed (REQUIRES: between
  // requests) and returns its read errors.
  using ScanVisitor = std::function<bool(const FrontierEntry& e)>;
  [[nodiscard]] virtual Status OpicScan(const ScanVisitor& visit) const = 0;
};

// An OpicStore in RAM (tests, and shards without a store).
class MemoryOpicStore final : public OpicStore {
 public:
  void OpicPut(const OpicKey& key, uint64_t url_hash, const FrontierEntry& e) override;
  void OpicErase(const OpicKey& key, uint64_t url_hash) override;
  [[nodiscard]] std::optional<OpicKey> OpicFind(uint64_t url_hash) override;
  [[nodiscard]] std::optional<FrontierEntry> OpicGet(const OpicKey& key) override;
  [[nodiscard]] std::vector<std::pair<OpicKey, FrontierEntry>> OpicTop(size_t n) override;
  [[nodiscard]] std::optional<OpicVisits> OpicVisitsGet(uint64_t url_hash) override;
  void OpicVisitsPut(uint64_t url_hash, const OpicVisits& v) override;
  [[nodiscard]] Status OpicScan(const ScanVisitor& visit) const override;
  [[nodiscard]] const std::map<OpicKey, FrontierEntry, OpicKeyBefore>& entries() const { return by_key_; }

 private:
  std::map<OpicKey, FrontierEntry, OpicKeyBefore> by_key_;
  std::unordered_map<uint64_t, OpicKey> by_hash_;
  std::unordered_map<uint64_t, OpicVisits> visits_;
};

class OpicOrder final : public FrontierOrder {
 public:
  // `store` (null: a MemoryOpicStore of its own) must outlive the order.
  OpicOrder(const OrderOptions& options, ScoringChain chain, OpicStore* store);
  [[nodiscard]] std::string_view name() const override { return "opic"; }
  void OnSeed(FrontierEntry& e, uint64_t seed_count) override;
  void OnLinks(const PageContext& page, std::vector<LinkInput>& links,
               const std::vector<bool>& is_new) override;
  void Push(FrontierEntry e, bool front) override;
  [[nodiscard]] std::optional<SeqEntry> Pop() override;
  void Unpop(SeqEntry e) override;
  void Taken(const SeqEntry& e) override;
  FetchedScore OnFetched(const FrontierEntry& e) override;
  void Dropped(const FrontierEntry& e) override;
  void EndRequest() override;
  [[nodiscard]] size_t size() const override { return count_ - popped_.size(); }
  void Restore(std::vector<SeqEntry> ready, std::vector<std::pair<std::string, CldStats>> clds,
               const std::string& state) override;
  // Every queued URL in tier 0, best first (the store's order).
  [[nodiscard]] Status VisitQueued(const QueuedVisitor& visit) const override;

  // The cash of a queued URL, if it is queued (tests, stats).
  [[nodiscard]] std::optional<double> CashOf(const std::string& url);
  [[nodiscard]] double bonus() const { return bonus_; }
  [[nodiscard]] double reserve() const { return reserve_; }
  [[nodiscard]] double total_history() const { return total_history_; }
  [[nodiscard]] double injected_total() const { return injected_total_; }
  [[nodiscard]] size_t in_memory() const { return mem_.size(); }
  // The visits record of a fetched page (opic_revisits), if any (tests).
  [[nodiscard]] std::optional<OpicVisits> VisitsOf(const std::string& url);

 private:
  struct Held {
    uint64_t hash = 0;
    FrontierEntry entry;  // cash = raw cash
  };
  std::string CldOf(const std::string& url) const;
  [[nodiscard]] bool Queued(uint64_t url_hash);
  // The chain's UpdateDbScore of every queued URL that received inlinks in
  // this request (Nutch's updatedb over the batch); the cash the inlinks
  // brought and the chain did not keep is lost.
  void ApplyInlinks();
  // opic_revisits: the cash links gave pages fetched here, into their records.
  void ApplyCredits();
  // Sets a queued URL's raw cash to update(entry, raw cash); false when
  // the URL is not queued.
  bool SetCash(uint64_t url_hash, const std::function<double(const FrontierEntry&, double)>& update);
  void Rebook(double delta) override { lost_ += delta; }
  // A URL just filed in the store: into memory if the invariant allows.
  void Admit(const OpicKey& key, Held held);
  void TrimMemory();
  void Refill();
  void NoteState();

  OrderOptions options_;
  MemoryOpicStore own_store_;
  OpicStore* store_;
  std::map<OpicKey, Held, OpicKeyBefore> mem_;
  std::unordered_map<uint64_t, OpicKey> mem_hash_;
  // Candidates handed out by Pop and not yet Taken or Unpopped, by seq.
  std::unordered_map<uint64_t, std::pair<OpicKey, Held>> popped_;
  size_t spilled_ = 0;  // queued URLs in the store only
  // Persisted scalars (OrderStateChanged).
  double bonus_ = 0;    // cash every queued URL has on top of its raw cash
  double reserve_ = 0;  // lost cash waiting for a queued URL to take it
  double total_history_ = 0;
  double injected_total_ = 0;  // cash the seeds brought
  uint64_t count_ = 0;         // URLs in the store
  uint64_t next_seq_ = 1;
  // Within a request: cash of pages fetched and not yet handed to links, by URL.
  std::unordered_map<std::string, double> pending_;
  // Within a request: inlinks to URLs already queued, by URL hash.
  std::unordered_map<uint64_t, std::vector<ScoreInlink>> inlinks_;
  // Within a request (opic_revisits): cash given to pages fetched here, by URL hash.
  std::unordered_map<uint64_t, double> credits_;
  double lost_ = 0;
};

}  // namespace crawl::queueserver
