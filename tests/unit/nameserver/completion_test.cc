// CompletionDetector: when is a crawl done (nameserver/completion.h).
#include "nameserver/completion.h"

#include <catch2/catch.hpp>

using crawl::nameserver::CompletionDetector;
using crawl::v1::QueueServerStats;

namespace {
QueueServerStats Stats(uint64_t frontier, uint64_t leased, uint64_t activity, uint64_t pages = 0) {
  QueueServerStats s;
  s.set_frontier_size(frontier);
  s.set_leased_urls(leased);
  s.set_outstanding_schedules(leased > 0 ? 1 : 0);
  s.set_activity_counter(activity);
  s.set_pages_fetched(pages);
  return s;
}
}  // namespace

TEST_CASE("done needs two idle rounds with unchanged activity", "[unit]") {
  CompletionDetector d(0);
  CHECK(d.OnRound({Stats(5, 0, 10), Stats(0, 0, 3)}).empty());
  CHECK(d.OnRound({Stats(0, 0, 12), Stats(0, 0, 3)}).empty());  // first idle round
  CHECK(d.OnRound({Stats(0, 0, 12), Stats(0, 0, 3)}) == "frontier exhausted");
}

TEST_CASE("activity between idle rounds restarts the count", "[unit]") {
  CompletionDetector d(0);
  CHECK(d.OnRound({Stats(0, 0, 12), Stats(0, 0, 3)}).empty());
  // Links reached server 0 and were all duplicates or were fetched in between.
  CHECK(d.OnRound({Stats(0, 0, 14), Stats(0, 0, 3)}).empty());
  CHECK(d.OnRound({Stats(0, 0, 14), Stats(0, 0, 3)}) == "frontier exhausted");
}

TEST_CASE("leased urls keep a crawl alive", "[unit]") {
  CompletionDetector d(0);
  for (int i = 0; i < 5; ++i) CHECK(d.OnRound({Stats(0, 3, 7)}).empty());
}

TEST_CASE("an incomplete round breaks the run", "[unit]") {
  CompletionDetector d(0);
  CHECK(d.OnRound({Stats(0, 0, 1)}).empty());
  d.OnIncompleteRound();
  CHECK(d.OnRound({Stats(0, 0, 1)}).empty());
  CHECK(d.OnRound({Stats(0, 0, 1)}) == "frontier exhausted");
}

TEST_CASE("the page budget ends a crawl", "[unit]") {
  CompletionDetector d(100);
  CHECK(d.OnRound({Stats(50, 0, 1, 60), Stats(50, 0, 1, 39)}).empty());
  CHECK(d.OnRound({Stats(50, 0, 1, 60), Stats(50, 0, 1, 40)}) == "max pages");
}

TEST_CASE("a recrawl crawl is not done when its frontier is idle, only at its page budget", "[unit]") {
  CompletionDetector d(100, /*continuous=*/true);
  for (int i = 0; i < 5; ++i) CHECK(d.OnRound({Stats(0, 0, 12, 40), Stats(0, 0, 3, 10)}).empty());
  CHECK(d.OnRound({Stats(0, 0, 12, 60), Stats(0, 0, 3, 40)}) == "max pages");
}

TEST_CASE("after one idle round the detector waits for the confirming round", "[unit]") {
  CompletionDetector d(0);
  CHECK_FALSE(d.AwaitingConfirmation());
  (void)d.OnRound({Stats(3, 0, 1)});
  CHECK_FALSE(d.AwaitingConfirmation());  // busy
  (void)d.OnRound({Stats(0, 0, 2)});
  CHECK(d.AwaitingConfirmation());  // one idle round
  (void)d.OnRound({Stats(0, 0, 5)});
  CHECK(d.AwaitingConfirmation());  // activity moved: idle again, count restarted at one
  (void)d.OnRound({Stats(0, 2, 5)});
  CHECK_FALSE(d.AwaitingConfirmation());  // a lease
  d.OnIncompleteRound();
  CHECK_FALSE(d.AwaitingConfirmation());

  CompletionDetector recrawl(0, /*continuous=*/true);
  (void)recrawl.OnRound({Stats(0, 0, 2)});
  CHECK_FALSE(recrawl.AwaitingConfirmation());  // an idle recrawl does not end
}
