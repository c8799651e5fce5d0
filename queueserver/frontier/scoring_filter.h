// The ScoringFilter plug-in point, after Apache Nutch's ScoringFilter
// (org.apache.nutch.scoring.ScoringFilter; docs/DESIGN.md §5): hooks the
// orders and the frontier call at fixed points of a URL's life, each filter
// of a crawl's chain taking the previous filter's result.
//
//   hook                        called by (docs/ARCHITECTURE.md "Frontier")
//   InjectedScore               every order's OnSeed: a seed enters the crawl
//   InitialScore                every order's OnLinks: a new URL is found
//   GeneratorSortValue          where an order files a URL (its sort key)
//   PassScoreBeforeProcessing   CrawlShard::GetSchedule: ScheduledUrl.scoring_datum
//   PassScoreAfterProcessing    Frontier::Report: FetchRecord.scoring_datum back
//   DistributeScoreToOutlinks   OnLinks of a fetched page (returns the adjust)
//   UpdateDbScore               opic engine's EndRequest: a queued URL and
//                               the batch's inlinks to it
//   IndexerScore                OnFetched: the boost the index stores
//
// Filters are made by name from one table (ScoringFilterRegistry), each
// with its own settings ("opic.score_power=0.5"). A filter registers itself
// with a static ScoringFilterRegistration in any file linked in; the
// built-in ones (scoring_filters.h) are in the table from the start.
// Pure; a chain is not thread-safe, the registry is (registration at
// static-initialisation time).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "queueserver/frontier/frontier_types.h"

namespace crawl::queueserver {

[[nodiscard]] std::string_view LinkKindName(LinkKind k);
[[nodiscard]] LinkKind LinkKindOf(std::string_view source, bool in_nav, bool from_sitemap);

// What a filter knows of a URL (Nutch's CrawlDatum).
struct ScoreDatum {
  std::string_view url;
  uint32_t depth = 0;
  LinkKind kind = LinkKind::kBody;
  double score = 0;  // the order's score of the URL (opic: its cash)
};

// A fetched page about to hand out its score.
struct ScoredPage {
  std::string url;
  double score = 0;            // C: the cash the page held
  uint32_t links_on_page = 0;  // n; may exceed the links this server sees
  // s: links of the page within its CLD, when this server sees only some of
  // them (links sent by another queue server's fetch); 0: count the links.
  uint32_t same_cld_links = 0;
  uint32_t depth = 0;
};

// One outlink of a ScoredPage.
struct ScoredLink {
  std::string url;
  bool same_cld = false;      // same company level domain as the page
  bool from_sitemap = false;  // the page is a sitemap listing this URL
  uint32_t rank = 0;          // position from 0 (sitemap: entry index)
  LinkKind kind = LinkKind::kBody;
  double share = 0;  // set by DistributeScoreToOutlinks
};

// One inlink a queued URL received in a batch (Nutch's inlinked datums).
struct ScoreInlink {
  std::string from;
  LinkKind kind = LinkKind::kBody;
  double share = 0;
};

class ScoringFilter {
 public:
  virtual ~ScoringFilter() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  [[nodiscard]] virtual double InjectedScore(const ScoreDatum& /*d*/, double score) const { return score; }
  [[nodiscard]] virtual double InitialScore(const ScoreDatum& /*d*/, double score) const { return score; }
  // REQUIRES of every filter used by the opic engine: the sort value is
  // monotone in the score for a fixed URL and adding the same amount to
  // every queued URL's score (opic normalisation) keeps their order; so a
  // filter adds to it or scales it by a per-URL factor.
  [[nodiscard]] virtual double GeneratorSortValue(const ScoreDatum& /*d*/, double sort) const { return sort; }
  // The value the lease carries to the fetcher (d.score: the URL's score).
  [[nodiscard]] virtual double PassScoreBeforeProcessing(const ScoreDatum& /*d*/, double passed) const {
    return passed;
  }
  // The fetched page's score from what its fetch record carried back
  // (`passed`; d.score: the score at lease time).
  [[nodiscard]] virtual double PassScoreAfterProcessing(const ScoreDatum& /*d*/, double passed) const {
    return passed;
  }
  // Sets (or adjusts) each link's share of page.score. Returns `adjust`,
  // changed or not: score the source page itself gains (Nutch's adjust
  // datum; the opic engine adds it to the page's history).
  [[nodiscard]] virtual double DistributeScoreToOutlinks(const ScoredPage& /*page*/,
                                                         std::vector<ScoredLink>& /*links*/,
                                                         double adjust) const {
    return adjust;
  }
  // The new score of a queued URL (`old`) given the batch's inlinks to it;
  // `score` is the previous filter's result (old.score for the first).
  [[nodiscard]] virtual double UpdateDbScore(const ScoreDatum& /*old*/,
                                             const std::vector<ScoreInlink>& /*in*/, double score) const {
    return score;
  }
  // The boost the index adds to the page's doc rank (0: none). history:
  // what the page ever held; total_history: the sum over all pages (0 when
  // the order keeps none).
  [[nodiscard]] virtual double IndexerScore(const ScoreDatum& /*d*/, double /*history*/,
                                            double /*total_history*/, double boost) const {
    return boost;
  }
};

// One filter's settings ("key" -> "value") as the crawl gave them. A
// factory reads each key it knows and calls Finish, which rejects the rest.
class ScoringSettings {
 public:
  ScoringSettings(std::string filter, std::map<std::string, std::string> values)
      : filter_(std::move(filter)), values_(std::move(values)) {}
  // The number under `key` in [min, max], or `fallback` when absent.
  [[nodiscard]] Result<double> Number(const std::string& key, double fallback, double min, double max);
  // One of `choices` under `key`, or `fallback` when absent.
  [[nodiscard]] Result<std::string> Choice(const std::string& key, const std::string& fallback,
                                           const std::vector<std::string>& choices);
  // Error naming the first key nobody read.
  [[nodiscard]] Status Finish() const;
  [[nodiscard]] const std::string& filter() const { return filter_; }

