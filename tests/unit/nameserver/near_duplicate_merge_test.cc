// The name server's near-duplicate merges (nameserver/near_duplicate_merge.h,
// search_fanout.h): one result per cluster with similar_pages, and cluster
// counts added over queue servers.
#include "nameserver/near_duplicate_merge.h"

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include "nameserver/console/console_log.h"
#include "nameserver/search_fanout.h"

using namespace crawl::nameserver;
namespace v1 = crawl::v1;

namespace {
v1::SearchResult R(const std::string& url, uint64_t url_hash, uint64_t text_hash, uint64_t cluster,
                   double rank) {
  v1::SearchResult r;
  r.set_url(url);
  r.set_url_hash(url_hash);
  r.set_text_hash(text_hash);
  r.set_near_duplicate_cluster(cluster);
  r.mutable_score()->set_doc_rank(rank);
  return r;
}
}  // namespace

TEST_CASE("Search keeps the best page of a near-duplicate cluster and counts the others", "[neardup]") {
  // The first page (url hash 10) and two copies naming cluster 10; another page apart.
  std::vector<v1::SearchResult> all = {R("http://a/", 10, 1, 0, 0.2), R("http://b/", 11, 2, 10, 0.5),
                                       R("http://c/", 12, 3, 10, 0.1), R("http://d/", 13, 4, 0, 0.3)};
  const auto merged = MergeResults(all, 10);
  REQUIRE(merged.size() == 2);
  CHECK(merged[0].url() == "http://b/");
  CHECK(merged[0].similar_pages() == 2);
  CHECK(merged[1].url() == "http://d/");
  CHECK(merged[1].similar_pages() == 0);
}

TEST_CASE("Link-only results are never folded", "[neardup]") {
  std::vector<v1::SearchResult> all = {R("http://a/", 10, 1, 0, 0.5), R("http://b/", 11, 2, 10, 0.4)};
  all[1].set_link_only(true);
  const auto kept = FoldNearDuplicates(all);
  CHECK(kept.size() == 2);
}

TEST_CASE("Cluster counts add up over queue servers, the first page counted once", "[neardup]") {
  v1::NearDuplicateClustersResponse a, b;
  auto* c1 = a.add_clusters();
  c1->set_cluster(5);
  c1->set_url("http://first/");
  c1->set_pages(3);  // 2 members + the first
  c1->add_sample_urls("http://m1/");
  auto* c2 = b.add_clusters();
  c2->set_cluster(5);
  c2->set_url("http://first/");
  c2->set_pages(2);  // 1 member + the first
  c2->add_sample_urls("http://m3/");
  auto* small = b.add_clusters();
  small->set_cluster(6);
  small->set_pages(2);
  const auto merged = MergeClusters({a, b}, 10);
  REQUIRE(merged.size() == 2);
  CHECK(merged[0].cluster() == 5);
  CHECK(merged[0].pages() == 4);
  CHECK(merged[0].sample_urls_size() == 2);
  CHECK(MergeClusters({a, b}, 1).size() == 1);
}

TEST_CASE("The console's log JSON names the page a near-duplicate copies", "[neardup]") {
  crawl::v1::FetchRecord r;
  r.set_url("http://b.test/copy");
  r.set_near_duplicate_of("http://a.test/first");
  const auto v = boost::json::parse(crawl::nameserver::LogRowJson(r));
  CHECK(v.at("near_duplicate_of").as_string() == "http://a.test/first");
}
