// A document summary keeps its near-duplicate cluster
// (queueserver/index/doc_summary.h), and summaries written before the
// field existed still read, with no cluster.
#include <catch2/catch.hpp>

#include "queueserver/index/doc_summary.h"

using crawl::queueserver::DocSummary;
using crawl::queueserver::EncodeSummary;
using crawl::queueserver::ParseSummary;

TEST_CASE("A summary round-trips its near-duplicate cluster; older records read as none", "[neardup]") {
  DocSummary s;
  s.url = "http://k.test/1";
  s.title = "Kingfisher";
  s.description = {"the kingfisher dives"};
  const std::string old_record = EncodeSummary(s);  // no cluster: the bytes older versions wrote
  s.near_duplicate_cluster = 0xfedcba9876543210ULL;
  const std::string record = EncodeSummary(s);
  CHECK(record.size() > old_record.size());
  CHECK(record.starts_with(old_record));
  auto back = ParseSummary(record);
  REQUIRE(back.ok());
  CHECK(back->near_duplicate_cluster == 0xfedcba9876543210ULL);
  CHECK(back->description == s.description);
  auto old = ParseSummary(old_record);
  REQUIRE(old.ok());
  CHECK(old->near_duplicate_cluster == 0);
  CHECK_FALSE(ParseSummary(old_record + "\xff").ok());  // a cluster varint cut short
}