 private:
  std::string filter_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> read_;
};

using ScoringFilterFactory = std::function<Result<std::unique_ptr<ScoringFilter>>(ScoringSettings&)>;

// The one table of filters by name. Thread-safe.
class ScoringFilterRegistry {
 public:
  // The process's table, holding the built-in filters (scoring_filters.h).
  static ScoringFilterRegistry& Global();
  // False when `name` is taken (the first registration stays).
  bool Register(const std::string& name, ScoringFilterFactory factory);
  // The filter `settings.filter()` names, or InvalidArgument (unknown
  // filter, unknown key, bad value).
  [[nodiscard]] Result<std::unique_ptr<ScoringFilter>> Make(ScoringSettings& settings) const;
  [[nodiscard]] std::vector<std::string> names() const;

 private:
  ScoringFilterRegistry() = default;
  struct Table;
  Table& table() const;
};

// Registers a filter at static-initialisation time:
//   static const ScoringFilterRegistration kMine("mine", [](ScoringSettings& s) {...});
struct ScoringFilterRegistration {
  ScoringFilterRegistration(const std::string& name, ScoringFilterFactory factory) {
    (void)ScoringFilterRegistry::Global().Register(name, std::move(factory));
  }
};

// The filters a crawl runs, in order. Each hook runs every filter, the
// output of one being the input of the next.
class ScoringChain {
 public:
  // `names`: comma-separated filter names ("opic,depth"); `params`:
  // "filter.key=value" each, for filters of the chain. Unknown filter, key
  // or bad value: InvalidArgument. An empty list is the empty chain.
  [[nodiscard]] static Result<ScoringChain> Make(std::string_view names,
                                                 const std::vector<std::string>& params);

  [[nodiscard]] double InjectedScore(const ScoreDatum& d) const;              // from d.score
  [[nodiscard]] double InitialScore(const ScoreDatum& d) const;               // from d.score
  [[nodiscard]] double GeneratorSortValue(const ScoreDatum& d) const;         // from d.score
  [[nodiscard]] double PassScoreBeforeProcessing(const ScoreDatum& d) const;  // from d.score
  [[nodiscard]] double PassScoreAfterProcessing(const ScoreDatum& d, double passed) const;
  // Shares start at 0; returns the adjust (from 0).
  double DistributeScoreToOutlinks(const ScoredPage& page, std::vector<ScoredLink>& links) const;
  [[nodiscard]] double UpdateDbScore(const ScoreDatum& old, const std::vector<ScoreInlink>& in) const;
  [[nodiscard]] double IndexerScore(const ScoreDatum& d, double history, double total_history) const;
  [[nodiscard]] std::vector<std::string> names() const;
  [[nodiscard]] bool empty() const { return filters_.empty(); }
  [[nodiscard]] bool has(std::string_view name) const;

 private:
  std::vector<std::shared_ptr<const ScoringFilter>> filters_;
};

}  // namespace crawl::queueserver
