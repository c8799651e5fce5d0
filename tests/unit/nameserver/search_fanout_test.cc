// Name server search merge (nameserver/search_fanout.h).
#include "nameserver/search_fanout.h"

#include <catch2/catch.hpp>
using namespace crawl::nameserver;
namespace v1 = crawl::v1;

namespace {
v1::SearchResult R(const std::string& url, uint64_t url_hash, uint64_t text_hash, double rank, double rel,
                   bool link = false) {
  v1::SearchResult r;
  r.set_url(url);
  r.set_title("T " + url);
  r.set_url_hash(url_hash);
  r.set_text_hash(text_hash);
  r.set_link_only(link);
  r.mutable_score()->set_doc_rank(rank);
  r.mutable_score()->set_relevance(rel);
  r.mutable_score()->set_total(rank + rel);
  return r;
}
}  // namespace

// docs/DESIGN.md §8: each of S servers is asked for ceil(n * alpha / S).
TEST_CASE("each queue server is asked for ceil(n * alpha / servers)", "[unit]") {
  CHECK(PerServerMatches(200, 1.6, 3) == 107);  // 320 / 3 = 106.7
  CHECK(PerServerMatches(200, 1.6, 1) == 320);
  CHECK(PerServerMatches(200, 1.6, 4) == 80);
  CHECK(PerServerMatches(200, 1.6, 0) == 320);
  CHECK(PerServerMatches(1, 0.1, 8) == 1);
}

TEST_CASE("results group by URL hash with the group's best doc rank, the page standing for it", "[unit]") {
  // A link document of /a (rank 3) and the page /a (rank 2) from two servers.
  auto merged = MergeResults({R("http://x/a", 1, 100, 3.0, 0.5, true), R("http://x/a", 1, 200, 2.0, 1.0),
                              R("http://x/b", 2, 300, 2.5, 0.1)},
                             10);
  REQUIRE(merged.size() == 2);
  CHECK(merged[0].url() == "http://x/a");
  CHECK_FALSE(merged[0].link_only());          // the page's title and snippet
  CHECK(merged[0].score().doc_rank() == 3.0);  // the group's best doc rank
  CHECK(merged[0].score().total() == Approx(4.0));
  CHECK(merged[1].url() == "http://x/b");
}

TEST_CASE("pages with the same text keep the best doc rank; best total first; at most k", "[unit]") {
  auto merged = MergeResults({R("http://x/copy1", 1, 7, 1.0, 1.0), R("http://x/copy2", 2, 7, 2.0, 0.1),
                              R("http://x/c", 3, 8, 0.5, 0.2), R("http://x/d", 4, 9, 0.1, 0.1)},
                             2);
  REQUIRE(merged.size() == 2);
  CHECK(merged[0].url() == "http://x/copy2");  // same text as copy1, higher doc rank
  CHECK(merged[1].url() == "http://x/c");
  // Link-only results with equal anchor text are different URLs: both stay.
  auto links = MergeResults({R("http://x/e", 5, 9, 1, 0, true), R("http://x/f", 6, 9, 1, 0, true)}, 10);
  CHECK(links.size() == 2);
}
