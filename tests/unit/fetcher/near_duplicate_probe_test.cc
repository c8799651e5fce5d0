// The fetcher's fingerprint look-ups before shipping
// (fetcher/near_duplicate_probe.h): probes go to the owners of their
// buckets, the earliest answer wins, a page is never its own duplicate, an
// owner that does not answer costs only its answers, and a crawl can turn
// it all off.
#include "fetcher/near_duplicate_probe.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>

#include "common/base/hash.h"
#include "common/crawl/fingerprint_blocks.h"

using namespace crawl::fetcher;
namespace v1 = crawl::v1;

namespace {

v1::CrawlInfo Crawl(int servers) {
  v1::CrawlInfo info;
  info.set_crawl_id(9);
  for (int i = 0; i < servers; ++i) info.add_queue_servers()->set_id("qs" + std::to_string(i));
  return info;
}

google::protobuf::RepeatedPtrField<v1::FetchRecord> Records() {
  google::protobuf::RepeatedPtrField<v1::FetchRecord> records;
  const uint64_t fps[] = {0x1111222233334444ULL, 0, 0x9999aaaabbbbccccULL};
  for (int i = 0; i < 3; ++i) {
    v1::FetchRecord* r = records.Add();
    r->set_url("http://h/" + std::to_string(i));
    r->set_simhash(fps[i]);
    r->set_timestamp_unix_us(1000 + i);
  }
  return records;
}

}  // namespace

TEST_CASE("Every table of every fingerprinted record is asked of its bucket's owner, once", "[neardup]") {
  const v1::CrawlInfo info = Crawl(3);
  const auto records = Records();
  const FingerprintPlan plan = PlanFingerprintProbes(info, records);
  REQUIRE(plan.requests.size() == 3);
  std::vector<std::string> ids = {"qs0", "qs1", "qs2"};
  std::multiset<std::pair<int, uint32_t>> asked;
  for (size_t s = 0; s < plan.requests.size(); ++s) {
    CHECK(plan.requests[s].max_distance() == 3);
    for (int p = 0; p < plan.requests[s].probes_size(); ++p) {
      const int record = plan.record_of[s][static_cast<size_t>(p)];
      const v1::FingerprintProbe& probe = plan.requests[s].probes(p);
      CHECK(probe.url_hash() == crawl::hash::Hash8(records[record].url()));
      for (uint32_t t : probe.tables()) {
        CHECK(crawl::FingerprintBucketOwner(ids, t, crawl::FingerprintBlock(probe.fingerprint(), t)) == s);
        asked.insert({record, t});
      }
    }
  }
  CHECK(asked.size() == 8);  // records 0 and 2, 4 tables each; record 1 has no simhash
  CHECK(asked.count({1, 0}) == 0);
}

TEST_CASE("The earliest cluster any owner answers is taken, never the page itself", "[neardup]") {
  const v1::CrawlInfo info = Crawl(1);
  auto records = Records();
  const FingerprintPlan plan = PlanFingerprintProbes(info, records);
  v1::MatchFingerprintsResponse resp;
  auto* late = resp.add_matches();
  late->set_probe(0);
  late->set_cluster(77);
  late->set_cluster_url("http://late/");
  late->set_fetched_unix_us(500);
  auto* early = resp.add_matches();
  early->set_probe(0);
  early->set_cluster(66);
  early->set_cluster_url("http://early/");
  early->set_fetched_unix_us(100);
  auto* self = resp.add_matches();  // record 2's own URL: not a duplicate
  self->set_probe(1);
  self->set_cluster(crawl::hash::Hash8("http://h/2"));
  self->set_fetched_unix_us(1);
  CHECK(ApplyFingerprintMatches(plan, {&resp}, &records) == 1);
  CHECK(records[0].near_duplicate_cluster() == 66);
  CHECK(records[0].near_duplicate_of() == "http://early/");
  CHECK(records[2].near_duplicate_cluster() == 0);
}

TEST_CASE("An owner that does not answer leaves its pages without a cluster; the others still count",
          "[neardup]") {
  const v1::CrawlInfo info = Crawl(4);
  auto records = Records();
  std::atomic<size_t> calls{0};
  MarkNearDuplicates(
      info,
      [&](size_t s, const v1::MatchFingerprintsRequest& req, v1::MatchFingerprintsResponse* out) {
        ++calls;
        if (s == 0) return false;  // unreachable
        for (int p = 0; p < req.probes_size(); ++p) {
          auto* m = out->add_matches();
          m->set_probe(static_cast<uint32_t>(p));
          m->set_cluster(1000 + s);
          m->set_cluster_url("http://first/" + std::to_string(s));
          m->set_fetched_unix_us(static_cast<int64_t>(s));
        }
        return true;
      },
      &records);
  CHECK(calls >= 2);
  for (int i : {0, 2}) {
    CHECK(records[i].near_duplicate_cluster() > 1000);
    CHECK(records[i].near_duplicate_cluster() != 1000);  // server 0 never answered
  }
}

TEST_CASE("A crawl with no_near_duplicates asks nobody", "[neardup]") {
  v1::CrawlInfo info = Crawl(2);
  info.mutable_params()->set_no_near_duplicates(true);
  auto records = Records();
  std::atomic<size_t> calls{0};
  MarkNearDuplicates(
      info,
      [&](size_t, const v1::MatchFingerprintsRequest&, v1::MatchFingerprintsResponse*) {
        return ++calls > 0;
      },
      &records);
  CHECK(calls == 0);
  info.mutable_params()->set_no_near_duplicates(false);
  info.mutable_params()->set_near_duplicate_bits(9);
  CHECK(PlanFingerprintProbes(info, records).requests[0].max_distance() == 3);
  info.mutable_params()->set_near_duplicate_bits(1);
  CHECK(PlanFingerprintProbes(info, records).requests[0].max_distance() == 1);
}

TEST_CASE("Every owner is asked at once, not one after the other", "[neardup]") {
  const v1::CrawlInfo info = Crawl(4);
  auto records = Records();
  size_t asked = 0;
  for (const auto& r : PlanFingerprintProbes(info, records).requests) asked += r.probes_size() > 0;
  std::mutex mu;
  std::condition_variable cv;
  size_t entered = 0, saw_all = 0;
  // Each call waits (up to 5 s) until every call has started: one after the
  // other, the first would wait alone.
  MarkNearDuplicates(
      info,
      [&](size_t, const v1::MatchFingerprintsRequest& req, v1::MatchFingerprintsResponse*) {
        if (req.probes_size() == 0) return true;
        std::unique_lock lock(mu);
        ++entered;
        cv.notify_all();
        if (cv.wait_for(lock, std::chrono::seconds(5), [&] { return entered == asked; })) ++saw_all;
        return true;
      },
      &records);
  CHECK(asked >= 2);
  CHECK(entered == asked);
  CHECK(saw_all == asked);
}
