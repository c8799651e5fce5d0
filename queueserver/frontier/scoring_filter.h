// ScoringFilter chain in the spirit of Apache Nutch's ScoringFilter
// (DESIGN.md section 5): hooks an order calls at fixed points of a URL's
// life, each filter taking the previous filter's result.
//   injected score          a seed enters the crawl
//   initial score           a new URL is discovered
//   sort value              the key the order sorts queued URLs by
//   update from inlinks     a queued URL receives score from another page
//   distribute to outlinks  a fetched page hands its score to its links
//   indexer score           the score the index gets for a fetched page
// OPIC (Abiteboul, Preda, Cobena 2003; Yioop's CLD-aware variant; DESIGN.md
// 5.2) is one filter; the opic order (queueserver/frontier/opic_order.h) runs the
// chain the crawl parameter `scoring_filters` names. Pure; not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace crawl::queueserver {

// A fetched page about to hand out its score.
struct ScoredPage {
  std::string url;
  double score = 0;            // C: the cash the page held
  uint32_t links_on_page = 0;  // n; may exceed the links this server sees
  // s: links of the page within its CLD, when this server sees only some of
  // them (links sent by another queue server's fetch); 0: count the links.
  uint32_t same_cld_links = 0;
};

// One outlink of a ScoredPage.
struct ScoredLink {
  std::string url;
  bool same_cld = false;      // same company level domain as the page
  bool from_sitemap = false;  // the page is a sitemap listing this URL
  uint32_t rank = 0;          // position from 0 (sitemap: entry index)
  double share = 0;           // filled in by DistributeToOutlinks
};

class ScoringFilter {
 public:
  virtual ~ScoringFilter() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  [[nodiscard]] virtual double InjectedScore(const std::string& /*url*/, double score) const { return score; }
  [[nodiscard]] virtual double InitialScore(const std::string& /*url*/, double score) const { return score; }
  // REQUIRES of every filter: the sort value is the score plus a per-URL
  // constant (or the score itself), so adding the same amount to every
  // queued URL's score (opic normalisation) keeps their order.
  [[nodiscard]] virtual double SortValue(const std::string& /*url*/, double sort) const { return sort; }
  [[nodiscard]] virtual double UpdateFromInlinks(double score, double inlink_share) const {
    return score + inlink_share;
  }
  // Sets (or adjusts) each link's share of page.score.
  virtual void DistributeToOutlinks(const ScoredPage& /*page*/, std::vector<ScoredLink>& /*links*/) const {}
  // history: what the page ever held; total_history: the sum over all pages.
  [[nodiscard]] virtual double IndexerScore(double score, double /*history*/,
                                            double /*total_history*/) const {
    return score;
  }
};

// How OPIC splits a page's cash (DESIGN.md 5.2).
enum class CashSplit {
  kCldAware,  // Yioop: same CLD C/(2n), other CLDs (C - s*C/(2n)) / (n - s)
  kPlain,     // every link C/n
};
[[nodiscard]] Result<CashSplit> ParseCashSplit(std::string_view name);  // "cld" (default) or "plain"

// The cash of a page with cash C and n links, split over `links` (the ones
// this queue server sees, n >= links.size() unless n is 0, then n is
// links.size()). Sets each link's share (DESIGN.md 5.2):
//   plain: C/n each;
//   CLD-aware: with s the links to the page's own CLD, C/(2n) each of those
//     and (C - s*C/(2n)) / (n - s) each of the others. When s = n there is
//     no other link: the same-CLD links still get C/(2n) each and the other
//     half of C is lost, to be restored by normalisation;
//   sitemap (every link from_sitemap): the i-th entry (i = rank + 1) gets
//     C / (gamma * i^2), gamma = sum_{j=1..n} 1/j^2, so n entries get C.
// s is `same_cld_links` when given (the fetcher counts it over the whole
// page for links it routes to a queue server other than the page's), else
// counted among `links` (the page's own queue server sees every link: the
// ones routed elsewhere come as sent_elsewhere copies). Returns the sum
// handed out.
double SplitCash(double cash, uint32_t n, CashSplit split, std::vector<ScoredLink>& links,
                 uint32_t same_cld_links = 0);

// OPIC as a ScoringFilter: seeds get their injected cash, new URLs the share
// they were given, inlinks add cash, outlinks split it by SplitCash, and the
// indexer score is history / total history.
class OpicScoringFilter final : public ScoringFilter {
 public:
  explicit OpicScoringFilter(CashSplit split) : split_(split) {}
  [[nodiscard]] std::string_view name() const override { return "opic"; }
  void DistributeToOutlinks(const ScoredPage& page, std::vector<ScoredLink>& links) const override;
  [[nodiscard]] double IndexerScore(double score, double history, double total_history) const override;

 private:
  CashSplit split_;
};

// The filters a crawl runs, in order.
class ScoringChain {
 public:
  // Parses a comma-separated list of filter names ("opic"). An empty list is
  // the empty chain (scores pass through unchanged).
  [[nodiscard]] static Result<ScoringChain> Parse(std::string_view names, CashSplit split);

  [[nodiscard]] double InjectedScore(const std::string& url, double score) const;
  [[nodiscard]] double InitialScore(const std::string& url, double score) const;
  [[nodiscard]] double SortValue(const std::string& url, double score) const;
  [[nodiscard]] double UpdateFromInlinks(double score, double share) const;
  void DistributeToOutlinks(const ScoredPage& page, std::vector<ScoredLink>& links) const;
  [[nodiscard]] double IndexerScore(double score, double history, double total_history) const;
  [[nodiscard]] std::vector<std::string> names() const;
  [[nodiscard]] bool empty() const { return filters_.empty(); }

 private:
  std::vector<std::shared_ptr<const ScoringFilter>> filters_;
};

}  // namespace crawl::queueserver
