// The near-duplicate block tables of a queue server
// (queueserver/neardup/fingerprint_table.h, cluster_counts.h): a probe
// finds the earliest entry within the distance, joins its cluster, and a
// refetch keeps its first entry; in memory and in RocksDB alike.
#include "queueserver/neardup/fingerprint_table.h"

#include <catch2/catch.hpp>
#include <string>

#include "common/base/hash.h"
#include "queueserver/neardup/cluster_counts.h"
#include "queueserver/neardup/kv_store.h"
#include "queueserver/neardup/near_duplicates.h"
#include "tests/unit/support/temp_dir.h"

using crawl::queueserver::neardup::FingerprintTable;
using crawl::queueserver::neardup::MemoryKvStore;
namespace v1 = crawl::v1;

namespace {

v1::FingerprintProbe Probe(uint64_t fp, const std::string& url, int64_t at_us) {
  v1::FingerprintProbe p;
  p.set_fingerprint(fp);
  p.set_url(url);
  p.set_url_hash(crawl::hash::Hash8(url));
  p.set_fetched_unix_us(at_us);
  for (uint32_t t = 0; t < 4; ++t) p.add_tables(t);
  return p;
}

// One probe (all 4 tables) answered by `table`.
v1::MatchFingerprintsResponse Ask(FingerprintTable& table, const v1::FingerprintProbe& p,
                                  uint32_t distance = 3) {
  v1::MatchFingerprintsRequest req;
  req.set_crawl_id(7);
  req.set_max_distance(distance);
  *req.add_probes() = p;
  v1::MatchFingerprintsResponse resp;
  REQUIRE(table.Match(req, &resp).ok());
  return resp;
}

constexpr uint64_t kFp = 0x0123456789abcdefULL;

}  // namespace

TEST_CASE("A fingerprint within 3 bits of an earlier one joins its cluster", "[neardup]") {
  MemoryKvStore store;
  FingerprintTable table(&store);
  CHECK(Ask(table, Probe(kFp, "http://a/1", 100)).matches_size() == 0);
  // 3 bits apart, spread over 3 blocks: table 3 still agrees exactly.
  const auto resp = Ask(table, Probe(kFp ^ 0x1ULL ^ (1ULL << 17) ^ (1ULL << 33), "http://b/1", 200));
  REQUIRE(resp.matches_size() == 1);
  CHECK(resp.matches(0).cluster() == crawl::hash::Hash8("http://a/1"));
  CHECK(resp.matches(0).cluster_url() == "http://a/1");
  CHECK(resp.matches(0).distance() == 3);
  CHECK(resp.matches(0).fetched_unix_us() == 100);
}

TEST_CASE("A fingerprint 4 bits away, or beyond the asked distance, is no match", "[neardup]") {
  MemoryKvStore store;
  FingerprintTable table(&store);
  (void)Ask(table, Probe(kFp, "http://a/1", 100));
  CHECK(Ask(table, Probe(kFp ^ 0xfULL, "http://b/1", 200)).matches_size() == 0);
  CHECK(Ask(table, Probe(kFp ^ 0x3ULL, "http://c/1", 300), 1).matches_size() == 0);
  CHECK(Ask(table, Probe(kFp ^ 0x1ULL, "http://d/1", 400), 1).matches_size() == 1);
}

TEST_CASE("A chain of copies all name the first page's cluster", "[neardup]") {
  MemoryKvStore store;
  FingerprintTable table(&store);
  (void)Ask(table, Probe(kFp, "http://a/1", 100));
  (void)Ask(table, Probe(kFp ^ 0x1ULL, "http://b/1", 200));
  const auto third = Ask(table, Probe(kFp ^ 0x1ULL ^ 0x2ULL, "http://c/1", 300));
  REQUIRE(third.matches_size() == 1);
  CHECK(third.matches(0).cluster_url() == "http://a/1");
}

TEST_CASE("A refetch keeps its first entry: the leader stays one, a member stays in its cluster",
          "[neardup]") {
  MemoryKvStore store;
  FingerprintTable table(&store);
  (void)Ask(table, Probe(kFp, "http://a/1", 100));
  (void)Ask(table, Probe(kFp ^ 0x1ULL, "http://b/1", 200));
  CHECK(Ask(table, Probe(kFp, "http://a/1", 900)).matches_size() == 0);
  // b changed entirely since: still a member of a's cluster.
  const auto again = Ask(table, Probe(~kFp, "http://b/1", 1000));
  REQUIRE(again.matches_size() == 1);
  CHECK(again.matches(0).cluster_url() == "http://a/1");
  // and its new fingerprint was not inserted: nobody matches it
  CHECK(Ask(table, Probe(~kFp ^ 0x1ULL, "http://z/1", 1100)).matches_size() == 0);
}

