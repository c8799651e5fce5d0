// Tests for the access log format (tests/testweb/access_log.h).
#include "tests/testweb/access_log.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace crawl::testweb {
namespace {

TEST_CASE("timestamps are ISO 8601 UTC with microseconds", "[unit]") {
  using namespace std::chrono;
  const system_clock::time_point t{seconds(1'700'000'000) + microseconds(42)};
  CHECK(AccessLog::FormatTimestamp(t) == "2023-11-14T22:13:20.000042Z");
}

TEST_CASE("each request is one tab-separated line, appended", "[unit]") {
  const std::string path = "/tmp/testweb_unit_" + std::to_string(::getpid()) + "_access.log";
  std::remove(path.c_str());
  {
    AccessLog log;
    REQUIRE(log.Open(path).ok());
    const std::chrono::system_clock::time_point t{std::chrono::seconds(0)};
    log.Write(t, "www.site0.test", "/p1.html", 200, 1234, "127.0.0.1:5555", 12.3456, 7);
    log.Write(t, "", "/bad\ttarget", 404, 0, "127.0.0.1:5556");
  }
  std::ifstream in(path);
  std::string l1, l2, l3;
  std::getline(in, l1);
  std::getline(in, l2);
  CHECK_FALSE(std::getline(in, l3));
  CHECK(l1 == "1970-01-01T00:00:00.000000Z\twww.site0.test\t/p1.html\t200\t1234\t127.0.0.1:5555\t12.346\t7");
  CHECK(l2 == "1970-01-01T00:00:00.000000Z\t-\t/bad?target\t404\t0\t127.0.0.1:5556\t0.000\t0");
  std::remove(path.c_str());
  AccessLog bad;
  CHECK_FALSE(bad.Open("/nonexistent-dir/log").ok());
}

}  // namespace
}  // namespace crawl::testweb
