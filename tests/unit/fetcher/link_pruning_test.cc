// Effective-terms link order (fetcher/page/link_pruning.h; docs/DESIGN.md §6).
#include "fetcher/page/link_pruning.h"

#include <catch2/catch.hpp>

#include "fetcher/page/url_extension.h"

using namespace crawl::fetcher;

TEST_CASE("compressed length includes zlib's 6 bytes and shrinks repetitive text", "[unit]") {
  LinkPruner p;
  CHECK(p.GzippedLength("") >= 6);
  const std::string varied = "the quick brown fox jumps over the lazy dog near a river bank";
  const std::string repetitive(varied.size(), 'a');
  CHECK(p.GzippedLength(repetitive) < p.GzippedLength(varied));
}

TEST_CASE("compressed lengths are those of raw DEFLATE level 6, window 2^10, memLevel 1, plus 6", "[unit]") {
  // Measured with the original deflateInit2(6, -10, 1) code: link ranks
  // must not move when the compressor is shared.
  LinkPruner p;
  CHECK(p.GzippedLength("") == 8);
  CHECK(p.GzippedLength("Home") == 12);
  CHECK(p.GzippedLength("About this crawler project") == 34);
  CHECK(p.GzippedLength("buy buy buy buy buy buy buy buy") == 14);
  CHECK(p.GzippedLength("the quick brown fox jumps over the lazy dog near a river bank") == 62);
}

TEST_CASE("effective terms = terms x compressed/raw length; empty anchors have none", "[unit]") {
  LinkPruner p;
  CHECK(p.EffectiveTerms("") == 0);
  CHECK(p.EffectiveTerms("...") == 0);
  const double home = p.EffectiveTerms("Home");
  CHECK(home == Approx(1.0 * static_cast<double>(p.GzippedLength("Home") + 1) / 5.0));
  // A descriptive anchor outranks a one-word one.
  CHECK(p.EffectiveTerms("About this crawler project") > p.EffectiveTerms("PDF"));
  // Same number of terms: the repetitive anchor counts for less.
  CHECK(p.EffectiveTerms("buy buy buy buy buy buy buy buy") <
        p.EffectiveTerms("fast cheap flights hotels cars deals tours cruise"));
}

TEST_CASE("links are ranked by effective terms, ties in page order, and pruned", "[unit]") {
  LinkPruner p;
  const std::vector<std::string_view> anchors = {"", "a b c d e f g h", "x", "", "one two three"};
  const auto all = p.Rank(anchors, 10);
  REQUIRE(all.size() == 5);
  CHECK(all[3].index == 0);  // the empty ones last, in page order
  CHECK(all[4].index == 3);
  const auto two = p.Rank(anchors, 2);
  REQUIRE(two.size() == 2);
  CHECK(two[0].effective_terms >= two[1].effective_terms);
}

// Which links the mode cuts (common/crawl/link_pruning_mode.h).
TEST_CASE("PruneRanked: all cuts every page, none nothing, offsite only links leaving the host",
          "[unit][policy]") {
  LinkPruner p;
  // Page order: onsite, offsite, onsite, offsite, offsite, onsite.
  const std::vector<std::string_view> anchors = {"a", "b c d e", "f g", "h i j", "k l m n o p", ""};
  const std::vector<bool> onsite = {true, false, true, false, false, true};
  const auto ranked = p.Rank(anchors, anchors.size());
  REQUIRE(ranked.size() == 6);
  auto indexes = [](const std::vector<LinkPruner::Ranked>& r) {
    std::vector<std::size_t> out;
    for (const auto& one : r) out.push_back(one.index);
    return out;
  };
  const auto all = LinkPruner::PruneRanked(ranked, onsite, crawl::LinkPruning::kAll, 2);
  CHECK(indexes(all) == std::vector<std::size_t>{ranked[0].index, ranked[1].index});
  CHECK(indexes(LinkPruner::PruneRanked(ranked, onsite, crawl::LinkPruning::kNone, 2)) == indexes(ranked));
  // offsite: the three onsite links and the best-ranked offsite one, in
  // rank order.
  const auto offsite = LinkPruner::PruneRanked(ranked, onsite, crawl::LinkPruning::kOffsite, 1);
  REQUIRE(offsite.size() == 4);
  std::size_t offsite_kept = 0;
  for (std::size_t i = 0; i < offsite.size(); ++i) {
    if (!onsite[offsite[i].index]) {
      ++offsite_kept;
      CHECK(offsite[i].index == 4);  // "k l m n o p": the most effective terms of the offsite three
    }
    if (i > 0) CHECK(offsite[i - 1].effective_terms >= offsite[i].effective_terms);
  }
  CHECK(offsite_kept == 1);
  CHECK(LinkPruner::PruneRanked(ranked, onsite, crawl::LinkPruning::kOffsite, 0).size() == 3);
}

TEST_CASE("likely non-HTML by path extension", "[unit]") {
  CHECK(LikelyNonHtml("http://a.test/doc.PDF"));
  CHECK(LikelyNonHtml("http://a.test/img/x.jpg?size=2"));
  CHECK_FALSE(LikelyNonHtml("http://a.test/page.html"));
  CHECK_FALSE(LikelyNonHtml("http://a.test/dir/"));
  CHECK_FALSE(LikelyNonHtml("http://a.test/index.php?f=a.pdf"));
  CHECK_FALSE(LikelyNonHtml("http://a.test"));
  CHECK_FALSE(LikelyNonHtml("http://a.test/v1.2.3/readme"));
}
