// Tests for loopback address assignment and the hosts file
// (tests/testweb/hosts_file.h, atomic_file.h).
#include "tests/testweb/hosts_file.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/base/atomic_file.h"

namespace crawl::testweb {
namespace {

std::string TempPath(const std::string& name) {
  return "/tmp/testweb_unit_" + std::to_string(::getpid()) + "_" + name;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST_CASE("host addresses count up from the base, skipping .0 and .255", "[unit]") {
  auto a = LoopbackAddresses(kDefaultBindBase, 300);
  REQUIRE(a.ok());
  REQUIRE(a->size() == 300);
  CHECK((*a)[0] == "127.20.0.1");
  CHECK((*a)[1] == "127.20.0.2");
  CHECK((*a)[253] == "127.20.0.254");
  CHECK((*a)[254] == "127.20.1.1");
  for (const auto& s : *a) {
    CHECK(s.substr(s.rfind('.')) != ".0");
    CHECK(s.substr(s.rfind('.')) != ".255");
  }
}

TEST_CASE("bad bind bases are rejected", "[unit]") {
  CHECK_FALSE(LoopbackAddresses("10.0.0.1", 1).ok());
  CHECK_FALSE(LoopbackAddresses("not-an-ip", 1).ok());
  CHECK_FALSE(LoopbackAddresses("127.255.255.250", 10).ok());
}

TEST_CASE("the hosts file has one IP:PORT NAME line per host", "[unit]") {
  const std::vector<HostsEntry> entries = {{"127.20.0.1", 40123, "www.site0.test"},
                                           {"127.20.0.2", 40123, "www.site1.test"}};
  CHECK(FormatHostsFile(entries) == "127.20.0.1:40123 www.site0.test\n127.20.0.2:40123 www.site1.test\n");
  const std::string path = TempPath("hosts");
  REQUIRE(WriteHostsFile(path, entries).ok());
  CHECK(ReadAll(path) == FormatHostsFile(entries));
  std::ifstream tmp(path + ".tmp");
  CHECK_FALSE(tmp.good());  // renamed away
  std::remove(path.c_str());
}

TEST_CASE("an uncommitted atomic file leaves nothing behind", "[unit]") {
  const std::string path = TempPath("atomic");
  {
    AtomicFile f(path);
    REQUIRE(f.Open().ok());
    f.stream() << "half";
  }
  CHECK_FALSE(std::ifstream(path).good());
  CHECK_FALSE(std::ifstream(path + ".tmp").good());
  CHECK_FALSE(WriteFileAtomically("/nonexistent-dir/x", "y").ok());
}

TEST_CASE("hosts sharing addresses go round-robin over them", "[unit]") {
  auto a = HostAddresses("127.20.0.0", 5, 2);
  REQUIRE(a.ok());
  CHECK(*a == std::vector<std::string>{"127.20.0.1", "127.20.0.2", "127.20.0.1", "127.20.0.2", "127.20.0.1"});
  auto own = HostAddresses("127.20.0.0", 3, 0);
  REQUIRE(own.ok());
  CHECK(*own == std::vector<std::string>{"127.20.0.1", "127.20.0.2", "127.20.0.3"});
  auto more = HostAddresses("127.20.0.0", 2, 9);  // more addresses than hosts: one each
  REQUIRE(more.ok());
  CHECK(more->size() == 2);
  CHECK_FALSE(HostAddresses("10.0.0.0", 2, 1).ok());
}

}  // namespace
}  // namespace crawl::testweb