TEST_CASE("Bad probes are refused before anything is inserted", "[neardup]") {
  MemoryKvStore store;
  FingerprintTable table(&store);
  v1::MatchFingerprintsRequest req;
  req.set_crawl_id(7);
  *req.add_probes() = Probe(kFp, "http://a/1", 100);
  req.mutable_probes(0)->add_tables(9);
  v1::MatchFingerprintsResponse resp;
  CHECK_FALSE(table.Match(req, &resp).ok());
  CHECK(Ask(table, Probe(kFp, "http://b/1", 200)).matches_size() == 0);
}

TEST_CASE("Fingerprint tables and cluster counts survive in RocksDB and go with their crawl", "[neardup]") {
  crawl::test_support::TempDir dir;
  {
    auto nd = crawl::queueserver::neardup::NearDuplicates::Open(dir.path.string() + "/neardup");
    REQUIRE(nd.ok());
    v1::MatchFingerprintsRequest req;
    req.set_crawl_id(7);
    req.set_max_distance(3);
    *req.add_probes() = Probe(kFp, "http://a/1", 100);
    v1::MatchFingerprintsResponse resp;
    REQUIRE((*nd)->Match(req, &resp).ok());
    google::protobuf::RepeatedPtrField<v1::FetchRecord> records;
    for (const char* url : {"http://b/1", "http://c/1", "http://b/1"}) {
      v1::FetchRecord* r = records.Add();
      r->set_url(url);
      r->set_near_duplicate_cluster(crawl::hash::Hash8("http://a/1"));
      r->set_near_duplicate_of("http://a/1");
    }
    records.Add()->set_url("http://lonely/");
    REQUIRE((*nd)->Ingest(7, records).ok());
  }
  auto nd = crawl::queueserver::neardup::NearDuplicates::Open(dir.path.string() + "/neardup");
  REQUIRE(nd.ok());
  v1::MatchFingerprintsRequest req;
  req.set_crawl_id(7);
  req.set_max_distance(3);
  *req.add_probes() = Probe(kFp ^ 0x4ULL, "http://d/1", 500);
  v1::MatchFingerprintsResponse resp;
  REQUIRE((*nd)->Match(req, &resp).ok());
  REQUIRE(resp.matches_size() == 1);
  CHECK(resp.matches(0).cluster_url() == "http://a/1");

  v1::NearDuplicateClustersRequest creq;
  creq.set_crawl_id(7);
  v1::NearDuplicateClustersResponse clusters;
  REQUIRE((*nd)->Clusters(creq, &clusters).ok());
  REQUIRE(clusters.clusters_size() == 1);
  CHECK(clusters.clusters(0).url() == "http://a/1");
  CHECK(clusters.clusters(0).pages() == 3);  // a, b (counted once), c
  CHECK(clusters.clusters(0).sample_urls_size() == 2);

  REQUIRE((*nd)->DeleteCrawl(7).ok());
  v1::NearDuplicateClustersResponse none;
  REQUIRE((*nd)->Clusters(creq, &none).ok());
  CHECK(none.clusters_size() == 0);
  v1::MatchFingerprintsResponse after;
  req.mutable_probes(0)->set_url("http://e/1");
  req.mutable_probes(0)->set_url_hash(crawl::hash::Hash8("http://e/1"));
  REQUIRE((*nd)->Match(req, &after).ok());
  CHECK(after.matches_size() == 0);
}

TEST_CASE("Largest clusters come first, at most the limit", "[neardup]") {
  MemoryKvStore store;
  google::protobuf::RepeatedPtrField<v1::FetchRecord> records;
  for (int c = 1; c <= 3; ++c) {
    for (int i = 0; i < c; ++i) {
      v1::FetchRecord* r = records.Add();
      r->set_url("http://m/" + std::to_string(c) + "/" + std::to_string(i));
      r->set_near_duplicate_cluster(static_cast<uint64_t>(c));
      r->set_near_duplicate_of("http://first/" + std::to_string(c));
    }
  }
  REQUIRE(crawl::queueserver::neardup::AddClusterMembers(store, 7, records).ok());
  v1::NearDuplicateClustersResponse resp;
  REQUIRE(crawl::queueserver::neardup::LargestClusters(store, 7, 2, &resp).ok());
  REQUIRE(resp.clusters_size() == 2);
  CHECK(resp.clusters(0).url() == "http://first/3");
  CHECK(resp.clusters(0).pages() == 4);
  CHECK(resp.clusters(1).pages() == 3);
}
