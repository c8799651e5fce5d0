// Name server search merge with rel=canonical copies (nameserver/search_fanout.h):
// a page that names another canonical URL comes from its queue server with
// that URL's hash as its grouping key and canonical_url set.
#include <catch2/catch.hpp>

#include "common/base/hash.h"
#include "nameserver/search_fanout.h"

using crawl::nameserver::MergeResults;
namespace v1 = crawl::v1;

namespace {

// A page result as a queue server sends it: grouped under `canonical` when
// the page names one.
v1::SearchResult Page(const std::string& url, const std::string& canonical, uint64_t text_hash, double rank) {
  v1::SearchResult r;
  r.set_url(url);
  r.set_title("T " + url);
  r.set_url_hash(crawl::hash::Hash8(canonical.empty() ? url : canonical));
  r.set_canonical_url(canonical);
  r.set_text_hash(text_hash);
  r.mutable_score()->set_doc_rank(rank);
  r.mutable_score()->set_total(rank);
  return r;
}

std::vector<std::string> Urls(const std::vector<v1::SearchResult>& results) {
  std::vector<std::string> out;
  for (const auto& r : results) out.push_back(r.url());
  return out;
}

}  // namespace

TEST_CASE("a copy naming a canonical page in the results is folded into it", "[unit][directives]") {
  // The copy has the better rank and other text: without grouping it would be its own result.
  auto merged = MergeResults({Page("http://x/copy", "http://x/main", 1, 5.0),
                              Page("http://x/main", "", 2, 1.0), Page("http://x/other", "", 3, 2.0)},
                             10);
  REQUIRE(merged.size() == 2);
  CHECK(merged[0].url() == "http://x/main");
  CHECK(merged[0].title() == "T http://x/main");  // the canonical page's own result stands for it
  CHECK(merged[0].score().doc_rank() == 5.0);     // with the group's best doc rank
  CHECK(merged[1].url() == "http://x/other");
}

TEST_CASE("a copy whose canonical page is not among the results shows the canonical URL",
          "[unit][directives]") {
  auto merged = MergeResults(
      {Page("http://x/copy1", "http://x/main", 1, 2.0), Page("http://x/copy2", "http://x/main", 2, 3.0)}, 10);
  REQUIRE(merged.size() == 1);
  CHECK(merged[0].url() == "http://x/main");
  CHECK(merged[0].title() == "T http://x/copy2");  // the better copy's title
  CHECK(merged[0].canonical_url() == "http://x/main");
}

TEST_CASE("a 2-page canonical loop stays two bounded groups, each shown as the URL named",
          "[unit][directives]") {
  // A names B, B names A: A groups under B, B under A; nothing is followed further.
  auto merged =
      MergeResults({Page("http://x/a", "http://x/b", 1, 2.0), Page("http://x/b", "http://x/a", 2, 1.0)}, 10);
  CHECK(Urls(merged) == std::vector<std::string>{"http://x/b", "http://x/a"});
}

TEST_CASE("a 3-page canonical chain groups each page under the one it names", "[unit][directives]") {
  // A names B, B names C, C is itself: B joins C's group, A shows as B.
  auto merged = MergeResults({Page("http://x/a", "http://x/b", 1, 3.0),
                              Page("http://x/b", "http://x/c", 2, 2.0), Page("http://x/c", "", 3, 1.0)},
                             10);
  REQUIRE(merged.size() == 2);
  CHECK(Urls(merged) == std::vector<std::string>{"http://x/b", "http://x/c"});
  CHECK(merged[1].title() == "T http://x/c");
}
