// Decides when a crawl is done (docs/DESIGN.md §3): every queue server of
// the crawl idle (nothing queued, waiting or leased) in two consecutive
// polling rounds with the same activity counters in between, or the page
// budget reached.
//
// Why two rounds: servers are polled one after another, so a fetcher can
// hand new links to server A (already polled idle) and then finish its
// schedule at server B (polled idle after). A's activity counter moves in
// that case, so the next round sees the difference. A fetcher sends links
// for other servers before it ends its lease, so once every lease is over
// and no counter moved, no link can still be on its way.
//
// Pure logic; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "proto/crawl.pb.h"

namespace crawl::nameserver {

class CompletionDetector {
 public:
  // `continuous` (CrawlParams.recrawl): an idle frontier does not end the
  // crawl (pages are due again later); only the page budget does.
  explicit CompletionDetector(uint64_t max_pages, bool continuous = false)
      : max_pages_(max_pages), continuous_(continuous) {}

  // Feeds one complete round (one Stats answer per queue server of the
  // crawl, in a fixed order). Returns the reason the crawl is done, or "".
  std::string OnRound(const std::vector<v1::QueueServerStats>& round);

  // A round that could not be completed (a server did not answer) breaks the
  // run of idle rounds.
  void OnIncompleteRound() { idle_rounds_ = 0; }

  // One idle round seen and a second would end the crawl. The second round
  // proves nothing more for being later (the argument above holds for any
  // gap), so the monitor runs it at once rather than a poll interval later.
  [[nodiscard]] bool AwaitingConfirmation() const { return idle_rounds_ == 1 && !continuous_; }

 private:
  uint64_t max_pages_;
  bool continuous_ = false;
  int idle_rounds_ = 0;
  std::vector<uint64_t> last_activity_;
};

}  // namespace crawl::nameserver
