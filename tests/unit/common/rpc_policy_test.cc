// Deadlines and retries of the calls between processes (common/net/rpc_policy.h).
#include "common/net/rpc_policy.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

namespace crawl::rpc {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST_CASE("every call between processes has a deadline of at most 30 s", "[unit][rpc_policy]") {
  for (const Policy& p : kAll) {
    INFO(p.call);
    CHECK(p.deadline > milliseconds(0));
    CHECK(p.deadline <= seconds(30));
    CHECK(p.retry_for >= milliseconds(0));
    CHECK(p.retry_for <= seconds(300));
  }
}

TEST_CASE("a result batch is retried past a restart of its queue server, then dropped",
          "[unit][rpc_policy]") {
  // A restarted queue server is back within seconds: many tries fit.
  CHECK(kShipBatch.retry_for >= 10 * kRetryMaxBackoff + 2 * kShipBatch.deadline);
  CHECK(kRetryFirstBackoff < kRetryMaxBackoff);
}

TEST_CASE("a held crawl-state poll ends well within its deadline", "[unit][rpc_policy]") {
  CHECK(kCrawlStateMaxHold * 4 <= kCrawlStatePoll.deadline);
}

TEST_CASE("calls on the crawl's hot path fail fast where a fallback exists", "[unit][rpc_policy]") {
  // A fingerprint or address-slot answer is worth less than the time a lane
  // would wait for it: their fallbacks (no cluster, an unchecked connection)
  // take over within a couple of seconds.
  CHECK(kMatchFingerprints.deadline <= seconds(2));
  CHECK(kAddressSlots.deadline <= seconds(2));
  CHECK(kMatchFingerprints.retry_for == milliseconds(0));
  CHECK(kAddressSlots.retry_for == milliseconds(0));
}

TEST_CASE("docs/OPERATIONS.md lists every call with its deadline", "[unit][rpc_policy]") {
  std::ifstream in(std::string(CRAWL_SOURCE_DIR) + "/docs/OPERATIONS.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const size_t section = doc.find("## Calls between processes");
  REQUIRE(section != std::string::npos);
  const std::string table = doc.substr(section, doc.find("\n## ", section + 1) - section);
  for (const Policy& p : kAll) {
    INFO(p.call);
    CHECK(table.find("| " + std::string(p.call) + " |") != std::string::npos);
  }
}

}  // namespace
}  // namespace crawl::rpc
